// Integer multiply and multiply-add in every width: 16x16 (XMAD on SM5x, IMAD.U16-like forms later), __mul24,
// 32-bit low/high signed and unsigned, 32x32->64 widening, 64x64 low and high, multiply-add chains.
#include "common.cuh"

extern "C" __global__ void multiply_16bit(const short* a, const unsigned short* b, int* out, int n) {
  int i = global_index();
  if (i >= n) return;
  short x = a[i];
  unsigned short y = b[i];
  out[3 * i] = x * static_cast<short>(y);
  out[3 * i + 1] = static_cast<unsigned short>(x) * y;
  out[3 * i + 2] = static_cast<short>(x * x);
}

extern "C" __global__ void multiply_24bit(const int* a, const int* b, int* out, int n) {
  int i = global_index();
  if (i >= n) return;
  out[2 * i] = __mul24(a[i], b[i]);
  out[2 * i + 1] = static_cast<int>(__umul24(static_cast<unsigned>(a[i]), static_cast<unsigned>(b[i])));
}

extern "C" __global__ void multiply_add_32bit(const int* a, const int* b, const int* c, int* out, int n) {
  int i = global_index();
  if (i >= n) return;
  int x = a[i], y = b[i], z = c[i];
  out[4 * i] = x * y + z;
  out[4 * i + 1] = x * 12345 - z;
  out[4 * i + 2] = __mulhi(x, y) + z;
  out[4 * i + 3] = static_cast<int>(__umulhi(static_cast<unsigned>(x), static_cast<unsigned>(z)));
}

extern "C" __global__ void multiply_64bit(const long long* a, const long long* b, long long* out, int n) {
  int i = global_index();
  if (i >= n) return;
  long long x = a[i], y = b[i];
  unsigned long long ux = static_cast<unsigned long long>(x), uy = static_cast<unsigned long long>(y);
  out[5 * i] = x * y;
  out[5 * i + 1] = __mul64hi(x, y);
  out[5 * i + 2] = static_cast<long long>(__umul64hi(ux, uy));
  out[5 * i + 3] = static_cast<long long>(static_cast<int>(x)) * static_cast<int>(y);
  out[5 * i + 4] = static_cast<long long>(static_cast<unsigned>(ux) * static_cast<unsigned long long>(static_cast<unsigned>(uy)) + ux);
}
