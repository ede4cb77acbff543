/* Integer-heavy: hashing, bit mixing, a sieve and a small interpreter loop. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
int bench_integer(void) {
  uint64_t h = 0x9e3779b97f4a7c15ULL, acc = 0;
  for (uint32_t i = 0; i < 200000000u; ++i) {
    h ^= h << 13; h ^= h >> 7; h ^= h << 17;
    acc += (h >> (i & 31)) ^ (uint32_t)(h * 0x2545f4914f6cdd1dULL >> 40);
  }
  static uint8_t sieve[20000000];
  memset(sieve, 0, sizeof sieve);
  uint32_t primes = 0;
  for (uint32_t i = 2; i < sizeof sieve; ++i)
    if (!sieve[i]) { ++primes; for (uint32_t j = i * 2; j < sizeof sieve; j += i) sieve[j] = 1; }
  printf("integer: %llu %u\n", (unsigned long long)acc, primes);
  return 0;
}
