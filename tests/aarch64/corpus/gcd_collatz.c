#include "corpus.h"
static uint64_t gcd(uint64_t a, uint64_t b) { while (b) { uint64_t t = a % b; a = b; b = t; } return a; }
PROGRAM(gcd_collatz) {
  UNUSED_ARGS;
  uint64_t g = 0; for (uint64_t i = 1; i < 2000; ++i) g += gcd(i * 7919, 1234567 + i);
  int longest = 0; uint64_t arg = 0;
  for (uint64_t n = 1; n < 300000; ++n) { uint64_t x = n; int steps = 0; while (x != 1) { x = (x & 1) ? 3 * x + 1 : x >> 1; ++steps; } if (steps > longest) { longest = steps; arg = n; } }
  printf("gcd sum %llu collatz %llu %d\n", (unsigned long long)g, (unsigned long long)arg, longest);
  return 0;
}
