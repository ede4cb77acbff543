#include "corpus.h"
#include <setjmp.h>
static jmp_buf env;
static int counter;
__attribute__((noinline)) static void deep(int n) { if (n == 0) longjmp(env, ++counter); deep(n - 1); }
PROGRAM(setjmp_longjmp) {
  UNUSED_ARGS;
  volatile int rounds = 0;
  int r = setjmp(env);
  printf("setjmp returned %d\n", r);
  if (rounds++ < 5) deep(rounds * 3);
  printf("done after %d\n", rounds);
  return 0;
}
