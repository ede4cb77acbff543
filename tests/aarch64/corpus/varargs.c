#include "corpus.h"
#include <stdarg.h>
static double sum(int count, ...) {
  va_list ap; va_start(ap, count);
  double total = 0;
  for (int i = 0; i < count; ++i) total += (i & 1) ? va_arg(ap, double) : (double)va_arg(ap, int);
  va_end(ap);
  return total;
}
static void logf_(const char* fmt, ...) { char buf[256]; va_list ap; va_start(ap, fmt); vsnprintf(buf, sizeof buf, fmt, ap); va_end(ap); printf("[%s]\n", buf); }
PROGRAM(varargs) {
  UNUSED_ARGS;
  printf("%.3f\n", sum(6, 1, 2.5, 3, 4.25, 5, 6.125));
  printf("%.3f\n", sum(12, 1, 1.0, 2, 2.0, 3, 3.0, 4, 4.0, 5, 5.0, 6, 6.0));
  logf_("%d %s %c %ld %x %.2f", 42, "str", 'q', 1234567890123L, 0xbeef, 3.14159);
  return 0;
}
