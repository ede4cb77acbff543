#include "corpus.h"
__attribute__((noinline)) static long even(long n);
__attribute__((noinline)) static long odd(long n) { return n == 0 ? 0 : even(n - 1); }
__attribute__((noinline)) static long even(long n) { return n == 0 ? 1 : odd(n - 1); }
__attribute__((noinline)) static long sum_to(long n, long acc) { return n == 0 ? acc : sum_to(n - 1, acc + n); }
PROGRAM(tailcalls) { UNUSED_ARGS; printf("%ld %ld %ld\n", even(1000001), odd(77), sum_to(5000000, 0)); return 0; }
