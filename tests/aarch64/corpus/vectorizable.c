#include "corpus.h"
/* Loops GCC vectorises with AdvSIMD at -O2/-O3. */
PROGRAM(vectorizable) {
  UNUSED_ARGS;
  static int32_t a[1024], b[1024], c[1024]; static uint8_t bytes[1000]; static float f[1024], g[1024]; static int16_t h[1024];
  for (int i = 0; i < 1024; ++i) { a[i] = i * 3 - 500; b[i] = (i * 7) % 100; f[i] = (float)i * 0.5f; g[i] = 1.0f / (float)(i + 1); h[i] = (int16_t)(i * 37); }
  for (int i = 0; i < 1024; ++i) c[i] = a[i] * b[i] + (a[i] > b[i] ? a[i] : b[i]);
  long sum = 0; for (int i = 0; i < 1024; ++i) sum += c[i];
  for (int i = 0; i < 1000; ++i) bytes[i] = (uint8_t)(i ^ (i >> 3));
  unsigned bsum = 0; uint8_t bmax = 0; for (int i = 0; i < 1000; ++i) { bsum += bytes[i]; if (bytes[i] > bmax) bmax = bytes[i]; }
  float dot = 0; for (int i = 0; i < 1024; ++i) dot += f[i] * g[i];
  int hs = 0; for (int i = 0; i < 1024; ++i) hs += h[i] >> 2;
  int64_t wide = 0; for (int i = 0; i < 1024; ++i) wide += (int64_t)a[i] * b[i];
  printf("%ld %u %u %.3f %d %lld\n", sum, bsum, bmax, dot, hs, (long long)wide);
  return 0;
}
