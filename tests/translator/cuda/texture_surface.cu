// Texture and surface access through CUDA texture/surface objects: tex1Dfetch (TLD on buffers), tex2D with
// normalised or unnormalised coordinates (TEX), tex2DLod, tex2Dgather (TLD4), surf2Dread/surf2Dwrite (SULD/SUST),
// a 1-D surface, and texture queries through the object handle.
#include "common.cuh"

extern "C" __global__ void texture_fetch_1d(cudaTextureObject_t texture, float* out, int n) {
  int i = global_index();
  if (i >= n) return;
  out[i] = tex1Dfetch<float>(texture, i) + tex1Dfetch<float>(texture, (i * 7) % n);
}

extern "C" __global__ void texture_sample_2d(cudaTextureObject_t texture, float4* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float u = (x + 0.5f) / width, v = (y + 0.5f) / height;
  float4 a = tex2D<float4>(texture, u, v);
  float4 b = tex2DLod<float4>(texture, u, v, 1.0f);
  float4 g = tex2Dgather<float4>(texture, u, v, 1);
  out[y * width + x] = make_float4(a.x + b.y, a.y + g.x, a.z + g.w, a.w + b.x);
}

extern "C" __global__ void surface_read_write_2d(cudaSurfaceObject_t source, cudaSurfaceObject_t target, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  uchar4 texel = surf2Dread<uchar4>(source, x * 4, y);
  float f = surf2Dread<float>(source, ((width - 1 - x) * 4), height - 1 - y, cudaBoundaryModeZero);
  surf2Dwrite(make_uchar4(texel.z, texel.y, texel.x, static_cast<unsigned char>(f != 0.0f)), target, x * 4, y);
}

extern "C" __global__ void surface_1d_int(cudaSurfaceObject_t surface, int n) {
  int i = global_index();
  if (i >= n) return;
  int v = surf1Dread<int>(surface, i * 4);
  surf1Dwrite(v * 2 + 1, surface, i * 4);
}
