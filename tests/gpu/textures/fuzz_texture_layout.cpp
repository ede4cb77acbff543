// Fuzzes the surface calculator and deswizzle/swizzle with arbitrary descriptions, regions and buffer sizes:
// every input must end in a layout and a copy, or in kiln::Error; never an out-of-bounds access.
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "runtime/base/error.h"
#include "runtime/gpu/textures/blocklinear/swizzle.h"

namespace {

struct Input {
  const uint8_t* data;
  size_t size;
  uint32_t u32() {
    uint32_t value = 0;
    const size_t n = size < 4 ? size : 4;
    std::memcpy(&value, data, n);
    data += n, size -= n;
    return value;
  }
  uint32_t small(uint32_t limit) { return u32() % limit; }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in{data, size};
  using namespace kiln::textures;
  SurfaceDescription d;
  // Mostly small values so layouts get computed and copied, sometimes anything so the checks are exercised.
  const bool wild = in.small(8) == 0;
  d.width = wild ? in.u32() : in.small(300);
  d.height = wild ? in.u32() : in.small(300);
  d.depth = wild ? in.u32() : 1 + in.small(2) * in.small(20);
  d.array_layers = wild ? in.u32() : 1 + in.small(4);
  d.mip_levels = wild ? in.u32() : 1 + in.small(10);
  d.element.bytes = in.small(2) ? 1u << in.small(5) : in.small(20);
  d.element.width = 1 + in.small(13);
  d.element.height = in.small(3) ? d.element.width : in.small(20);
  if (in.small(2)) d.block_height_log2 = in.small(8);
  if (in.small(2)) d.block_depth_log2 = in.small(8);
  d.rule = in.small(2) ? BlockHeightRule::nvn_truncate : BlockHeightRule::deko3d_round_up;
  if (in.small(6) == 0) d.tiling = Tiling::pitch_linear, d.pitch_bytes = in.small(5000);
  try {
    const SurfaceLayout layout = SurfaceLayout::compute(d, "fuzz");
    (void)layout.touched(in.u32(), in.u32());
    if (layout.total_size() > (uint64_t{8} << 20)) return 0;
    const uint32_t layer = in.small(layout.layer_count() + 1);
    const uint32_t level = in.small(layout.level_count() + 1);
    Region r{in.small(400), in.small(400), in.small(30), in.small(400), in.small(400), in.small(30)};
    std::vector<uint8_t> guest(in.small(2) ? layout.total_size() : in.small(static_cast<uint32_t>(layout.total_size()) + 1));
    std::vector<uint8_t> linear(in.small(1u << 22));
    const LinearImage pitches{in.small(3) ? 0 : in.small(10000), in.small(3) ? 0 : in.small(1u << 20)};
    deswizzle(layout, layer, level, r, guest, linear, pitches);
    swizzle(layout, layer, level, r, linear, guest, pitches);
  } catch (const kiln::Error&) {
  }
  return 0;
}
