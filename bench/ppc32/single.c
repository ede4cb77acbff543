/* Single-precision-heavy, as a GameCube title's vertex and audio code is: a 4x4 matrix transform of a vertex
   array with a perspective divide, and a cascade of biquad filters over a signal. */
#include <stdio.h>
int bench_single(void) {
  enum { VERTICES = 4096, SAMPLES = 8192, STAGES = 4 };
  static float position[VERTICES][4], projected[VERTICES][3];
  float m[4][4] = {{0.9f, 0.1f, 0.0f, 0.5f}, {-0.1f, 0.9f, 0.2f, -0.25f}, {0.0f, -0.2f, 0.95f, 4.0f}, {0.0f, 0.0f, 0.1f, 1.0f}};
  for (int i = 0; i < VERTICES; ++i) {
    position[i][0] = (float)(i % 64) * 0.125f - 4.0f;
    position[i][1] = (float)(i / 64) * 0.125f - 4.0f;
    position[i][2] = (float)((i * 7) % 13) * 0.25f;
    position[i][3] = 1.0f;
  }
  float checksum = 0.0f;
  for (int frame = 0; frame < 8000; ++frame) {
    for (int i = 0; i < VERTICES; ++i) {
      const float* p = position[i];
      float x = m[0][0] * p[0] + m[0][1] * p[1] + m[0][2] * p[2] + m[0][3] * p[3];
      float y = m[1][0] * p[0] + m[1][1] * p[1] + m[1][2] * p[2] + m[1][3] * p[3];
      float z = m[2][0] * p[0] + m[2][1] * p[1] + m[2][2] * p[2] + m[2][3] * p[3];
      float w = m[3][0] * p[0] + m[3][1] * p[1] + m[3][2] * p[2] + m[3][3] * p[3];
      float inv = 1.0f / w;
      projected[i][0] = x * inv;
      projected[i][1] = y * inv;
      projected[i][2] = z * inv;
    }
    checksum += projected[frame % VERTICES][0] + projected[(frame * 31) % VERTICES][1];
    m[0][3] += 0.001f; /* the camera moves */
  }
  static float signal[SAMPLES];
  for (int i = 0; i < SAMPLES; ++i) signal[i] = (float)((i * 37) % 101) * 0.02f - 1.0f;
  const float b0 = 0.2929f, b1 = 0.5858f, b2 = 0.2929f, a1 = -0.0000f, a2 = 0.1716f;
  float energy = 0.0f;
  for (int pass = 0; pass < 1500; ++pass)
    for (int s = 0; s < STAGES; ++s) {
      float x1 = 0, x2 = 0, y1 = 0, y2 = 0;
      for (int i = 0; i < SAMPLES; ++i) {
        const float x = signal[i];
        const float y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
        x2 = x1; x1 = x; y2 = y1; y1 = y;
        signal[i] = y * 0.999f;
      }
      energy += y1 * y1;
    }
  for (int i = 0; i < SAMPLES; i += 64) energy += signal[i] * signal[i];
  printf("single: %.4e %.4e\n", checksum, energy);
  return 0;
}
