// Per-thread arrays indexed with values known only at run time, which ptxas keeps in local memory (STL/LDL)
// in the stack frame that c[0x0][0x28] points at.
#include "common.cuh"

extern "C" __global__ void local_array_dynamic_index(const int* in, const int* indices, int* out, int n) {
  int i = global_index();
  if (i >= n) return;
  int table[24];
  for (int k = 0; k < 24; ++k) table[k] = in[i] * (k + 1) - k;
  int sum = 0;
  for (int k = 0; k < 8; ++k) {
    int at = indices[8 * i + k] % 24;
    table[(at + 5) % 24] += table[at];
    sum += table[at];
  }
  out[2 * i] = sum;
  out[2 * i + 1] = table[indices[8 * i] % 24];
}

extern "C" __global__ void local_array_bytes_and_doubles(const double* in, const int* indices, double* out, unsigned char* bytes, int n) {
  int i = global_index();
  if (i >= n) return;
  double values[12];
  unsigned char small[16];
  for (int k = 0; k < 12; ++k) values[k] = in[i] + k * 0.5;
  for (int k = 0; k < 16; ++k) small[k] = static_cast<unsigned char>(i + 3 * k);
  int at = indices[i] % 12;
  values[at] *= 2.0;
  small[indices[i] % 16] ^= 0xff;
  out[i] = values[at] + values[(at + 7) % 12];
  bytes[i] = small[(indices[i] + 1) % 16] + small[indices[i] % 16];
}
