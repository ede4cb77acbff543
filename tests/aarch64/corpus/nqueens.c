#include "corpus.h"
static int solve(int n, int row, unsigned cols, unsigned d1, unsigned d2) {
  if (row == n) return 1;
  int count = 0;
  for (unsigned avail = ~(cols | d1 | d2) & ((1u << n) - 1); avail; avail &= avail - 1) { unsigned bit = avail & -avail; count += solve(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1); }
  return count;
}
PROGRAM(nqueens) { UNUSED_ARGS; for (int n = 1; n <= 10; ++n) printf("%d:%d ", n, solve(n, 0, 0, 0, 0)); printf("\n"); return 0; }
