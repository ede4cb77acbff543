// Global and local memory: strided and vector loads/stores, 8/16-bit and unaligned-size elements, 64-bit
// values, a struct of three floats, a local (stack) array with a dynamic index.
#include "common.cuh"

extern "C" __global__ void memory_strided_copy(const float* in, float* out, int n, int stride) {
  int i = global_index();
  if (i >= n) return;
  out[i] = in[(static_cast<long long>(i) * stride) % n];
}

extern "C" __global__ void memory_vector4(const float4* in, float4* out, int n) {
  int i = global_index();
  if (i >= n) return;
  float4 v = in[i];
  out[i] = make_float4(v.w, v.z + 1.0f, v.y * 2.0f, v.x);
}

extern "C" __global__ void memory_bytes_shorts(const unsigned char* bytes, const short* shorts, int* out, char* out_bytes,
                                               unsigned short* out_shorts, int n) {
  int i = global_index();
  if (i >= n) return;
  out[i] = bytes[i] + shorts[i] + static_cast<signed char>(bytes[n - 1 - i]);
  out_bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
  out_shorts[i] = static_cast<unsigned short>(shorts[i] * 3);
}

struct Vec3 {
  float x, y, z;
};

extern "C" __global__ void memory_struct_of_three(const Vec3* in, Vec3* out, int n) {
  int i = global_index();
  if (i >= n) return;
  Vec3 v = in[i];
  out[i] = Vec3{v.y * v.z, v.z * v.x, v.x * v.y};
}

extern "C" __global__ void memory_int64_and_double(const long long* a, const double* b, long long* out_int,
                                                   double* out_double, int n) {
  int i = global_index();
  if (i >= n) return;
  out_int[i] = a[i] + a[(i + 1) % n];
  out_double[i] = b[i] * 3.0;
}

extern "C" __global__ void memory_local_array(const int* a, int* out, int n) {
  int i = global_index();
  if (i >= n) return;
  int table[16];
  for (int k = 0; k < 16; ++k) table[k] = a[(i + k) % n] * k;
  out[i] = table[a[i] & 15] + table[(a[i] >> 4) & 15];
}

extern "C" __global__ void memory_unaligned_tail(const unsigned char* in, unsigned char* out, int n) {
  // One thread per 3-byte pixel: a size that is not a power of two.
  int i = global_index();
  if (3 * i + 2 >= n) return;
  unsigned char r = in[3 * i], g = in[3 * i + 1], b = in[3 * i + 2];
  out[3 * i] = b;
  out[3 * i + 1] = g;
  out[3 * i + 2] = r;
}
