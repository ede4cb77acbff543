// Barriers with counts and reductions (BAR.RED.POPC/AND/OR, __syncthreads_count/_and/_or), named barriers with a
// thread count (bar.sync id, count), memory fences of each scope (MEMBAR.CTA/GL/SYS), warp-synchronous code
// (__syncwarp, __activemask, match and reduce from sm_70/sm_80), the clock and special registers.
// Launch: 1-D, blockDim.x == 256.
#include "common.cuh"

extern "C" __global__ void barrier_count_and_or(const int* in, int* out, int n) {
  int i = global_index();
  int v = i < n ? in[i] : 0;
  int count = __syncthreads_count(v > 0);
  int all = __syncthreads_and(v != 0);
  int any = __syncthreads_or(v < -1000);
  if (i < n) out[i] = count * 4 + all * 2 + any;
}

extern "C" __global__ void named_barrier_halves(const int* in, int* out, int n) {
  __shared__ int stage[256];
  int i = global_index();
  int t = threadIdx.x;
  stage[t] = i < n ? in[i] : 0;
  // Each half of the block meets at its own barrier (ids 1 and 2, 128 threads each).
  if (t < 128) asm volatile("bar.sync 1, 128;" ::: "memory");
  else asm volatile("bar.sync 2, 128;" ::: "memory");
  int partner = t < 128 ? 127 - t : 383 - t;
  if (i < n) out[i] = stage[partner] - stage[t];
}

extern "C" __global__ void memory_fences(int* data, volatile int* flags, int n) {
  int i = global_index();
  if (i >= n) return;
  data[i] = i * 3;
  __threadfence_block();
  flags[i] = 1;
  __threadfence();
  data[i] += flags[i];
  __threadfence_system();
  flags[i] = data[i] + 1;
}

extern "C" __global__ void warp_synchronous(const int* in, int* out, int n) {
  int i = global_index();
  if (i >= n) return;
  int v = in[i];
  unsigned active = __activemask();
  __syncwarp(active);
  int sum = v;
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(active, sum, offset);
#if __CUDA_ARCH__ >= 700
  unsigned same = __match_any_sync(active, v & 3);
#else
  unsigned same = __ballot_sync(active, (v & 3) == (__shfl_sync(active, v, 0) & 3));
#endif
#if __CUDA_ARCH__ >= 800
  int reduced = static_cast<int>(__reduce_add_sync(active, static_cast<unsigned>(v & 0xff)));
#else
  int reduced = v & 0xff;
  for (int offset = 16; offset > 0; offset /= 2) reduced += __shfl_xor_sync(active, reduced, offset);
#endif
  __syncwarp();
  out[3 * i] = sum;
  out[3 * i + 1] = __popc(same);
  out[3 * i + 2] = reduced;
}

extern "C" __global__ void clock_and_special_registers(unsigned* out, int n) {
  int i = global_index();
  if (i >= n) return;
  long long start = clock64();
  unsigned start32 = static_cast<unsigned>(clock());
  unsigned lane, lt, le, gt, ge, eq, ntid, nctaid, smid, warpid;
  unsigned long long timer;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(le));
  asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
  asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
  asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
  asm volatile("mov.u32 %0, %%ntid.x;" : "=r"(ntid));
  asm volatile("mov.u32 %0, %%nctaid.x;" : "=r"(nctaid));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(timer));
  long long stop = clock64();
  unsigned stop32 = static_cast<unsigned>(clock());
  // Only facts that hold on every run are stored: the masks, sizes, and that clocks advance.
  out[8 * i] = lane;
  out[8 * i + 1] = lt ^ (le << 1);
  out[8 * i + 2] = gt ^ ge ^ eq;
  out[8 * i + 3] = ntid;
  out[8 * i + 4] = nctaid;
  out[8 * i + 5] = (stop >= start ? 1u : 0u) | (stop32 - start32 < 0x80000000u ? 2u : 0u);
  out[8 * i + 6] = (smid < 1024 ? 1u : 0u) | (warpid < 64 ? 2u : 0u) | (timer != 0 ? 4u : 0u);
  out[8 * i + 7] = static_cast<unsigned>(threadIdx.x == lane + 32 * (threadIdx.x / 32));
}
