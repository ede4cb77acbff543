#include "corpus.h"
__attribute__((noinline)) static int f(long v) {
  switch (v) { case 1: return 1; case 100: return 2; case 1000: return 3; case 5000: return 4; case 123456: return 5; case -77: return 6; default: return 0; }
}
PROGRAM(switch_sparse) {
  UNUSED_ARGS;
  long probes[] = {1, 2, 100, 1000, 999, 5000, 123456, -77, 0, 77};
  for (unsigned i = 0; i < sizeof probes / sizeof probes[0]; ++i) printf("%ld=%d\n", probes[i], f(probes[i]));
  return 0;
}
