#include "corpus.h"
#include <math.h>
PROGRAM(conversions) {
  UNUSED_ARGS;
  const char* texts[] = {"3.14159", "-2.5e-3", "1e308", "0x1.8p3", "inf", "-0", "123abc", "  42", "1e-320", "nan"};
  for (int i = 0; i < 10; ++i) { char* end; double d = strtod(texts[i], &end); printf("%s -> %.17g rest '%s' atoi %d strtol %ld\n", texts[i], d, end, atoi(texts[i]), strtol(texts[i], NULL, 0)); }
  double vals[] = {-1e20, -2147483649.0, -1.5, -0.5, 0.5, 1.5, 2.5, 4294967296.0, 1e20, NAN};
  for (int i = 0; i < 10; ++i) {
    volatile double v = vals[i];
    printf("%g: int %d uint %u long %lld ulong %llu float %.9g\n", v, isnan(v) ? 0 : (v > 2147483647.0 || v < -2147483648.0 ? 0 : (int)v),
           (v >= 0 && v < 4294967296.0) ? (unsigned)v : 0u, (v > -9.2e18 && v < 9.2e18) ? (long long)v : 0LL,
           (v >= 0 && v < 1.8e19) ? (unsigned long long)v : 0ULL, (float)v);
  }
  for (long long i = -5; i < 5; ++i) printf("%.1f %.1f ", (double)i * 1e18, (double)(unsigned long long)(i + 5) * 3.0);
  printf("\n%s\n", "done");
  return 0;
}
