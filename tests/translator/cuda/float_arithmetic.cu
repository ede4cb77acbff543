// Single precision: FADD/FMUL/FFMA with rounding modes and saturation, FMNMX, FSETP, FSEL, division and sqrt
// by the IEEE sequences (MUFU.RCP + Newton + FCHK slow path), conversions F2I/I2F/FRND.
#include "common.cuh"

extern "C" __global__ void float_add_mul_fma(const float* a, const float* b, const float* c, float* out, int n) {
  int i = global_index();
  if (i >= n) return;
  out[i] = fmaf(a[i], b[i], c[i]) + a[i] * 0.5f - b[i];
}

extern "C" __global__ void float_rounding_modes(const float* a, const float* b, float* out, int n) {
  int i = global_index();
  if (i >= n) return;
  out[4 * i] = __fadd_rz(a[i], b[i]);
  out[4 * i + 1] = __fmul_rd(a[i], b[i]);
  out[4 * i + 2] = __fmaf_ru(a[i], b[i], 1.0f);
  out[4 * i + 3] = __saturatef(a[i] * b[i]);
}

extern "C" __global__ void float_divide_sqrt(const float* a, const float* b, float* out, int n) {
  int i = global_index();
  if (i >= n) return;
  out[2 * i] = a[i] / b[i];
  out[2 * i + 1] = sqrtf(fabsf(a[i]));
}

extern "C" __global__ void float_min_max_compare(const float* a, const float* b, float* out, int n) {
  int i = global_index();
  if (i >= n) return;
  float x = a[i], y = b[i];
  float m = fminf(x, y) + fmaxf(x, -y);
  out[i] = (x > 0.25f && y <= x) ? m : (isnan(y) ? -1.0f : fabsf(x - y));
}

extern "C" __global__ void float_to_int_conversions(const float* a, int* out_signed, unsigned* out_unsigned, float* out,
                                                    int n) {
  int i = global_index();
  if (i >= n) return;
  float x = a[i];
  out_signed[i] = __float2int_rn(x) + static_cast<int>(x);
  out_unsigned[i] = __float2uint_rz(fabsf(x));
  out[2 * i] = static_cast<float>(out_signed[i]) + __uint2float_rn(static_cast<unsigned>(i) * 977u);
  out[2 * i + 1] = floorf(x) + ceilf(x) * 2.0f + truncf(x) * 4.0f + rintf(x) * 8.0f;
}

extern "C" __global__ void float_polynomial(const float* x, float* out, int n, float c0, float c1, float c2, float c3) {
  int i = global_index();
  if (i >= n) return;
  float v = x[i];
  out[i] = ((c3 * v + c2) * v + c1) * v + c0;
}

extern "C" __global__ void float_saxpy(float alpha, const float* x, float* y, int n) {
  int i = global_index();
  if (i < n) y[i] = alpha * x[i] + y[i];
}
