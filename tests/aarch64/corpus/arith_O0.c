#include "corpus.h"
/* Built at -O0: stack-heavy code with every value through memory. */
PROGRAM(arith_O0) {
  UNUSED_ARGS;
  long total = 0; int i; double d = 0;
  for (i = 0; i < 500; i++) { total += i * i - (i / 3) + (i % 7); d += i / 3.0; }
  char text[32]; sprintf(text, "%ld %.4f", total, d);
  printf("%s\n", text);
  return 0;
}
