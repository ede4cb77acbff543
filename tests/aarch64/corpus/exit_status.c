#include "corpus.h"
PROGRAM(exit_status) { UNUSED_ARGS; printf("exiting with 3\n"); fflush(stdout); exit(3); }
