// Warp operations where not every lane of the warp takes part: inside branches that split each warp, and after
// some lanes have exited. Every exchange stays within the lanes present, so results are well defined.
// Launched 1-D with blockDim.x a multiple of 32.
#include "common.cuh"

// The low half of each warp sums its values with butterfly shuffles and counts its positive values; the high
// half broadcasts its last lane's value and ballots on its negative values.
extern "C" __global__ void warp_divergent_branch(const int* in, int* out, int n) {
  int i = global_index();
  int v = i < n ? in[i] : 0;
  int lane = threadIdx.x & 31;
  int result;
  if (lane < 16) {
    int sum = v;
    for (int offset = 8; offset > 0; offset >>= 1) sum += __shfl_xor_sync(0x0000ffffu, sum, offset);
    result = sum + __popc(__ballot_sync(0x0000ffffu, v > 0)) * 1000;
  } else {
    int last = __shfl_sync(0xffff0000u, v, 31);
    result = last - __popc(__ballot_sync(0xffff0000u, v < 0)) * 1000;
  }
  if (i < n) out[i] = result;
}

// Lanes past n exit before the warp operations: the ballot counts only the lanes left.
extern "C" __global__ void warp_after_exit(const int* in, int* out, int n) {
  int i = global_index();
  if (i >= n) return;
  unsigned present = __activemask();
  out[2 * i] = __popc(present);
  out[2 * i + 1] = __popc(__ballot_sync(present, in[i] > 0));
}
