#include "corpus.h"
static int is_prime(uint64_t n) { if (n < 2) return 0; for (uint64_t d = 2; d * d <= n; ++d) if (n % d == 0) return 0; return 1; }
static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m) { return (uint64_t)((unsigned __int128)a * b % m); }
static uint64_t powmod(uint64_t b, uint64_t e, uint64_t m) { uint64_t r = 1; b %= m; while (e) { if (e & 1) r = mulmod(r, b, m); b = mulmod(b, b, m); e >>= 1; } return r; }
PROGRAM(primes) {
  UNUSED_ARGS;
  int count = 0; uint64_t last = 0;
  for (uint64_t n = 1000000; n < 1003000; ++n) if (is_prime(n)) { ++count; last = n; }
  printf("%d primes, last %llu\n", count, (unsigned long long)last);
  printf("%llu %llu\n", (unsigned long long)powmod(2, 1000000, 1000000007), (unsigned long long)powmod(3, 0xffffffffffffULL, 0xfffffffffffffffbULL));
  return 0;
}
