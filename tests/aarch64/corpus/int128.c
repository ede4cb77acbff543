#include "corpus.h"
static void print_u128(unsigned __int128 v) {
  char buf[64]; int i = 63; buf[i] = 0;
  do { buf[--i] = '0' + (int)(v % 10); v /= 10; } while (v);
  printf("%s\n", buf + i);
}
PROGRAM(int128) {
  UNUSED_ARGS;
  unsigned __int128 f = 1;
  for (int i = 1; i <= 34; ++i) { f *= i; print_u128(f); }
  __int128 s = -1;
  s <<= 100; s /= 12345;
  printf("%lld\n", (long long)(s >> 64));
  unsigned __int128 a = ((unsigned __int128)0x0123456789abcdefULL << 64) | 0xfedcba9876543210ULL;
  print_u128(a / 1000000007ULL); print_u128(a % 1000000007ULL);
  uint64_t x = 0xdeadbeefcafebabeULL, y = 0x123456789ULL;
  unsigned __int128 p = (unsigned __int128)x * y;
  printf("%016llx%016llx\n", (unsigned long long)(p >> 64), (unsigned long long)p);
  return 0;
}
