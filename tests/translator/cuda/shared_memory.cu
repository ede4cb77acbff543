// Shared memory with barriers: tree reduction, a Hillis-Steele prefix sum within a block, a transpose tile,
// a histogram with shared atomics. All launched with blockDim.x == 256 (transpose: 16x16 blocks).
#include "common.cuh"

extern "C" __global__ void shared_reduce_sum(const float* in, float* block_sums, int n) {
  __shared__ float partial[256];
  int i = global_index();
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) block_sums[blockIdx.x] = partial[0];
}

extern "C" __global__ void shared_prefix_sum(const int* in, int* out, int n) {
  __shared__ int buffer[2][256];
  int i = global_index();
  int current = 0;
  buffer[0][threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned offset = 1; offset < blockDim.x; offset <<= 1) {
    int value = buffer[current][threadIdx.x];
    if (threadIdx.x >= offset) value += buffer[current][threadIdx.x - offset];
    buffer[1 - current][threadIdx.x] = value;
    current = 1 - current;
    __syncthreads();
  }
  if (i < n) out[i] = buffer[current][threadIdx.x];
}

extern "C" __global__ void shared_transpose_tile(const float* in, float* out, int width, int height) {
  __shared__ float tile[16][17];
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  if (x < width && y < height) tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  int tx = blockIdx.y * 16 + threadIdx.x;
  int ty = blockIdx.x * 16 + threadIdx.y;
  if (tx < height && ty < width) out[ty * height + tx] = tile[threadIdx.x][threadIdx.y];
}

extern "C" __global__ void shared_histogram(const unsigned char* in, unsigned* bins, int n) {
  __shared__ unsigned local_bins[256];
  local_bins[threadIdx.x] = 0;
  __syncthreads();
  for (int i = global_index(); i < n; i += blockDim.x * gridDim.x) atomicAdd(&local_bins[in[i]], 1u);
  __syncthreads();
  if (local_bins[threadIdx.x] != 0) atomicAdd(&bins[threadIdx.x], local_bins[threadIdx.x]);
}

extern "C" __global__ void shared_reverse_block(const int* in, int* out, int n) {
  __shared__ int staging[256];
  int i = global_index();
  staging[threadIdx.x] = i < n ? in[i] : -1;
  __syncthreads();
  if (i < n) out[i] = staging[blockDim.x - 1 - threadIdx.x];
}
