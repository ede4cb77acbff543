// Block-linear deswizzle/swizzle throughput next to memcpy of the same bytes, measured in the same run.
// Usage: bench_textures [--quick] [--only TEXT] (TEXT: rows whose "<name> <bytes>B" contains it, e.g. "1000x700 16B")
#include "bench/common/best_time.h"
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/gpu/textures/blocklinear/swizzle.h"

using namespace kiln::textures;

namespace {

using kiln::bench::best_seconds_per_run;

struct Row {
  std::string name;
  SurfaceDescription description;
};

void measure(const Row& row, double budget) {
  const SurfaceLayout layout = SurfaceLayout::compute(row.description);
  std::vector<uint8_t> guest(layout.total_size(), 1);
  std::vector<uint8_t> linear(linear_surface_size(layout), 2);
  for (size_t i = 0; i < guest.size(); ++i) guest[i] = static_cast<uint8_t>(i * 7);
  const double bytes = static_cast<double>(linear.size());
  const double t_deswizzle = best_seconds_per_run([&] { deswizzle_surface(layout, guest, linear); }, budget);
  const double t_swizzle = best_seconds_per_run([&] { swizzle_surface(layout, linear, guest); }, budget);
  const double t_memcpy = best_seconds_per_run([&] { std::memcpy(linear.data(), guest.data(), linear.size()); }, budget);
  const auto gbs = [&](double t) { return bytes / t / 1e9; };
  fmt::print("{:<34} {:>3} {:>9.1f} {:>10.2f} {:>7.2f} {:>9.2f} {:>7.2f} {:>9.2f}\n", row.name,
             row.description.element.bytes, bytes / (1 << 20), gbs(t_deswizzle), t_memcpy / t_deswizzle,
             gbs(t_swizzle), t_memcpy / t_swizzle, gbs(t_memcpy));
}

} // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--quick") quick = true;
    if (std::string(argv[i]) == "--only" && i + 1 < argc) only = argv[++i];
  }
  const double budget = quick ? 0.05 : 0.3;
  std::vector<Row> rows;
  for (uint32_t bytes : {4u, 8u, 16u, 1u, 2u}) {
    const uint32_t side_4m = 4096 / bytes; // 4 MiB: fits in no L2, close to a frame's render target
    rows.push_back({fmt::format("2D {}x{} auto", side_4m, 1024), {.width = side_4m, .height = 1024, .element = {bytes}}});
    rows.push_back({"2D 4096x4096 auto (16 GOB)", {.width = 4096, .height = 4096, .element = {bytes}}});
    rows.push_back({"2D 4096x4096 1 GOB", {.width = 4096, .height = 4096, .element = {bytes}, .block_height_log2 = 0}});
    rows.push_back({"2D 1000x700 auto (ragged edges)", {.width = 1000, .height = 700, .element = {bytes}}});
    rows.push_back({"3D 256x256x64 auto", {.width = 256, .height = 256, .depth = 64, .element = {bytes}}});
    rows.push_back({"2D 2048x2048 full mip chain",
                    {.width = 2048, .height = 2048, .mip_levels = 12, .element = {bytes}}});
    if (quick) break;
  }
  fmt::print("{:<34} {:>3} {:>9} {:>10} {:>7} {:>9} {:>7} {:>9}\n", "surface", "Bpp", "MiB", "deswz GB/s", "/memcpy",
             "swz GB/s", "/memcpy", "memcpy");
  for (const Row& row : rows) {
    if (fmt::format("{} {}B", row.name, row.description.element.bytes).find(only) != std::string::npos) {
      measure(row, budget);
    }
  }
  return 0;
}
