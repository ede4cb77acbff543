#include "corpus.h"
#include <math.h>
PROGRAM(printf_floats) {
  UNUSED_ARGS;
  double v[] = {0.0, -0.0, 1.0, -1.5, 3.141592653589793, 2.718281828459045, 1e-10, 1e10, 123456789.123456789, 1e300, 5e-324,
                0.1, 0.5, 2.5, 1.0 / 3.0, INFINITY, -INFINITY, NAN};
  for (unsigned i = 0; i < sizeof v / sizeof v[0]; ++i)
    printf("|%f|%.2f|%10.3f|%-10.1f|%e|%.3E|%g|%G|%a|%.0f|%+.4g|\n", v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i]);
  float f = 1.1f;
  for (int i = 0; i < 10; ++i) { printf("%.9g ", f); f *= 3.3f; }
  printf("\n%.20f\n%.17g\n", 0.1, 0.1);
  return 0;
}
