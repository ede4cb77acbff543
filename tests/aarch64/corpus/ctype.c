#include "corpus.h"
#include <ctype.h>
PROGRAM(ctype) {
  UNUSED_ARGS;
  for (int c = 0; c < 128; ++c)
    printf("%d%d%d%d%d%d%c", !!isalpha(c), !!isdigit(c), !!isspace(c), !!ispunct(c), !!isupper(c), !!isxdigit(c), (c % 16 == 15) ? '\n' : ' ');
  char s[] = "Mixed Case Text 123";
  for (char* p = s; *p; ++p) *p = (char)(isupper((unsigned char)*p) ? tolower((unsigned char)*p) : toupper((unsigned char)*p));
  printf("%s\n", s);
  return 0;
}
