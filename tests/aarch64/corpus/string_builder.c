#include "corpus.h"
PROGRAM(string_builder) {
  UNUSED_ARGS;
  size_t cap = 16, len = 0; char* s = malloc(cap);
  for (int i = 0; i < 2000; ++i) {
    char piece[32]; int n = snprintf(piece, sizeof piece, "%d,", i * i);
    if (len + (size_t)n + 1 > cap) { cap *= 2; s = realloc(s, cap); }
    memcpy(s + len, piece, (size_t)n); len += (size_t)n; s[len] = 0;
  }
  printf("len %zu cap %zu tail %s\n", len, cap, s + len - 20);
  char* copy = strdup(s); printf("same %d\n", strcmp(copy, s) == 0);
  free(copy); free(s);
  return 0;
}
