#include "corpus.h"
PROGRAM(bignum) {
  UNUSED_ARGS;
  static uint32_t digits[3000]; int len = 1; digits[0] = 1;
  for (uint32_t k = 2; k <= 400; ++k) { uint64_t carry = 0; for (int i = 0; i < len; ++i) { uint64_t v = (uint64_t)digits[i] * k + carry; digits[i] = (uint32_t)(v % 1000000000); carry = v / 1000000000; } while (carry) { digits[len++] = (uint32_t)(carry % 1000000000); carry /= 1000000000; } }
  printf("400! has %d limbs: %u", len, digits[len - 1]);
  for (int i = len - 2; i >= len - 6; --i) printf("%09u", digits[i]);
  printf("... %09u\n", digits[30]);
  return 0;
}
