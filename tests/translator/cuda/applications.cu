// Small complete programs: a 3x3 image filter, a 16x16 matrix-multiply tile, a grid-stride dot product.
#include "common.cuh"

// 2-D launch, any block shape; clamps at the borders.
extern "C" __global__ void image_box_blur3x3(const float* in, float* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      int sx = min(max(x + dx, 0), width - 1);
      int sy = min(max(y + dy, 0), height - 1);
      sum += in[sy * width + sx];
    }
  }
  out[y * width + x] = sum * (1.0f / 9.0f);
}

// 2-D launch with 16x16 blocks; n is the matrix size (any n, tiles are padded).
extern "C" __global__ void matrix_multiply_tile16(const float* a, const float* b, float* c, int n) {
  __shared__ float tile_a[16][16];
  __shared__ float tile_b[16][16];
  int row = blockIdx.y * 16 + threadIdx.y;
  int column = blockIdx.x * 16 + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < (n + 15) / 16; ++t) {
    int ac = t * 16 + threadIdx.x;
    int br = t * 16 + threadIdx.y;
    tile_a[threadIdx.y][threadIdx.x] = (row < n && ac < n) ? a[row * n + ac] : 0.0f;
    tile_b[threadIdx.y][threadIdx.x] = (br < n && column < n) ? b[br * n + column] : 0.0f;
    __syncthreads();
    for (int k = 0; k < 16; ++k) sum = fmaf(tile_a[threadIdx.y][k], tile_b[k][threadIdx.x], sum);
    __syncthreads();
  }
  if (row < n && column < n) c[row * n + column] = sum;
}

extern "C" __global__ void grid_stride_dot(const float* a, const float* b, float* partial, int n) {
  float sum = 0.0f;
  for (int i = global_index(); i < n; i += blockDim.x * gridDim.x) sum += a[i] * b[i];
  partial[global_index()] = sum;
}

// Integer image op: RGBA8 to luminance with rounding, one thread per pixel.
extern "C" __global__ void image_rgba_to_luma(const unsigned* rgba, unsigned char* luma, int pixel_count) {
  int i = global_index();
  if (i >= pixel_count) return;
  unsigned p = rgba[i];
  unsigned r = p & 0xff, g = (p >> 8) & 0xff, b = (p >> 16) & 0xff;
  luma[i] = static_cast<unsigned char>((r * 77u + g * 150u + b * 29u + 128u) >> 8);
}
