#include "corpus.h"
PROGRAM(formatting) {
  UNUSED_ARGS;
  char buf[128]; int a; double d; char word[32]; unsigned x;
  int n = sscanf("  17 2.75 token 0x1f", "%d %lf %31s %x", &a, &d, word, &x);
  printf("%d: %d %.2f %s %u\n", n, a, d, word, x);
  int len = snprintf(buf, 10, "%s", "truncated string here");
  printf("%d '%s'\n", len, buf);
  sprintf(buf, "%08.3f|%-8s|%+05d", 3.14159, "ab", 42);
  puts(buf);
  fputs("fputs line\n", stdout); putchar('!'); putchar('\n');
  return 0;
}
