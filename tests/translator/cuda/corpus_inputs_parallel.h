#pragma once
// Inputs and launch shapes of the parallel corpus cases (see corpus_inputs.h).
#include <cmath>

#include "tests/translator/cuda/corpus_inputs_common.h"

namespace kiln::test::parallel_inputs {

constexpr int block_size = 256;

inline Launch launch_1d(int threads, std::vector<Argument> arguments) {
  Launch launch;
  launch.grid[0] = div_ceil_u32(threads, block_size);
  launch.arguments = std::move(arguments);
  return launch;
}

inline void add(std::vector<CorpusInput>& inputs) {
  // Warps: n a multiple of 32 but not of the block size, so a block has whole warps with no work.
  constexpr int warp_n = 960;
  // Divergent warps: 1000 threads, so the last warp is cut short.
  inputs.push_back({"warp_divergent", "warp_divergent_branch",
                    [](Random& r) { return launch_1d(1000, {input(generate<int32_t>(1000, [&] { return random_int(r, -50000, 50000); })), output<int32_t>(1000), scalar(1000)}); }});
  inputs.push_back({"warp_divergent", "warp_after_exit",
                    [](Random& r) { return launch_1d(1000, {input(generate<int32_t>(1000, [&] { return random_int(r, -1000, 1000); })), output<int32_t>(2000), scalar(1000)}); }});
  inputs.push_back({"warp_operations", "warp_shuffle_reduce",
                    [](Random& r) { return launch_1d(warp_n, {input(generate<int32_t>(warp_n, [&] { return random_int(r, -1000000, 1000000); })), output<int32_t>(warp_n / 32), scalar(warp_n)}); }});
  inputs.push_back({"warp_operations", "warp_shuffle_scan",
                    [](Random& r) { return launch_1d(warp_n, {input(generate<float>(warp_n, [&] { return random_float(r, -10, 10); })), output<float>(warp_n), scalar(warp_n)}); }});
  inputs.push_back({"warp_operations", "warp_shuffle_broadcast_rotate",
                    [](Random& r) {
                     return launch_1d(warp_n, {input(generate<int32_t>(warp_n, [&] { return random_int(r, -100000, 100000); })), output<int32_t>(warp_n),
                                               scalar(warp_n), scalar(random_int(r, 0, 100))});
                   }});
  inputs.push_back({"warp_operations", "warp_vote",
                    [](Random& r) {
                     return launch_1d(warp_n, {input(generate<int32_t>(warp_n, [&] { return (r() % 8 == 0) ? 7 : random_int(r, (r() % 2) ? -3 : 0, 9); })),
                                               output<uint32_t>(warp_n), scalar(warp_n)});
                   }});
  inputs.push_back({"warp_operations", "warp_lane_info",
                    [](auto&) { return launch_1d(warp_n, {output<uint32_t>(warp_n), scalar(warp_n)}); }});

  constexpr int n = 1000;
  inputs.push_back({"shared_memory", "shared_reduce_sum",
                    [](Random& r) { return launch_1d(n, {input(generate<float>(n, [&] { return random_float(r, -100, 100); })), output<float>(div_ceil_u32(n, block_size)), scalar(n)}); }});
  inputs.push_back({"shared_memory", "shared_prefix_sum",
                    [](Random& r) { return launch_1d(n, {input(generate<int32_t>(n, [&] { return random_int(r, -1000, 1000); })), output<int32_t>(n), scalar(n)}); }});
  inputs.push_back({"shared_memory", "shared_transpose_tile",
                    [](Random& r) {
                     constexpr int width = 40, height = 24;
                     Launch launch;
                     launch.block = {16, 16, 1};
                     launch.grid = {div_ceil_u32(width, 16), div_ceil_u32(height, 16), 1};
                     launch.arguments = {input(generate<float>(width * height, [&] { return random_float(r, -1, 1); })), output<float>(width * height), scalar(width), scalar(height)};
                     return launch;
                   }});
  inputs.push_back({"shared_memory", "shared_histogram",
                    [](Random& r) {
                     // Two blocks of 256 (the kernel's bins are per thread) striding over n bytes.
                     Launch launch = launch_1d(2 * block_size, {input(generate<uint8_t>(n, [&] { return static_cast<uint8_t>(r() % 4 == 0 ? 7 : r()); })),
                                                                in_out(std::vector<uint32_t>(256, 0)), scalar(n)});
                     return launch;
                   }});
  inputs.push_back({"shared_memory", "shared_reverse_block",
                    [](Random& r) { return launch_1d(n, {input(generate<int32_t>(n, [&] { return static_cast<int32_t>(r()); })), output<int32_t>(n), scalar(n)}); }});

  inputs.push_back({"atomics", "atomic_add_int",
                    [](Random& r) {
                     return launch_1d(n, {input(generate<int32_t>(n, [&] { return random_int(r, -1000, 1000); })), in_out(std::vector<int32_t>{random_int(r, -5, 5)}),
                                          in_out(std::vector<int32_t>(37, 0)), scalar(n), scalar(37)});
                   }});
  inputs.push_back({"atomics", "atomic_add_float_return",
                    [](Random& r) {
                     // The sum's rounding depends on the order the atomics land in: compared within 2^-6.
                     return launch_1d(n, {input(generate<float>(n, [&] { return random_float(r, 0, 1); })), in_out(std::vector<float>{0.0f}, {Comparison::Kind::Float32, 0, 0x1p-6}),
                                          output<float>(n), scalar(n)});
                   }});
  inputs.push_back({"atomics", "atomic_min_max",
                    [](Random& r) {
                     return launch_1d(n, {input(generate<int32_t>(n, [&] { return static_cast<int32_t>(r()); })), in_out(std::vector<int32_t>{INT32_MAX}),
                                          in_out(std::vector<int32_t>{INT32_MIN}), in_out(std::vector<uint32_t>{0}), scalar(n)});
                   }});
  inputs.push_back({"atomics", "atomic_exchange_cas",
                    [](auto&) {
                     // 16 threads: one per slot, so which thread wins each compare-and-swap is determined.
                     return launch_1d(16, {in_out(std::vector<int32_t>(32, 0)), output<int32_t>(16), scalar(16)});
                   }});
  inputs.push_back({"atomics", "atomic_64bit",
                    [](Random& r) {
                     return launch_1d(n, {input(generate<uint64_t>(n, [&] { return r(); })), in_out(std::vector<uint64_t>{r()}), in_out(std::vector<uint64_t>{0}), scalar(n)});
                   }});
  inputs.push_back({"atomics", "atomic_bitwise",
                    [](Random& r) {
                     return launch_1d(n, {input(generate<uint32_t>(n, [&] { return static_cast<uint32_t>(r() | r()); })), in_out(std::vector<uint32_t>{0xffffffffu}),
                                          in_out(std::vector<uint32_t>{0}), in_out(std::vector<uint32_t>{0x12345678u}), scalar(n)});
                   }});

  inputs.push_back({"applications", "image_box_blur3x3",
                    [](Random& r) {
                     constexpr int width = 37, height = 23;
                     Launch launch;
                     launch.block = {16, 8, 1};
                     launch.grid = {div_ceil_u32(width, 16), div_ceil_u32(height, 8), 1};
                     launch.arguments = {input(generate<float>(width * height, [&] { return random_float(r, 0, 1); })), output<float>(width * height), scalar(width), scalar(height)};
                     return launch;
                   }});
  inputs.push_back({"applications", "matrix_multiply_tile16",
                    [](Random& r) {
                     constexpr int size = 37;
                     Launch launch;
                     launch.block = {16, 16, 1};
                     launch.grid = {div_ceil_u32(size, 16), div_ceil_u32(size, 16), 1};
                     launch.arguments = {input(generate<float>(size * size, [&] { return random_float(r, -1, 1); })),
                                         input(generate<float>(size * size, [&] { return random_float(r, -1, 1); })), output<float>(size * size), scalar(size)};
                     return launch;
                   }});
  inputs.push_back({"applications", "grid_stride_dot",
                    [](Random& r) {
                     Launch launch = launch_1d(2 * block_size, {input(generate<float>(n, [&] { return random_float(r, -1, 1); })),
                                                                input(generate<float>(n, [&] { return random_float(r, -1, 1); })), output<float>(2 * block_size), scalar(n)});
                     return launch;
                   }});
  inputs.push_back({"applications", "image_rgba_to_luma",
                    [](Random& r) { return launch_1d(n, {input(generate<uint32_t>(n, [&] { return static_cast<uint32_t>(r()); })), output<uint8_t>(n), scalar(n)}); }});
}

} // namespace kiln::test::parallel_inputs
