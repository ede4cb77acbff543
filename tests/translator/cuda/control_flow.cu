// Control flow: divergent if/else (BSSY/BSYNC), data-dependent loops, early exits, a switch, predication.
#include "common.cuh"

extern "C" __global__ void branch_divergent(const int* a, int* out, int n) {
  int i = global_index();
  if (i >= n) return;
  int x = a[i];
  int r;
  if (x & 1) {
    r = x * 3 + 1;
    if (r > 1000) r -= 1000;
  } else {
    r = x / 2;
    for (int k = 0; k < (x & 7); ++k) r += k * x;
  }
  out[i] = r;
}

extern "C" __global__ void loop_collatz(const unsigned* a, unsigned* out, int n) {
  int i = global_index();
  if (i >= n) return;
  unsigned x = a[i] % 100000u + 1u;
  unsigned steps = 0;
  while (x != 1u && steps < 1000u) {
    x = (x & 1u) ? 3u * x + 1u : x >> 1;
    ++steps;
  }
  out[i] = steps;
}

extern "C" __global__ void loop_nested_early_exit(const int* a, int* out, int n, int limit) {
  int i = global_index();
  if (i >= n) return;
  int sum = 0;
  for (int r = 0; r < 8; ++r) {
    for (int c = 0; c < 8; ++c) {
      sum += a[(i + r * 8 + c) % n] ^ (r * c);
      if (sum > limit) {
        out[i] = -sum;
        return;
      }
    }
  }
  out[i] = sum;
}

extern "C" __global__ void branch_switch(const int* a, float* out, int n) {
  int i = global_index();
  if (i >= n) return;
  float v = static_cast<float>(a[i]);
  switch (a[i] & 7) {
  case 0: v = v * 2.0f; break;
  case 1: v = v + 100.0f; break;
  case 2: v = -v; break;
  case 3: v = v * v; break;
  case 5: v = v - 7.5f; break;
  default: v = 0.0f; break;
  }
  out[i] = v;
}

extern "C" __global__ void predicated_select(const float* a, const float* b, float* out, int n, float threshold) {
  int i = global_index();
  if (i >= n) return;
  float x = a[i];
  float y = b[i];
  out[i] = x > threshold ? x - y : (y > threshold ? y : x + y);
}
