// References for warp_operations.cu, shared_memory.cu, atomics.cu and applications.cu: the block- and
// warp-level algorithms simulated lane by lane, in the order the CUDA source gives.
#include <bit>
#include <cmath>

#include "tests/translator/run/corpus_case.h"

namespace kiln::test {

using namespace parallel_inputs; // n, block sizes and helpers the inputs were made with

void add_parallel_cases(std::vector<CorpusCase>& cases) {

  // Warps: n a multiple of 32 but not of the block size, so a block has whole warps with no work.
  constexpr int warp_n = 960;
  // warp_divergent.cu: each half of a warp exchanges only within itself; lanes past n (v = 0) take part in the
  // first kernel and have exited in the second.
  cases.push_back({"warp_divergent", "warp_divergent_branch",
                   [](Launch& l) {
                     constexpr int count = 1000;
                     const auto v = [&](int t) { return t < count ? l.arguments[0].as<int32_t>()[t] : 0; };
                     for (int i = 0; i < count; ++i) {
                       const int base = i & ~31, lane = i & 31;
                       uint32_t result = 0;
                       if (lane < 16) {
                         uint32_t sum = 0, positive = 0;
                         for (int k = 0; k < 16; ++k) sum += static_cast<uint32_t>(v(base + k)), positive += v(base + k) > 0;
                         result = sum + positive * 1000u;
                       } else {
                         uint32_t negative = 0;
                         for (int k = 16; k < 32; ++k) negative += v(base + k) < 0;
                         result = static_cast<uint32_t>(v(base + 31)) - negative * 1000u;
                       }
                       l.arguments[1].as<uint32_t>()[i] = result;
                     }
                   }});
  cases.push_back({"warp_divergent", "warp_after_exit",
                   [](Launch& l) {
                     constexpr int count = 1000;
                     for (int i = 0; i < count; ++i) {
                       const int base = i & ~31;
                       int present = 0, positive = 0;
                       for (int t = base; t < base + 32 && t < count; ++t) ++present, positive += l.arguments[0].as<int32_t>()[t] > 0;
                       l.arguments[1].as<int32_t>()[2 * i] = present;
                       l.arguments[1].as<int32_t>()[2 * i + 1] = positive;
                     }
                   }});
  cases.push_back({"warp_operations", "warp_shuffle_reduce",
                   [](Launch& l) {
                     for (int warp = 0; warp < warp_n / 32; ++warp) {
                       uint32_t sum = 0;
                       for (int lane = 0; lane < 32; ++lane) sum += static_cast<uint32_t>(l.arguments[0].as<int32_t>()[warp * 32 + lane]);
                       l.arguments[1].as<uint32_t>()[warp] = sum;
                     }
                   }});
  cases.push_back({"warp_operations", "warp_shuffle_scan",
                   [](Launch& l) {
                     for (int warp = 0; warp < warp_n / 32; ++warp) {
                       float v[32];
                       for (int lane = 0; lane < 32; ++lane) v[lane] = l.arguments[0].as<float>()[warp * 32 + lane];
                       for (int offset = 1; offset < 32; offset <<= 1) {
                         float next[32];
                         for (int lane = 0; lane < 32; ++lane) next[lane] = lane >= offset ? v[lane] + v[lane - offset] : v[lane];
                         std::copy(next, next + 32, v);
                       }
                       for (int lane = 0; lane < 32; ++lane) l.arguments[1].as<float>()[warp * 32 + lane] = v[lane];
                     }
                   }});
  cases.push_back({"warp_operations", "warp_shuffle_broadcast_rotate",
                   [](Launch& l) {
                     const int source = scalar_value<int32_t>(l.arguments[3]) & 31;
                     auto in = l.arguments[0].as<int32_t>();
                     for (int i = 0; i < warp_n; ++i) {
                       const int base = i & ~31, lane = i & 31;
                       const int32_t rotated = lane + 3 < 32 ? in[i + 3] : in[i]; // shfl.down keeps its own value past the end
                       l.arguments[1].as<int32_t>()[i] = static_cast<int32_t>(static_cast<uint32_t>(in[base + source]) * 1000u + static_cast<uint32_t>(rotated));
                     }
                   }});
  cases.push_back({"warp_operations", "warp_vote",
                   [](Launch& l) {
                     auto in = l.arguments[0].as<int32_t>();
                     for (int warp = 0; warp < warp_n / 32; ++warp) {
                       uint32_t ballot = 0;
                       bool any = false, all = true;
                       for (int lane = 0; lane < 32; ++lane) {
                         const int32_t v = in[warp * 32 + lane];
                         ballot |= (v > 0 ? 1u : 0u) << lane;
                         any |= v == 7;
                         all &= v >= 0;
                       }
                       for (int lane = 0; lane < 32; ++lane) {
                         l.arguments[1].as<uint32_t>()[warp * 32 + lane] = ballot ^ (static_cast<uint32_t>(any) << 1) ^ static_cast<uint32_t>(all) ^ std::popcount(ballot);
                       }
                     }
                   }});
  cases.push_back({"warp_operations", "warp_lane_info",
                   [](Launch& l) {
                     for (int i = 0; i < warp_n; ++i) {
                       l.arguments[0].as<uint32_t>()[i] = (i & 31) | ((i % block_size) << 8) | ((i / block_size) << 20);
                     }
                   }});

  constexpr int n = 1000;
  cases.push_back({"shared_memory", "shared_reduce_sum",
                   [](Launch& l) {
                     for (int block = 0; block * block_size < n; ++block) {
                       float partial[block_size];
                       for (int t = 0; t < block_size; ++t) partial[t] = block * block_size + t < n ? l.arguments[0].as<float>()[block * block_size + t] : 0.0f;
                       for (int s = block_size / 2; s > 0; s >>= 1) {
                         for (int t = 0; t < s; ++t) partial[t] += partial[t + s];
                       }
                       l.arguments[1].as<float>()[block] = partial[0];
                     }
                   }});
  cases.push_back({"shared_memory", "shared_prefix_sum",
                   [](Launch& l) {
                     for (int block = 0; block * block_size < n; ++block) {
                       int32_t sum = 0;
                       for (int t = 0; t < block_size && block * block_size + t < n; ++t) {
                         sum += l.arguments[0].as<int32_t>()[block * block_size + t];
                         l.arguments[1].as<int32_t>()[block * block_size + t] = sum;
                       }
                     }
                   }});
  cases.push_back({"shared_memory", "shared_transpose_tile",
                   [](Launch& l) {
                     const int width = scalar_value<int32_t>(l.arguments[2]), height = scalar_value<int32_t>(l.arguments[3]);
                     for (int y = 0; y < height; ++y) {
                       for (int x = 0; x < width; ++x) l.arguments[1].as<float>()[x * height + y] = l.arguments[0].as<float>()[y * width + x];
                     }
                   }});
  cases.push_back({"shared_memory", "shared_histogram",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) l.arguments[1].as<uint32_t>()[l.arguments[0].as<uint8_t>()[i]] += 1;
                   }});
  cases.push_back({"shared_memory", "shared_reverse_block",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const int block = i / block_size, t = i % block_size;
                       const int source = block * block_size + block_size - 1 - t;
                       l.arguments[1].as<int32_t>()[i] = source < n ? l.arguments[0].as<int32_t>()[source] : -1;
                     }
                   }});

  cases.push_back({"atomics", "atomic_add_int",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       l.arguments[1].as<int32_t>()[0] += l.arguments[0].as<int32_t>()[i];
                       l.arguments[2].as<int32_t>()[i % 37] += 1;
                     }
                   }});
  cases.push_back({"atomics", "atomic_add_float_return",
                   [](Launch& l) {
                     double sum = 0;
                     for (int i = 0; i < n; ++i) sum += l.arguments[0].as<float>()[i], l.arguments[2].as<float>()[i] = 1.0f;
                     l.arguments[1].as<float>()[0] = static_cast<float>(sum);
                   }});
  cases.push_back({"atomics", "atomic_min_max",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const int32_t v = l.arguments[0].as<int32_t>()[i];
                       l.arguments[1].as<int32_t>()[0] = std::min(l.arguments[1].as<int32_t>()[0], v);
                       l.arguments[2].as<int32_t>()[0] = std::max(l.arguments[2].as<int32_t>()[0], v);
                       l.arguments[3].as<uint32_t>()[0] = std::max(l.arguments[3].as<uint32_t>()[0], static_cast<uint32_t>(v));
                     }
                   }});
  cases.push_back({"atomics", "atomic_exchange_cas",
                   [](Launch& l) {
                     for (int i = 0; i < 16; ++i) {
                       l.arguments[0].as<int32_t>()[i] = i + 1;
                       l.arguments[0].as<int32_t>()[16 + i] = i;
                       l.arguments[1].as<int32_t>()[i] = 1;
                     }
                   }});
  cases.push_back({"atomics", "atomic_64bit",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint64_t v = l.arguments[0].as<uint64_t>()[i];
                       l.arguments[1].as<uint64_t>()[0] += v;
                       l.arguments[2].as<uint64_t>()[0] = std::max(l.arguments[2].as<uint64_t>()[0], v);
                     }
                   }});
  cases.push_back({"atomics", "atomic_bitwise",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint32_t v = l.arguments[0].as<uint32_t>()[i];
                       l.arguments[1].as<uint32_t>()[0] &= v;
                       l.arguments[2].as<uint32_t>()[0] |= v;
                       l.arguments[3].as<uint32_t>()[0] ^= v;
                     }
                   }});

  cases.push_back({"applications", "image_box_blur3x3",
                   [](Launch& l) {
                     const int width = scalar_value<int32_t>(l.arguments[2]), height = scalar_value<int32_t>(l.arguments[3]);
                     auto in = l.arguments[0].as<float>();
                     for (int y = 0; y < height; ++y) {
                       for (int x = 0; x < width; ++x) {
                         float sum = 0.0f;
                         for (int dy = -1; dy <= 1; ++dy) {
                           for (int dx = -1; dx <= 1; ++dx) sum += in[std::clamp(y + dy, 0, height - 1) * width + std::clamp(x + dx, 0, width - 1)];
                         }
                         l.arguments[1].as<float>()[y * width + x] = sum * (1.0f / 9.0f);
                       }
                     }
                   }});
  cases.push_back({"applications", "matrix_multiply_tile16",
                   [](Launch& l) {
                     const int size = scalar_value<int32_t>(l.arguments[3]);
                     auto a = l.arguments[0].as<float>();
                     auto b = l.arguments[1].as<float>();
                     for (int row = 0; row < size; ++row) {
                       for (int column = 0; column < size; ++column) {
                         float sum = 0.0f;
                         for (int t = 0; t < (size + 15) / 16; ++t) {
                           for (int k = 0; k < 16; ++k) {
                             const int ac = t * 16 + k, br = t * 16 + k;
                             sum = std::fma(ac < size ? a[row * size + ac] : 0.0f, br < size ? b[br * size + column] : 0.0f, sum);
                           }
                         }
                         l.arguments[2].as<float>()[row * size + column] = sum;
                       }
                     }
                   }});
  cases.push_back({"applications", "grid_stride_dot",
                   [](Launch& l) {
                     for (int thread = 0; thread < 2 * block_size; ++thread) {
                       float sum = 0.0f;
                       for (int i = thread; i < n; i += 2 * block_size) sum = std::fma(l.arguments[0].as<float>()[i], l.arguments[1].as<float>()[i], sum);
                       l.arguments[2].as<float>()[thread] = sum;
                     }
                   }});
  cases.push_back({"applications", "image_rgba_to_luma",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint32_t p = l.arguments[0].as<uint32_t>()[i];
                       const uint32_t red = p & 0xff, green = (p >> 8) & 0xff, blue = (p >> 16) & 0xff;
                       l.arguments[1].as<uint8_t>()[i] = static_cast<uint8_t>((red * 77u + green * 150u + blue * 29u + 128u) >> 8);
                     }
                   }});
}

} // namespace kiln::test
