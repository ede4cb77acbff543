#include "corpus.h"
static int ackermann(int m, int n) { return m == 0 ? n + 1 : n == 0 ? ackermann(m - 1, 1) : ackermann(m - 1, ackermann(m, n - 1)); }
__attribute__((noinline)) static long depth(long n) { volatile char pad[64]; pad[0] = (char)n; return n == 0 ? pad[0] : 1 + depth(n - 1); }
static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
PROGRAM(recursion) {
  UNUSED_ARGS;
  printf("ack(2,3)=%d ack(3,5)=%d\n", ackermann(2, 3), ackermann(3, 5));
  printf("depth=%ld\n", depth(100000));
  printf("fib(27)=%ld\n", fib(27));
  return 0;
}
