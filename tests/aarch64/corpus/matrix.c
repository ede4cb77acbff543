#include "corpus.h"
PROGRAM(matrix) {
  UNUSED_ARGS;
  enum { N = 48 };
  static double a[N][N], b[N][N], c[N][N]; static float fa[N][N], fc[N][N];
  for (int i = 0; i < N; ++i) for (int j = 0; j < N; ++j) { a[i][j] = (i * 3 + j) % 17 * 0.25 - 1.0; b[i][j] = (i + 2 * j) % 13 * 0.5; fa[i][j] = (float)a[i][j]; }
  for (int i = 0; i < N; ++i) for (int j = 0; j < N; ++j) { double s = 0; float fs = 0; for (int k = 0; k < N; ++k) { s += a[i][k] * b[k][j]; fs += fa[i][k] * fa[k][j]; } c[i][j] = s; fc[i][j] = fs; }
  double trace = 0; float ftrace = 0; for (int i = 0; i < N; ++i) { trace += c[i][i]; ftrace += fc[i][i]; }
  printf("trace %.6f ftrace %.4f c[3][7] %.6f\n", trace, ftrace, c[3][7]);
  return 0;
}
