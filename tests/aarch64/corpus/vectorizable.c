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
  /* Shift-and-accumulate (SSRA/USRA): signed and unsigned lanes, shifts up to the lane width less one. */
  static uint64_t w[512], z[512]; static int16_t s16[1024]; static uint8_t u8[1000];
  for (int i = 0; i < 512; ++i) { w[i] = (uint64_t)i * 0x9e3779b97f4a7c15ull; z[i] = ~w[i]; }
  for (int i = 0; i < 1024; ++i) { a[i] += (b[i] - 50) >> 3; s16[i] = (int16_t)(i * 91); h[i] += s16[i] >> 15; }
  for (int i = 0; i < 1000; ++i) u8[i] = (uint8_t)(i * 13);
  for (int i = 0; i < 1000; ++i) bytes[i] += u8[i] >> 5;
  for (int i = 0; i < 512; ++i) w[i] += z[i] >> 63;
  long acc = 0; for (int i = 0; i < 1024; ++i) acc += a[i] * (i + 1) + h[i];
  unsigned bacc = 0; for (int i = 0; i < 1000; ++i) bacc = bacc * 31 + bytes[i];
  uint64_t wacc = 0; for (int i = 0; i < 512; ++i) wacc ^= w[i] + (uint64_t)i;
  printf("%ld %u %llu\n", acc, bacc, (unsigned long long)wacc);
  return 0;
}
