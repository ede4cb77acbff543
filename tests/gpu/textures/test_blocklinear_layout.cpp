// Known answers for the block-linear calculator, each derived by hand in the comments from the GOB formula
// (gob.h: x[3:0]->bits 3:0, y[0]->4, x[4]->5, y[2:1]->7:6, x[5]->8; blocks of 2^n GOBs stacked in Y then Z,
// blocks laid out row by row) and from seed 002 section 2.1 (block-height rules, 160x160 BC3).
#include <catch2/catch.hpp>

#include "runtime/base/error.h"
#include "runtime/gpu/textures/blocklinear/gob.h"
#include "runtime/gpu/textures/blocklinear/surface.h"
#include "runtime/gpu/textures/blocklinear/swizzle.h"

using namespace kiln;
using namespace kiln::textures;

TEST_CASE("GOB byte offsets follow the bit interleave", "[blocklinear]") {
  CHECK(gob_offset(0, 0) == 0);
  CHECK(gob_offset(15, 0) == 15);
  CHECK(gob_offset(16, 0) == 32);   // x4 -> bit 5
  CHECK(gob_offset(32, 0) == 256);  // x5 -> bit 8
  CHECK(gob_offset(0, 1) == 16);    // y0 -> bit 4
  CHECK(gob_offset(0, 2) == 64);    // y1 -> bit 6
  CHECK(gob_offset(0, 4) == 128);   // y2 -> bit 7
  CHECK(gob_offset(5, 3) == 85);    // 16 + 64 + 5
  CHECK(gob_offset(63, 7) == 511);  // 256 + 192 + 32 + 16 + 15
  CHECK(gob_chunk_offset(3, 6) == 256 + 32 + 3 * 64);
}

TEST_CASE("element offsets in a 2D surface with explicit block heights", "[blocklinear]") {
  // 128x16 RGBA8: rows of 512 bytes = 8 GOBs. Element (17, 9): byte x 68 -> GOB column 1, x 4 in the GOB;
  // row 9 -> GOB row 1, y 1 in the GOB; gob_offset(4, 1) = 16 + 4 = 20.
  SurfaceDescription d{.width = 128, .height = 16, .element = {.bytes = 4}};
  d.block_height_log2 = 0; // blocks of one GOB: block (row 1, column 1) = 1 * 8 + 1 = 9 -> 9 * 512 + 20
  CHECK(element_offset(SurfaceLayout::compute(d), 0, 17, 9, 0) == 4628);
  d.block_height_log2 = 1; // blocks of 2 GOBs (1024 bytes): block column 1, GOB 1 inside it -> 1024 + 512 + 20
  const SurfaceLayout two = SurfaceLayout::compute(d);
  CHECK(element_offset(two, 0, 17, 9, 0) == 1556);
  CHECK(two.level(0).size == 8 * 1024);
  d.block_height_log2 = 4; // 16 GOBs for 16 rows: the level shrinks it, 8 << 3, 8 << 2, 8 << 1 >= 16, 8 < 16
  CHECK(SurfaceLayout::compute(d).level(0).block_height_log2 == 1);
}

TEST_CASE("element offsets in a 3D surface use the block depth", "[blocklinear]") {
  // 16x16x4 RGBA8: automatic depth 4 + 2 = 6 GOBs -> 4 (log2 2); height 1 GOB. A row is 64 bytes = 1 GOB;
  // 2 GOB rows -> 2 blocks of 4 GOBs (2048 bytes). Element (3, 10, 2): GOB row 1 -> block row 1 (2048),
  // slice 2 is GOB 2 of the block (1024), gob_offset(12, 2) = 64 + 12 -> 3148.
  const SurfaceLayout layout = SurfaceLayout::compute({.width = 16, .height = 16, .depth = 4, .element = {.bytes = 4}});
  CHECK(layout.block_depth_log2() == 2);
  CHECK(layout.block_height_log2() == 0);
  CHECK(element_offset(layout, 0, 3, 10, 2) == 3148);
  CHECK(layout.level(0).size == 4096);
}

TEST_CASE("160x160 BC3: NVN truncates to 4 GOBs, deko3d rounds up to 8, same allocation", "[blocklinear]") {
  // 40 block rows x 1.5 = 60 rows = 7.5 GOBs: NVN keeps 7 -> 4 GOBs, deko3d 8 -> 8 GOBs.
  SurfaceDescription d{.width = 160, .height = 160, .element = {.bytes = 16, .width = 4, .height = 4}};
  const SurfaceLayout nvn = SurfaceLayout::compute(d);
  d.rule = BlockHeightRule::deko3d_round_up;
  const SurfaceLayout deko = SurfaceLayout::compute(d);
  CHECK(nvn.block_height_log2() == 2);
  CHECK(deko.block_height_log2() == 3);
  // 40 blocks x 16 bytes = 640 bytes = 10 GOB columns; 5 GOB rows: NVN 2 blocks of 4 GOBs, deko3d 1 of 8.
  CHECK(nvn.total_size() == 10 * 2 * 2048);
  CHECK(deko.total_size() == 10 * 1 * 4096);
  // Block row 32 (GOB row 4) starts the second block row under NVN (10 blocks of 2048 bytes later), but is
  // GOB 4 of the first block under deko3d: reading with the wrong rule fetches other bytes (the black half).
  CHECK(element_offset(nvn, 0, 0, 32, 0) == 20480);
  CHECK(element_offset(deko, 0, 0, 32, 0) == 2048);
}

TEST_CASE("automatic block heights for a range of heights", "[blocklinear]") {
  // rows -> rows + rows/2 -> GOBs (truncated | rounded up) -> power of two <= GOBs, capped at 16
  CHECK(auto_block_height_log2(1, BlockHeightRule::nvn_truncate) == 0);   // 1 -> 0 GOBs -> 1
  CHECK(auto_block_height_log2(6, BlockHeightRule::nvn_truncate) == 0);   // 9 -> 1
  CHECK(auto_block_height_log2(6, BlockHeightRule::deko3d_round_up) == 1); // 9 -> 2
  CHECK(auto_block_height_log2(16, BlockHeightRule::nvn_truncate) == 1);  // 24 -> 3 -> 2
  CHECK(auto_block_height_log2(720, BlockHeightRule::nvn_truncate) == 4); // 1080 -> 135 -> capped 16
  CHECK(auto_block_height_log2(40, BlockHeightRule::nvn_truncate) == 2);
  CHECK(auto_block_height_log2(40, BlockHeightRule::deko3d_round_up) == 3);
  CHECK(auto_block_depth_log2(1) == 0);
  CHECK(auto_block_depth_log2(3) == 2);     // 3 + 1 = 4 slices -> 4 GOBs
  CHECK(auto_block_depth_log2(32) == 4);    // 48 -> 32 -> capped at 16
}

TEST_CASE("mip chain: per-level block shrink, offsets and layer alignment", "[blocklinear]") {
  // 256x256 RGBA8, 9 levels, NVN: 256 + 128 = 384 rows = 48 GOBs -> capped at 16 (log2 4).
  // Shrink while 8 << (n - 1) >= level height: L0 256 -> 4, L1 128 -> 4, L2 64 -> 3, L3 32 -> 2,
  // L4 16 -> 1, L5..8 -> 0.
  const SurfaceLayout layout =
      SurfaceLayout::compute({.width = 256, .height = 256, .array_layers = 2, .mip_levels = 9, .element = {.bytes = 4}});
  const uint32_t shifts[9] = {4, 4, 3, 2, 1, 0, 0, 0, 0};
  // Sizes: L0 16 GOB columns x 2 blocks x 8192; L1 8 x 1 x 8192; L2 4 x 4096; L3 2 x 2048; L4 1024; L5..8 512.
  const uint64_t sizes[9] = {262144, 65536, 16384, 4096, 1024, 512, 512, 512, 512};
  uint64_t offset = 0;
  for (uint32_t level = 0; level < 9; ++level) {
    INFO("level " << level);
    CHECK(layout.level(level).block_height_log2 == shifts[level]);
    CHECK(layout.level(level).size == sizes[level]);
    CHECK(layout.level(level).offset == offset);
    offset += sizes[level];
  }
  CHECK(offset == 351232);
  // Layers are padded to the level-0 block of 16 GOBs (8192 bytes): 351232 -> 43 x 8192.
  CHECK(layout.layer_stride() == 352256);
  CHECK(layout.total_size() == 2 * 352256);
  CHECK(layout.offset_of(1, 2) == 352256 + 327680);
}

TEST_CASE("which layers and levels a guest write touches", "[blocklinear]") {
  const SurfaceLayout layout =
      SurfaceLayout::compute({.width = 256, .height = 256, .array_layers = 2, .mip_levels = 9, .element = {.bytes = 4}});
  auto touched = layout.touched(262144 - 4, 8); // straddles level 0 and 1 of layer 0
  REQUIRE(touched.size() == 2);
  CHECK((touched[0].layer == 0 && touched[0].level == 0));
  CHECK((touched[1].layer == 0 && touched[1].level == 1));
  CHECK(layout.touched(351232, 1024).empty()); // only layer 0's padding (layer 1 starts at 352256)
  touched = layout.touched(351232, 2048);      // the padding, then layer 1 level 0
  REQUIRE(touched.size() == 1);
  CHECK((touched[0].layer == 1 && touched[0].level == 0));
  CHECK(layout.touched(layout.total_size(), 16).empty());
}

TEST_CASE("cube maps are six layers", "[blocklinear]") {
  const SurfaceLayout cube =
      SurfaceLayout::compute({.width = 64, .height = 64, .array_layers = 6, .element = {.bytes = 8}});
  // 64 rows -> 96 -> 12 GOBs -> 8 (log2 3), kept: 8 << 2 = 32 < 64. 512 bytes a row = 8 GOB columns, 1 block.
  CHECK(cube.layer_stride() == 8 * 4096);
  CHECK(cube.offset_of(5, 0) == 5 * 8 * 4096);
}

TEST_CASE("pitch-linear surfaces address rows by pitch", "[blocklinear]") {
  const SurfaceLayout linear = SurfaceLayout::compute(
      {.width = 10, .height = 4, .element = {.bytes = 4}, .tiling = Tiling::pitch_linear, .pitch_bytes = 64});
  CHECK(linear.total_size() == 256);
  CHECK(element_offset(linear, 0, 3, 2, 0) == 2 * 64 + 12);
}

namespace {
std::string rejection(const SurfaceDescription& d) {
  try {
    SurfaceLayout::compute(d, "tex.bin");
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}
} // namespace

TEST_CASE("malformed descriptions are rejected with a clear message", "[blocklinear]") {
  using Catch::Matchers::Contains;
  CHECK_THAT(rejection({.width = 0, .height = 4}), Contains("tex.bin") && Contains("width is 0"));
  CHECK_THAT(rejection({.width = 4, .height = 0}), Contains("height is 0"));
  CHECK_THAT(rejection({.width = 70000, .height = 4}), Contains("width 70000 is larger"));
  CHECK_THAT(rejection({.width = 4, .height = 4, .mip_levels = 4}), Contains("at most 3"));
  CHECK_THAT(rejection({.width = 4, .height = 4, .element = {.bytes = 3}}), Contains("3 bytes per element"));
  CHECK_THAT(rejection({.width = 4, .height = 4, .element = {.bytes = 4, .width = 0}}), Contains("element of 0x1"));
  CHECK_THAT(rejection({.width = 4, .height = 4, .block_height_log2 = 6}), Contains("block height 2^6"));
  CHECK_THAT(rejection({.width = 4, .height = 4, .block_depth_log2 = 9}), Contains("block depth 2^9"));
  CHECK_THAT(rejection({.width = 4, .height = 4, .depth = 2, .array_layers = 2}), Contains("3D"));
  CHECK_THAT(rejection({.width = 65536, .height = 65536, .array_layers = 65536, .element = {.bytes = 16}}),
             Contains("more than"));
  CHECK_THAT(rejection({.width = 16, .height = 4, .tiling = Tiling::pitch_linear, .pitch_bytes = 32}),
             Contains("pitch 32 is smaller"));
}

TEST_CASE("copies outside the level or buffers too small are rejected", "[blocklinear]") {
  using Catch::Matchers::Contains;
  const SurfaceLayout layout = SurfaceLayout::compute({.width = 32, .height = 32, .element = {.bytes = 4}}, "t");
  std::vector<uint8_t> guest(layout.total_size()), linear(32 * 32 * 4);
  CHECK_THROWS_WITH(deswizzle(layout, 0, 0, {.x = 30, .width = 4, .height = 1}, guest, linear), Contains("leaves the level"));
  CHECK_THROWS_WITH(deswizzle(layout, 0, 0, {.width = 0, .height = 1}, guest, linear), Contains("empty region"));
  CHECK_THROWS_WITH(deswizzle(layout, 0, 0, whole_level(layout, 0), std::span(guest).first(100), linear),
                    Contains("too small"));
  CHECK_THROWS_WITH(deswizzle(layout, 0, 0, whole_level(layout, 0), guest, std::span(linear).first(100)),
                    Contains("smaller than"));
  CHECK_THROWS_WITH(deswizzle(layout, 1, 0, whole_level(layout, 0), guest, linear), Contains("layer 1 level 0"));
}
