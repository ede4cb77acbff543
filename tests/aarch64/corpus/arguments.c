#include "corpus.h"
PROGRAM(arguments) {
  printf("argc %d\n", argc);
  for (int i = 2; i < argc; ++i) printf("arg %d: '%s'\n", i, argv[i]);
  const char* home = getenv("KILN_CORPUS_VARIABLE");
  printf("variable %s\n", home ? home : "(unset)");
  return 0;
}
