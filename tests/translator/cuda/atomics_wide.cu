// Atomics and reductions not in atomics.cu: increment/decrement with wrap, 64-bit and/or/xor/min/max/CAS/exchange,
// shared-memory atomics of each operation and width (ATOMS), double add (sm_60+), reductions whose result is unused
// (RED) of every operation, and system/block-scoped atomics (sm_60+).
// Launch: 1-D, blockDim.x == 256.
#include "common.cuh"

extern "C" __global__ void atomic_increment_decrement(const unsigned* in, unsigned* counters, unsigned* previous, int n) {
  int i = global_index();
  if (i >= n) return;
  previous[2 * i] = atomicInc(&counters[0], 1000u) < 1001u ? 1u : 0u;
  atomicDec(&counters[1], in[i] | 1u);
  previous[2 * i + 1] = atomicDec(&counters[2], 0xffffffffu) != 0u ? 1u : 0u;
}

extern "C" __global__ void atomic_64bit_bitwise(const unsigned long long* in, unsigned long long* words, int n) {
  int i = global_index();
  if (i >= n) return;
  unsigned long long v = in[i];
  atomicAnd(&words[0], v | 0xffff0000ffff0000ull);
  atomicOr(&words[1], v & 0x0000ffff0000ffffull);
  atomicXor(&words[2], v);
  atomicMin(&words[3], v);
  atomicMin(reinterpret_cast<long long*>(&words[4]), static_cast<long long>(v));
  atomicMax(reinterpret_cast<long long*>(&words[5]), static_cast<long long>(v));
  unsigned long long expected = 0;
  atomicCAS(&words[6 + (i & 7)], expected, v);
}

extern "C" __global__ void shared_atomics(const int* in, int* out, int n) {
  __shared__ int words[8];
  __shared__ unsigned long long wide[4];
  __shared__ float sums[2];
  int t = threadIdx.x;
  int i = global_index();
  if (t < 8) words[t] = t == 2 ? 0x7fffffff : (t == 3 ? -0x7fffffff : 0);
  if (t < 4) wide[t] = 0;
  if (t < 2) sums[t] = 0.0f;
  __syncthreads();
  int v = i < n ? in[i] : 0;
  atomicAdd(&words[0], v);
  atomicSub(&words[1], v & 0xff);
  atomicMin(&words[2], v);
  atomicMax(&words[3], v);
  atomicAnd(&words[4], ~v);
  atomicOr(&words[5], v & 0x0f0f0f0f);
  atomicXor(&words[6], v);
  int slot = atomicCAS(&words[7], 0, t + 1);
  atomicAdd(&wide[0], static_cast<unsigned long long>(v & 0xffff));
  atomicExch(&wide[1], static_cast<unsigned long long>(t));
  atomicCAS(&wide[2], 0ull, static_cast<unsigned long long>(v) + 1ull);
  atomicMax(&wide[3], static_cast<unsigned long long>(static_cast<unsigned>(v)));
  atomicAdd(&sums[0], static_cast<float>(v & 0xff));
  __syncthreads();
  if (t < 8) out[blockIdx.x * 20 + t] = words[t];
  if (t < 4) {
    out[blockIdx.x * 20 + 8 + 2 * t] = static_cast<int>(wide[t]);
    out[blockIdx.x * 20 + 9 + 2 * t] = static_cast<int>(wide[t] >> 32);
  }
  if (t == 0) out[blockIdx.x * 20 + 16] = static_cast<int>(sums[0]);
  if (t == 0) out[blockIdx.x * 20 + 17] = slot == 0 ? 1 : 0;
}

extern "C" __global__ void reductions_unused(const int* in, int* words, unsigned long long* wide, int n) {
  int i = global_index();
  if (i >= n) return;
  int v = in[i];
  atomicAdd(&words[0], v);
  atomicMin(&words[1], v);
  atomicMax(&words[2], v);
  atomicAnd(&words[3], v | 0x10);
  atomicOr(&words[4], v & 0x0101);
  atomicXor(&words[5], v);
  atomicInc(reinterpret_cast<unsigned*>(&words[6]), 77u);
  atomicDec(reinterpret_cast<unsigned*>(&words[7]), 77u);
  atomicMax(reinterpret_cast<unsigned*>(&words[8]), static_cast<unsigned>(v));
  atomicAdd(&wide[0], static_cast<unsigned long long>(static_cast<unsigned>(v)));
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
extern "C" __global__ void atomic_double_and_scoped(const double* in, double* total, int* counters, int n) {
  int i = global_index();
  if (i >= n) return;
  atomicAdd(total, in[i]);
  atomicAdd_block(&counters[0], 1);
  atomicAdd_system(&counters[1], 2);
  atomicMax_block(&counters[2], static_cast<int>(in[i]));
  atomicCAS_system(&counters[3 + (i & 3)], 0, i + 1);
}
#endif
