// 32-bit integer arithmetic: IADD3, IMAD (incl. .HI), IMNMX, IABS, integer division by the sequences ptxas
// emits (no hardware divide), SEL.
#include "common.cuh"

extern "C" __global__ void int_add_sub_mul(const int* a, const int* b, int* out, int n) {
  int i = global_index();
  if (i >= n) return;
  int x = a[i], y = b[i];
  out[i] = x * y + (x - y) * 3 - (y << 2) + 12345;
}

extern "C" __global__ void int_mul_high(const unsigned* a, const unsigned* b, unsigned* out, int n) {
  int i = global_index();
  if (i >= n) return;
  out[2 * i] = __umulhi(a[i], b[i]);
  out[2 * i + 1] = static_cast<unsigned>(__mulhi(static_cast<int>(a[i]), static_cast<int>(b[i])));
}

extern "C" __global__ void int_divide_signed(const int* a, const int* b, int* out, int n) {
  int i = global_index();
  if (i >= n) return;
  int y = b[i] == 0 ? 1 : b[i];
  out[2 * i] = a[i] / y;
  out[2 * i + 1] = a[i] % y;
}

extern "C" __global__ void int_divide_unsigned(const unsigned* a, const unsigned* b, unsigned* out, int n) {
  int i = global_index();
  if (i >= n) return;
  unsigned y = b[i] == 0 ? 1u : b[i];
  out[2 * i] = a[i] / y;
  out[2 * i + 1] = a[i] % y;
}

extern "C" __global__ void int_divide_by_constant(const int* a, int* out, int n) {
  int i = global_index();
  if (i >= n) return;
  out[3 * i] = a[i] / 7;
  out[3 * i + 1] = static_cast<int>(static_cast<unsigned>(a[i]) / 10u);
  out[3 * i + 2] = a[i] % 1000;
}

extern "C" __global__ void int_min_max_abs(const int* a, const int* b, int* out, int n) {
  int i = global_index();
  if (i >= n) return;
  int x = a[i], y = b[i];
  out[4 * i] = min(x, y);
  out[4 * i + 1] = max(x, y);
  out[4 * i + 2] = static_cast<int>(min(static_cast<unsigned>(x), static_cast<unsigned>(y)));
  out[4 * i + 3] = abs(x) + (x > y ? x : y);
}

extern "C" __global__ void int_saturating_clamp(const int* a, int lo, int hi, int* out, int n) {
  int i = global_index();
  if (i >= n) return;
  out[i] = max(lo, min(hi, a[i] * 5 - 17));
}
