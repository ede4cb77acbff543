#include "corpus.h"
static uint8_t sieve[2000000];
static int64_t table[100000] = {1, 2, 3};
PROGRAM(big_arrays) {
  UNUSED_ARGS;
  int count = 0;
  for (int i = 2; i < 2000000; ++i) { if (!sieve[i]) { ++count; for (int j = i * 2; j < 2000000; j += i) sieve[j] = 1; } }
  for (int i = 3; i < 100000; ++i) table[i] = table[i - 1] + table[i - 3] * 3 % 1000003;
  printf("primes %d table %lld\n", count, (long long)table[99999]);
  return 0;
}
