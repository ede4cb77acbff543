// Warp-level operations: shuffles (SHFL.IDX/UP/DOWN/BFLY), votes (VOTE.ALL/ANY, ballot), match, lane id,
// the clock. Launched with blockDim.x a multiple of 32; n a multiple of 32.
#include "common.cuh"

extern "C" __global__ void warp_shuffle_reduce(const int* in, int* warp_sums, int n) {
  int i = global_index();
  int v = i < n ? in[i] : 0;
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  if ((threadIdx.x & 31) == 0 && i < n) warp_sums[i / 32] = v;
}

extern "C" __global__ void warp_shuffle_scan(const float* in, float* out, int n) {
  int i = global_index();
  float v = i < n ? in[i] : 0.0f;
  unsigned lane = threadIdx.x & 31;
  for (int offset = 1; offset < 32; offset <<= 1) {
    float up = __shfl_up_sync(0xffffffffu, v, offset);
    if (lane >= static_cast<unsigned>(offset)) v += up;
  }
  if (i < n) out[i] = v;
}

extern "C" __global__ void warp_shuffle_broadcast_rotate(const int* in, int* out, int n, int source_lane) {
  int i = global_index();
  int v = i < n ? in[i] : 0;
  int broadcast = __shfl_sync(0xffffffffu, v, source_lane & 31);
  int rotated = __shfl_down_sync(0xffffffffu, v, 3);
  if (i < n) out[i] = broadcast * 1000 + rotated;
}

extern "C" __global__ void warp_vote(const int* in, unsigned* out, int n) {
  int i = global_index();
  int v = i < n ? in[i] : 0;
  unsigned ballot = __ballot_sync(0xffffffffu, v > 0);
  int any = __any_sync(0xffffffffu, v == 7);
  int all = __all_sync(0xffffffffu, v >= 0);
  if (i < n) out[i] = ballot ^ (static_cast<unsigned>(any) << 1) ^ static_cast<unsigned>(all) ^ __popc(ballot);
}

extern "C" __global__ void warp_lane_info(unsigned* out, int n) {
  int i = global_index();
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (i < n) out[i] = lane | (threadIdx.x << 8) | (blockIdx.x << 20);
}
