#include "corpus.h"
PROGRAM(stderr_output) {
  UNUSED_ARGS;
  fprintf(stderr, "to stderr %d\n", 1);
  printf("to stdout\n");
  fflush(stdout);
  fprintf(stderr, "to stderr %d\n", 2);
  perror("perror says");
  return 5;
}
