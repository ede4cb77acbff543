// Conversions between every pair of types: 8/16/32/64-bit signed and unsigned integers among themselves (I2I,
// sign and zero extension, PRMT/BFE), integers to and from half, float and double in each rounding mode (I2F, F2I),
// and the float/double/half pairs (F2F with rounding).
#include <cuda_fp16.h>

#include "common.cuh"

extern "C" __global__ void convert_integer_widths(const long long* in, long long* out, int n) {
  int i = global_index();
  if (i >= n) return;
  long long v = in[i];
  out[6 * i] = static_cast<signed char>(v);
  out[6 * i + 1] = static_cast<unsigned char>(v);
  out[6 * i + 2] = static_cast<short>(v);
  out[6 * i + 3] = static_cast<unsigned short>(v);
  out[6 * i + 4] = static_cast<int>(v);
  out[6 * i + 5] = static_cast<long long>(static_cast<unsigned>(v));
}

extern "C" __global__ void convert_float_to_integer(const float* a, const double* b, long long* out, int n) {
  int i = global_index();
  if (i >= n) return;
  float f = a[i];
  double d = b[i];
  out[12 * i] = __float2int_rn(f);
  out[12 * i + 1] = __float2int_rd(f);
  out[12 * i + 2] = __float2uint_ru(f);
  out[12 * i + 3] = __float2uint_rz(f);
  out[12 * i + 4] = __float2ll_rn(f);
  out[12 * i + 5] = static_cast<long long>(__float2ull_rz(f));
  out[12 * i + 6] = __double2int_rn(d);
  out[12 * i + 7] = __double2uint_rd(d);
  out[12 * i + 8] = __double2ll_ru(d);
  out[12 * i + 9] = static_cast<long long>(__double2ull_rz(d));
  out[12 * i + 10] = static_cast<signed char>(f);
  out[12 * i + 11] = static_cast<unsigned short>(d);
}

extern "C" __global__ void convert_integer_to_float(const long long* in, float* out_float, double* out_double, int n) {
  int i = global_index();
  if (i >= n) return;
  long long v = in[i];
  int w = static_cast<int>(v);
  out_float[6 * i] = __int2float_rn(w);
  out_float[6 * i + 1] = __uint2float_rz(static_cast<unsigned>(w));
  out_float[6 * i + 2] = __ll2float_rd(v);
  out_float[6 * i + 3] = __ull2float_ru(static_cast<unsigned long long>(v));
  out_float[6 * i + 4] = static_cast<float>(static_cast<short>(w));
  out_float[6 * i + 5] = static_cast<float>(static_cast<unsigned char>(w));
  out_double[4 * i] = __int2double_rn(w);
  out_double[4 * i + 1] = __uint2double_rn(static_cast<unsigned>(w));
  out_double[4 * i + 2] = __ll2double_rz(v);
  out_double[4 * i + 3] = __ull2double_ru(static_cast<unsigned long long>(v));
}

extern "C" __global__ void convert_float_double_half(const double* in, float* out_float, double* out_double,
                                                     unsigned short* out_half, int n) {
  int i = global_index();
  if (i >= n) return;
  double d = in[i];
  out_float[3 * i] = __double2float_rn(d);
  out_float[3 * i + 1] = __double2float_rd(d);
  out_float[3 * i + 2] = __double2float_ru(d);
  float f = static_cast<float>(d);
  out_double[i] = static_cast<double>(f) * 3.0;
  out_half[4 * i] = __half_as_ushort(__float2half_rn(f));
  out_half[4 * i + 1] = __half_as_ushort(__float2half_rz(f));
  out_half[4 * i + 2] = __half_as_ushort(__int2half_rn(static_cast<int>(f)));
  out_half[4 * i + 3] = static_cast<unsigned short>(__half2int_rz(__float2half_rn(f * 0.001f)));
}
