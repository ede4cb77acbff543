#include "corpus.h"
PROGRAM(long_double) {
  UNUSED_ARGS;
  long double x = 1.0L;
  for (int i = 1; i <= 25; ++i) x *= i;
  printf("%.0Lf\n%.30Lf\n%Lg\n", x, 1.0L / 3.0L, x / 7.0L);
  long double y = 0.1L; long double sum = 0; for (int i = 0; i < 10; ++i) sum += y;
  printf("%d %.25Lf\n", sum == 1.0L, sum);
  return 0;
}
