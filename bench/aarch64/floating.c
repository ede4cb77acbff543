/* Floating-point-heavy: an n-body step loop and a dense matrix product. */
#include <math.h>
#include <stdio.h>
int bench_floating(void) {
  enum { BODIES = 64, N = 160 };
  static double px[BODIES], py[BODIES], vx[BODIES], vy[BODIES], mass[BODIES];
  for (int i = 0; i < BODIES; ++i) { px[i] = cos(i * 0.7) * (i + 1); py[i] = sin(i * 1.3) * (i + 2); vx[i] = vy[i] = 0; mass[i] = 1.0 + (i % 5); }
  for (int step = 0; step < 4000; ++step) {
    for (int i = 0; i < BODIES; ++i) {
      double ax = 0, ay = 0;
      for (int j = 0; j < BODIES; ++j) {
        double dx = px[j] - px[i], dy = py[j] - py[i], d2 = dx * dx + dy * dy + 0.01;
        double inv = mass[j] / (d2 * sqrt(d2));
        ax += dx * inv; ay += dy * inv;
      }
      vx[i] += ax * 1e-4; vy[i] += ay * 1e-4;
    }
    for (int i = 0; i < BODIES; ++i) { px[i] += vx[i] * 1e-2; py[i] += vy[i] * 1e-2; }
  }
  static double a[N][N], b[N][N], c[N][N];
  for (int i = 0; i < N; ++i) for (int j = 0; j < N; ++j) { a[i][j] = (i * j % 7) * 0.5; b[i][j] = (i + j) % 11 * 0.25; }
  for (int r = 0; r < 20; ++r)
    for (int i = 0; i < N; ++i) for (int k = 0; k < N; ++k) { double aik = a[i][k]; for (int j = 0; j < N; ++j) c[i][j] += aik * b[k][j]; }
  double energy = 0; for (int i = 0; i < BODIES; ++i) energy += 0.5 * mass[i] * (vx[i] * vx[i] + vy[i] * vy[i]);
  printf("floating: %.6e %.6e\n", energy, c[17][33]);
  return 0;
}
