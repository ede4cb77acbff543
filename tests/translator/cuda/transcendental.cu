// Transcendentals: the MUFU unit (RCP, RSQ, SQRT, EX2, LG2, SIN, COS) through the fast intrinsics, and the
// accurate library versions (range reduction + polynomials) for comparison.
#include "common.cuh"

extern "C" __global__ void transcendental_fast(const float* a, float* out, int n) {
  int i = global_index();
  if (i >= n) return;
  float x = a[i];
  out[6 * i] = __sinf(x);
  out[6 * i + 1] = __cosf(x);
  out[6 * i + 2] = __expf(x * 0.125f);
  out[6 * i + 3] = __logf(fabsf(x) + 1.0f);
  out[6 * i + 4] = rsqrtf(fabsf(x) + 0.5f);
  out[6 * i + 5] = __fdividef(1.0f, x + 3.0f);
}

extern "C" __global__ void transcendental_exp2_log2(const float* a, float* out, int n) {
  int i = global_index();
  if (i >= n) return;
  out[2 * i] = exp2f(a[i]);
  out[2 * i + 1] = log2f(fabsf(a[i]) + 1e-3f);
}

extern "C" __global__ void transcendental_accurate(const float* a, float* out, int n) {
  int i = global_index();
  if (i >= n) return;
  float x = a[i];
  out[3 * i] = sinf(x);
  out[3 * i + 1] = expf(x * 0.25f);
  out[3 * i + 2] = tanhf(x);
}
