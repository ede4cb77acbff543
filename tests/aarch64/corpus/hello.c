#include "corpus.h"
PROGRAM(hello) { UNUSED_ARGS; printf("hello, world\n"); return 0; }
