// Every memory space at every width: global (LDG/STG, and LD/ST through generic pointers), shared (LDS/STS),
// local (LDL/STL), constant banks (__constant__, LDC with a run-time index), generic pointers that point at
// shared or global memory depending on data, 8/16/32/64/128-bit accesses, signed and unsigned sub-word loads.
// Launch: 1-D, blockDim.x == 256.
#include "common.cuh"

__constant__ int constant_table[64];

extern "C" __global__ void shared_every_width(const int4* in, int4* out, int n) {
  __shared__ int4 wide[256];
  __shared__ long long pairs[256];
  __shared__ short halves[512];
  __shared__ signed char bytes[1024];
  int i = global_index();
  int t = threadIdx.x;
  int4 v = i < n ? in[i] : make_int4(0, 0, 0, 0);
  wide[t] = v;
  pairs[t] = (static_cast<long long>(v.y) << 32) | static_cast<unsigned>(v.x);
  halves[2 * t] = static_cast<short>(v.z);
  halves[2 * t + 1] = static_cast<short>(v.z >> 16);
  bytes[4 * t] = static_cast<signed char>(v.w);
  __syncthreads();
  int r = 255 - t;
  int4 w = wide[r];
  long long p = pairs[(t + 1) & 255];
  int2 q = reinterpret_cast<int2*>(wide)[2 * r + 1];
  if (i < n) {
    out[i] = make_int4(w.x + static_cast<int>(p), w.y + static_cast<int>(p >> 32),
                       halves[2 * r] + static_cast<unsigned short>(halves[2 * r + 1]), bytes[4 * r] + q.x - q.y);
  }
}

extern "C" __global__ void global_every_width(const unsigned char* bytes, const short* halves, const int2* pairs,
                                              const double2* quads, long long* out, int n) {
  int i = global_index();
  if (i >= n) return;
  int2 p = pairs[i];
  double2 q = quads[i];
  out[4 * i] = bytes[i] + static_cast<signed char>(bytes[n - 1 - i]) + halves[i] +
               static_cast<unsigned short>(halves[n - 1 - i]);
  out[4 * i + 1] = static_cast<long long>(p.x) * p.y;
  out[4 * i + 2] = static_cast<long long>(q.x - q.y);
  reinterpret_cast<unsigned char*>(out + 4 * i + 3)[0] = bytes[i];
  reinterpret_cast<short*>(out + 4 * i + 3)[1] = halves[i];
  reinterpret_cast<int*>(out + 4 * i + 3)[1] = p.x;
}

__device__ __noinline__ int sum_through(const int* values, int count) {
  int total = 0;
  for (int k = 0; k < count; ++k) total += values[k] * (k + 1);
  return total;
}

extern "C" __global__ void generic_pointers(const int* in, int* out, int n) {
  __shared__ int staged[256 + 8];
  int i = global_index();
  int t = threadIdx.x;
  staged[t] = i < n ? in[i] : 0;
  if (t < 8) staged[256 + t] = 0;
  __syncthreads();
  if (i >= n) return;
  // The callee reads through a generic pointer: shared memory for even threads, global memory for odd ones.
  const int* source = (t & 1) ? in + i : staged + t;
  int count = (i + 8 <= n) && (t + 8 <= 256 + 8) ? 8 : 1;
  if (t & 1) count = i + 8 <= n ? 8 : 1;
  int* target = (in[i] & 4) ? out + i : &staged[t];
  *target = sum_through(source, count);
  if (!(in[i] & 4)) out[i] = staged[t] + 1;
}

extern "C" __global__ void constant_bank_indexed(const int* in, int* out, int n) {
  int i = global_index();
  if (i >= n) return;
  int v = in[i];
  out[i] = constant_table[v & 63] + constant_table[(v >> 6) & 63] * 3;
}

extern "C" __global__ void local_every_width(const int* in, long long* out, int n) {
  int i = global_index();
  if (i >= n) return;
  volatile signed char b[16];
  volatile short h[16];
  volatile int w[16];
  volatile long long d[16];
  for (int k = 0; k < 16; ++k) {
    int v = in[(i + k) % n];
    b[k] = static_cast<signed char>(v);
    h[k] = static_cast<short>(v >> 8);
    w[k] = v;
    d[k] = static_cast<long long>(v) * v;
  }
  int j = in[i] & 15;
  out[i] = b[j] + h[15 - j] + w[j ^ 5] + d[j ^ 10];
}
