#include "corpus.h"
typedef long (*Op)(long, long);
static long op_add(long a, long b) { return a + b; } static long op_sub(long a, long b) { return a - b; }
static long op_mul(long a, long b) { return a * b; } static long op_max(long a, long b) { return a > b ? a : b; }
static long op_xor(long a, long b) { return a ^ b; }
static Op table[] = {op_add, op_sub, op_mul, op_max, op_xor};
static long apply(Op f, long a, long b) { return f(a, b); }
PROGRAM(function_pointers) {
  UNUSED_ARGS;
  long acc = 1;
  for (int i = 0; i < 50; ++i) { acc = apply(table[i % 5], acc, i + 3) % 1000003; printf("%ld ", acc); }
  printf("\n");
  return 0;
}
