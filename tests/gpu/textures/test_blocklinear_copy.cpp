// Swizzle and deswizzle against the per-element address formula, and swizzle o deswizzle = identity, on
// random data for every element size, 2D/3D/array/mipmapped surfaces and sub-rectangles.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "runtime/gpu/textures/blocklinear/swizzle.h"

using namespace kiln::textures;

namespace {

std::vector<uint8_t> random_bytes(size_t count, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<uint8_t> bytes(count);
  for (auto& byte : bytes) byte = static_cast<uint8_t>(random());
  return bytes;
}

/// Checks every element of `region` in `linear` against the guest bytes at the formula's address.
size_t mismatches_against_formula(const SurfaceLayout& layout, uint32_t layer, uint32_t level, const Region& r,
                                  const std::vector<uint8_t>& guest, const std::vector<uint8_t>& linear) {
  const uint32_t bytes = layout.description().element.bytes;
  const uint64_t base = layout.offset_of(layer, level);
  size_t wrong = 0;
  for (uint32_t z = 0; z < r.depth; ++z)
    for (uint32_t y = 0; y < r.height; ++y)
      for (uint32_t x = 0; x < r.width; ++x) {
        const uint64_t at = base + element_offset(layout, level, r.x + x, r.y + y, r.z + z);
        const uint64_t linear_at = ((uint64_t{z} * r.height + y) * r.width + x) * bytes;
        wrong += std::memcmp(&guest[at], &linear[linear_at], bytes) != 0;
      }
  return wrong;
}

struct Case {
  const char* name;
  SurfaceDescription description;
};

std::vector<Case> cases() {
  std::vector<Case> all;
  for (uint32_t bytes : {1u, 2u, 4u, 8u, 16u}) {
    all.push_back({"2D odd size", {.width = 77, .height = 45, .element = {.bytes = bytes}}});
    all.push_back({"2D 1-GOB blocks", {.width = 256, .height = 64, .element = {.bytes = bytes}, .block_height_log2 = 0}});
    all.push_back({"2D mips, 3 layers",
                   {.width = 100, .height = 60, .array_layers = 3, .mip_levels = 7, .element = {.bytes = bytes}}});
    all.push_back({"3D mips", {.width = 33, .height = 20, .depth = 9, .mip_levels = 4, .element = {.bytes = bytes}}});
    all.push_back({"deko3d rule", {.width = 48, .height = 40, .element = {.bytes = bytes},
                                   .rule = BlockHeightRule::deko3d_round_up}});
    all.push_back({"pitch linear", {.width = 19, .height = 7, .element = {.bytes = bytes}, .tiling = Tiling::pitch_linear,
                                    .pitch_bytes = 19 * bytes + 32}});
  }
  all.push_back({"BC3 160x160 (blocks)", {.width = 160, .height = 160, .mip_levels = 8, .element = {16, 4, 4}}});
  all.push_back({"ASTC 8x8 array", {.width = 200, .height = 120, .array_layers = 2, .element = {16, 8, 8}}});
  return all;
}

} // namespace

TEST_CASE("whole-level deswizzle matches the address formula, swizzle inverts it", "[blocklinear]") {
  uint32_t seed = 1;
  for (const Case& c : cases()) {
    INFO(c.name << ", " << c.description.element.bytes << " bytes per element");
    const SurfaceLayout layout = SurfaceLayout::compute(c.description);
    const std::vector<uint8_t> guest = random_bytes(layout.total_size(), seed++);
    std::vector<uint8_t> linear(linear_surface_size(layout));
    deswizzle_surface(layout, guest, linear);
    for (uint32_t layer = 0; layer < layout.layer_count(); ++layer)
      for (uint32_t level = 0; level < layout.level_count(); ++level) {
        const Region r = whole_level(layout, level);
        std::vector<uint8_t> part(linear.begin() + linear_level_offset(layout, layer, level), linear.end());
        CHECK(mismatches_against_formula(layout, layer, level, r, guest, part) == 0);
      }
    // Swizzling back gives the guest bytes that belong to texels; padding is not part of the image, so the
    // round trip is checked from the linear side: linear -> guest -> linear.
    const std::vector<uint8_t> source = random_bytes(linear.size(), seed++);
    std::vector<uint8_t> swizzled(layout.total_size());
    swizzle_surface(layout, source, swizzled);
    std::vector<uint8_t> back(source.size());
    deswizzle_surface(layout, swizzled, back);
    CHECK(back == source);
  }
}

TEST_CASE("sub-rectangles: deswizzle reads and swizzle writes exactly the region", "[blocklinear]") {
  std::mt19937 random(7);
  for (const Case& c : cases()) {
    INFO(c.name << ", " << c.description.element.bytes << " bytes per element");
    const SurfaceLayout layout = SurfaceLayout::compute(c.description);
    const std::vector<uint8_t> guest = random_bytes(layout.total_size(), 99);
    for (int trial = 0; trial < 12; ++trial) {
      const uint32_t layer = random() % layout.layer_count();
      const uint32_t level = random() % layout.level_count();
      const LevelLayout& l = layout.level(level);
      Region r;
      r.x = random() % l.width;
      r.y = random() % l.height;
      r.z = random() % l.depth;
      r.width = 1 + random() % (l.width - r.x);
      r.height = 1 + random() % (l.height - r.y);
      r.depth = 1 + random() % (l.depth - r.z);
      INFO("layer " << layer << " level " << level << " region " << r.x << "," << r.y << "," << r.z << " "
                    << r.width << "x" << r.height << "x" << r.depth);
      const size_t bytes = size_t{r.width} * r.height * r.depth * c.description.element.bytes;
      std::vector<uint8_t> linear(bytes);
      deswizzle(layout, layer, level, r, guest, linear);
      CHECK(mismatches_against_formula(layout, layer, level, r, guest, linear) == 0);

      // Writing new texels into a copy changes exactly the region's bytes, each at the formula's address.
      const std::vector<uint8_t> texels = random_bytes(bytes, trial + 1000);
      std::vector<uint8_t> written = guest;
      swizzle(layout, layer, level, r, texels, written);
      std::vector<uint8_t> expected = guest;
      const uint32_t element = c.description.element.bytes;
      for (uint32_t z = 0; z < r.depth; ++z)
        for (uint32_t y = 0; y < r.height; ++y)
          for (uint32_t x = 0; x < r.width; ++x) {
            const uint64_t at = layout.offset_of(layer, level) + element_offset(layout, level, r.x + x, r.y + y, r.z + z);
            std::memcpy(&expected[at], &texels[((uint64_t{z} * r.height + y) * r.width + x) * element], element);
          }
      CHECK(written == expected);
    }
  }
}

TEST_CASE("linear pitches: a region lands inside a larger linear image", "[blocklinear]") {
  const SurfaceLayout layout = SurfaceLayout::compute({.width = 64, .height = 64, .element = {.bytes = 4}});
  const std::vector<uint8_t> guest = random_bytes(layout.total_size(), 5);
  std::vector<uint8_t> full(64 * 64 * 4);
  deswizzle(layout, 0, 0, whole_level(layout, 0), guest, full);
  std::vector<uint8_t> framed(64 * 64 * 4, 0);
  const Region r{.x = 5, .y = 9, .width = 40, .height = 30};
  deswizzle(layout, 0, 0, r, guest, std::span(framed).subspan((9 * 64 + 5) * 4), {.row_pitch = 64 * 4});
  size_t wrong = 0;
  for (uint32_t y = 0; y < 64; ++y)
    for (uint32_t x = 0; x < 64 * 4; ++x) {
      const bool inside = y >= 9 && y < 39 && x >= 20 && x < 180;
      wrong += framed[y * 256 + x] != (inside ? full[y * 256 + x] : 0);
    }
  CHECK(wrong == 0);
}
