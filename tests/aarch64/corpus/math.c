#include "corpus.h"
#include <math.h>
PROGRAM(math) {
  UNUSED_ARGS;
  for (double x = -3.0; x <= 3.0; x += 0.37) {
    printf("%.6f: sin=%.12f cos=%.12f tan=%.10f exp=%.10g log=%.10g sqrt=%.12f atan2=%.12f pow=%.10g fmod=%.10f floor=%g ceil=%g round=%g trunc=%g cbrt=%.12f hypot=%.12f\n",
           x, sin(x), cos(x), tan(x), exp(x), log(fabs(x) + 0.5), sqrt(fabs(x)), atan2(x, 1.5), pow(fabs(x), 1.7), fmod(x, 1.1),
           floor(x), ceil(x), round(x), trunc(x), cbrt(x), hypot(x, 2.0));
  }
  float y = 0.7f;
  printf("%.7f %.7f %.7f %.7f\n", sinf(y), expf(y), logf(y), powf(y, 2.5f));
  printf("%ld %ld %d\n", lround(2.5), lrint(3.5), (int)nearbyint(-2.5));
  return 0;
}
