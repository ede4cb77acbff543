// Shared by every corpus kernel: the global thread index. Kernels are launched 1-D unless their comment says
// otherwise; every kernel checks its bounds, so any grid covering n works.
#pragma once
__device__ __forceinline__ int global_index() { return blockIdx.x * blockDim.x + threadIdx.x; }
