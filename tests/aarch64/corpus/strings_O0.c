#include "corpus.h"
/* Built at -O0. */
PROGRAM(strings_O0) {
  UNUSED_ARGS;
  char a[64] = "abcdefghij"; char b[64];
  strcpy(b, a); strcat(b, "KLMNOP"); int c = strcmp(a, b);
  printf("%s %zu %d %s\n", b, strlen(b), c > 0 ? 1 : c < 0 ? -1 : 0, strchr(b, 'K'));
  return 0;
}
