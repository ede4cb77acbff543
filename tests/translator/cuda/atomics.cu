// Global atomics: ATOMG add/min/max/exch/CAS on 32 and 64 bits, float add, RED when the result is unused.
#include "common.cuh"

extern "C" __global__ void atomic_add_int(const int* in, int* total, int* slots, int n, int slot_count) {
  int i = global_index();
  if (i >= n) return;
  atomicAdd(total, in[i]);
  int old = atomicAdd(&slots[i % slot_count], 1);
  (void)old;
}

extern "C" __global__ void atomic_add_float_return(const float* in, float* accumulator, float* previous, int n) {
  int i = global_index();
  if (i >= n) return;
  previous[i] = atomicAdd(accumulator, in[i]) * 0.0f + 1.0f;
}

extern "C" __global__ void atomic_min_max(const int* in, int* minimum, int* maximum, unsigned* unsigned_max, int n) {
  int i = global_index();
  if (i >= n) return;
  atomicMin(minimum, in[i]);
  atomicMax(maximum, in[i]);
  atomicMax(unsigned_max, static_cast<unsigned>(in[i]));
}

extern "C" __global__ void atomic_exchange_cas(int* slots, int* claimed, int n) {
  int i = global_index();
  if (i >= n) return;
  int previous = atomicCAS(&slots[i & 15], 0, i + 1);
  claimed[i] = previous == 0 ? 1 : 0;
  atomicExch(&slots[16 + (i & 15)], i);
}

extern "C" __global__ void atomic_64bit(const unsigned long long* in, unsigned long long* total,
                                        unsigned long long* maximum, int n) {
  int i = global_index();
  if (i >= n) return;
  atomicAdd(total, in[i]);
  atomicMax(maximum, in[i]);
}

extern "C" __global__ void atomic_bitwise(const unsigned* in, unsigned* and_result, unsigned* or_result,
                                          unsigned* xor_result, int n) {
  int i = global_index();
  if (i >= n) return;
  atomicAnd(and_result, in[i]);
  atomicOr(or_result, in[i]);
  atomicXor(xor_result, in[i]);
}
