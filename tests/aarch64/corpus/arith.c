#include "corpus.h"
static volatile int64_t values[] = {0, 1, -1, 7, -7, 123456789, -987654321, INT64_MAX, INT64_MIN, 0x7fffffff, -0x80000000LL, 255};
PROGRAM(arith) {
  UNUSED_ARGS;
  const int n = sizeof values / sizeof values[0];
  uint64_t acc = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      int64_t a = values[i], b = values[j];
      uint64_t s = (uint64_t)a + (uint64_t)b, d = (uint64_t)a - (uint64_t)b, m = (uint64_t)a * (uint64_t)b;
      int64_t q = (b != 0 && !(a == INT64_MIN && b == -1)) ? a / b : 0;
      int64_t r = (b != 0 && !(a == INT64_MIN && b == -1)) ? a % b : 0;
      uint64_t uq = b ? (uint64_t)a / (uint64_t)b : 0;
      int32_t a32 = (int32_t)a, b32 = (int32_t)b;
      int32_t q32 = (b32 != 0 && !(a32 == INT32_MIN && b32 == -1)) ? a32 / b32 : 0;
      acc = acc * 31 + s + 3 * d + 5 * m + 7 * (uint64_t)q + 11 * (uint64_t)r + 13 * uq + (uint32_t)q32;
      if (i == j) printf("%lld %lld: %llx %llx %llx %lld %lld %llu %d\n", (long long)a, (long long)b, (unsigned long long)s,
                         (unsigned long long)d, (unsigned long long)m, (long long)q, (long long)r, (unsigned long long)uq, q32);
    }
  printf("acc %llx\n", (unsigned long long)acc);
  int cmp = 0;
  for (int i = 0; i < n; ++i) for (int j = 0; j < n; ++j) cmp = cmp * 3 + (values[i] < values[j]) + 2 * ((uint64_t)values[i] < (uint64_t)values[j]);
  printf("cmp %d\n", cmp);
  return 0;
}
