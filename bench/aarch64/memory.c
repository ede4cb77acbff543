/* Memory/string-heavy: memcpy/memset/memcmp/strlen/strchr over many sizes and alignments, plus qsort. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int compare(const void* a, const void* b) { uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b; return (x > y) - (x < y); }
int bench_memory(void) {
  static char src[1 << 20], dst[1 << 20];
  for (int i = 0; i < (1 << 20); ++i) src[i] = (char)('a' + i % 23);
  uint64_t acc = 0;
  for (int round = 0; round < 600; ++round) {
    for (int size = 1; size < 4096; size = size * 3 + 1) {
      for (int offset = 0; offset < 64 * 1024; offset += 4099) {
        memcpy(dst + offset + (round & 7), src + offset + size % 13, (size_t)size);
        acc += (uint64_t)memcmp(dst + offset + (round & 7), src + offset + size % 13, (size_t)size);
      }
    }
    memset(dst, round & 0xff, 256 * 1024);
    memmove(dst + 1, dst, 128 * 1024);
    src[100000 + round] = 0;
    acc += strlen(src + round) + (size_t)(strchr(src + round, 'w') - src);
    src[100000 + round] = 'x';
  }
  static uint32_t values[1 << 20];
  uint32_t s = 1;
  for (int i = 0; i < (1 << 20); ++i) { s = s * 1664525 + 1013904223; values[i] = s; }
  qsort(values, 1 << 20, sizeof(uint32_t), compare);
  printf("memory: %llu %u %u\n", (unsigned long long)acc, values[0], values[(1 << 20) - 1]);
  return 0;
}
