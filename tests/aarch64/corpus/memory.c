#include "corpus.h"
PROGRAM(memory_functions) {
  UNUSED_ARGS;
  static uint8_t a[4096], b[4096];
  uint64_t h = 1469598103934665603ULL;
  for (int i = 0; i < 4096; ++i) a[i] = (uint8_t)(i * 131 + 7);
  for (int src = 0; src < 17; ++src)
    for (int dst = 0; dst < 17; dst += 3)
      for (int len = 0; len < 300; len = len * 2 + 1) {
        memset(b, 0xee, 700);
        memcpy(b + dst, a + src, (size_t)len);
        for (int i = 0; i < 700; ++i) h = (h ^ b[i]) * 1099511628211ULL;
        h ^= (uint64_t)(memcmp(b + dst, a + src, (size_t)len) == 0);
        memmove(b + dst + 5, b + dst, (size_t)len);
        memset(b + src, src, (size_t)len / 2);
        for (int i = 0; i < 700; ++i) h = (h ^ b[i]) * 1099511628211ULL;
        const uint8_t* p = memchr(b, 0x42, 700);
        h += p ? (uint64_t)(p - b) : 77;
      }
  printf("hash %016llx\n", (unsigned long long)h);
  memset(a, 0, 4096);
  for (int i = 0; i < 4096; ++i) if (a[i]) return 1;
  printf("zeroed\n");
  return 0;
}
