#include "corpus.h"
#include <math.h>
#include <float.h>
PROGRAM(float_edge) {
  UNUSED_ARGS;
  volatile double zero = 0.0, one = 1.0, big = DBL_MAX, tiny = DBL_MIN;
  double r[] = {one / zero, -one / zero, zero / zero, sqrt(-one), big * 2, tiny / 3, fmin(NAN, 1.0), fmax(-0.0, 0.0), copysign(3, -0.0), nextafter(1.0, 2.0)};
  for (int i = 0; i < 10; ++i) printf("%g %d %d %d|", r[i], isnan(r[i]) != 0, isinf(r[i]) != 0, signbit(r[i]) != 0);
  printf("\n");
  volatile float f = 16777217.0f; volatile float g = 0.1f;
  printf("%.1f %.10f %.10f %d\n", f, g * 3.0f, (double)g, (int)(g * 100.0f));
  printf("%.17g %.17g %.17g\n", fma(0.1, 10.0, -1.0), 0.1 * 10.0 - 1.0, remainder(10.0, 3.0));
  printf("%d %d %d\n", 1.0 < NAN, NAN != NAN, isunordered(one, zero / zero));
  return 0;
}
