#include "corpus.h"
/* Built at -Os. */
PROGRAM(bits_Os) {
  UNUSED_ARGS;
  unsigned v = 0x12345678; unsigned long acc = 0;
  for (int i = 0; i < 1000; ++i) { v = (v >> 3) | (v << 29); v ^= (unsigned)i * 0x9e3779b9u; acc += __builtin_popcount(v) + (v & 0xff); }
  printf("%u %lu\n", v, acc);
  return 0;
}
