#include "corpus.h"
PROGRAM(malloc_stress) {
  UNUSED_ARGS;
  void* slots[256] = {0}; size_t sizes[256] = {0};
  uint32_t s = 99; uint64_t check = 0;
  for (int round = 0; round < 20000; ++round) {
    s = s * 1103515245 + 12345;
    int k = (s >> 16) & 255;
    size_t want = ((s >> 4) & 7) == 0 ? (s & 0xfffff) : (s & 0x3ff);
    if (slots[k] && (s & 1)) {
      for (size_t i = 0; i < sizes[k]; ++i) check += ((uint8_t*)slots[k])[i];
      free(slots[k]); slots[k] = NULL;
    } else if (slots[k]) {
      slots[k] = realloc(slots[k], want + 1); sizes[k] = sizes[k] < want + 1 ? sizes[k] : want + 1;
    } else {
      slots[k] = malloc(want + 1); sizes[k] = want + 1; memset(slots[k], k, want + 1);
    }
  }
  void* big = calloc(1000, 1000); check += ((uint8_t*)big)[999999]; free(big);
  for (int k = 0; k < 256; ++k) free(slots[k]);
  printf("check %llu\n", (unsigned long long)check);
  return 0;
}
