// Half precision (HADD2/HFMA2/HMUL2, F2F to and from half) and double precision (DADD/DMUL/DFMA, DSETP,
// the double division and sqrt sequences, F2F between float and double).
#include <cuda_fp16.h>

#include "common.cuh"

// Half arithmetic exists from sm_53 on (sm_50/52 have no half instructions): those cubins lack these two kernels.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 530
extern "C" __global__ void half2_arithmetic(const __half2* a, const __half2* b, __half2* out, int n) {
  int i = global_index();
  if (i >= n) return;
  __half2 x = a[i], y = b[i];
  out[i] = __hfma2(x, y, __hadd2(x, __float2half2_rn(0.5f)));
}

extern "C" __global__ void half_convert(const float* a, unsigned short* out_half, float* out, int n) {
  int i = global_index();
  if (i >= n) return;
  __half h = __float2half_rn(a[i]);
  out_half[i] = __half_as_ushort(h);
  out[i] = __half2float(__hmul(h, h));
}
#endif

extern "C" __global__ void double_arithmetic(const double* a, const double* b, double* out, int n) {
  int i = global_index();
  if (i >= n) return;
  double x = a[i], y = b[i];
  out[2 * i] = fma(x, y, x + y) * 0.25;
  out[2 * i + 1] = (x < y) ? x - y : x * y;
}

extern "C" __global__ void double_divide_sqrt(const double* a, const double* b, double* out, int n) {
  int i = global_index();
  if (i >= n) return;
  out[2 * i] = a[i] / b[i];
  out[2 * i + 1] = sqrt(fabs(a[i]));
}

extern "C" __global__ void double_convert(const double* a, float* out_float, long long* out_int, double* out, int n) {
  int i = global_index();
  if (i >= n) return;
  out_float[i] = static_cast<float>(a[i]);
  out_int[i] = static_cast<long long>(a[i]);
  out[i] = static_cast<double>(static_cast<float>(a[i]) * 2.0f) + static_cast<double>(i);
}
