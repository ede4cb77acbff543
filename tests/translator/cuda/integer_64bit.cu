// 64-bit integer math: IADD3 with carry (.X), IMAD.WIDE(.U32), 64-bit shifts (SHF), 64-bit compares and
// the division sequence ptxas calls for 64-bit operands.
#include "common.cuh"

extern "C" __global__ void int64_add_mul(const long long* a, const long long* b, long long* out, int n) {
  int i = global_index();
  if (i >= n) return;
  out[i] = a[i] * b[i] + (a[i] - b[i]) * 3 + 0x123456789LL;
}

extern "C" __global__ void int64_shifts(const unsigned long long* a, const int* s, unsigned long long* out, int n) {
  int i = global_index();
  if (i >= n) return;
  unsigned shift = static_cast<unsigned>(s[i]) & 63u;
  out[3 * i] = a[i] << shift;
  out[3 * i + 1] = a[i] >> shift;
  out[3 * i + 2] = static_cast<unsigned long long>(static_cast<long long>(a[i]) >> shift);
}

extern "C" __global__ void int64_compare_select(const long long* a, const long long* b, long long* out, int n) {
  int i = global_index();
  if (i >= n) return;
  long long x = a[i], y = b[i];
  unsigned long long ux = static_cast<unsigned long long>(x), uy = static_cast<unsigned long long>(y);
  out[i] = (x < y ? x : y) + (ux > uy ? 1 : 0) + (x == y ? 100 : 0);
}

extern "C" __global__ void int64_divide(const unsigned long long* a, const unsigned long long* b,
                                        unsigned long long* out, int n) {
  int i = global_index();
  if (i >= n) return;
  unsigned long long y = b[i] == 0 ? 1ull : b[i];
  out[2 * i] = a[i] / y;
  out[2 * i + 1] = a[i] % y;
}

extern "C" __global__ void int64_wide_multiply(const unsigned* a, const unsigned* b, unsigned long long* out, int n) {
  int i = global_index();
  if (i >= n) return;
  out[i] = static_cast<unsigned long long>(a[i]) * b[i] + __umul64hi(a[i], b[i]);
}
