// Each engine's side effect on guest memory: copies, inline uploads, 2D fills and blits, compute launches.
#include <catch2/catch.hpp>

#include <numeric>

#include "tests/gpu/maxwell/maxwell_test_support.h"

using namespace kiln::maxwell;
using namespace kiln::maxwell::test;

namespace {
void fill_pattern(AddressSpace& memory, uint64_t address, uint32_t bytes) {
  std::vector<uint8_t> pattern(bytes);
  for (uint32_t i = 0; i < bytes; ++i) pattern[i] = static_cast<uint8_t>(i * 7 + 3);
  memory.write(address, pattern);
}
uint32_t high(uint64_t address) { return static_cast<uint32_t>(address >> 32); }
uint32_t low(uint64_t address) { return static_cast<uint32_t>(address); }
} // namespace

TEST_CASE("copy engine: 1D and pitch 2D copies, then its semaphore", "[maxwell][engines]") {
  TestGpu t;
  const uint64_t src = data, dst = data + 0x10000, sem = data + 0x20000;
  fill_pattern(t.gpu.memory(), src, 0x1000);
  StreamBuilder s;
  s.bind(4, ClassId::copy);
  const uint32_t io[] = {high(src), low(src), high(dst), low(dst), 64, 32, 16, 3}; // in, out, pitch in/out, length, count
  s.incrementing(4, "OFFSET_IN_UPPER", io);
  const uint32_t semaphore[] = {high(sem), low(sem), 0xc0de};
  s.incrementing(4, "SET_SEMAPHORE_A", semaphore);
  // PIPELINED transfer, pitch both sides (bits 7, 8), MULTI_LINE (9), ONE_WORD semaphore (4:3 = 1).
  s.method(4, "LAUNCH_DMA", 1u | (1u << 3) | (1u << 7) | (1u << 8) | (1u << 9));
  t.submit(s);
  REQUIRE(t.run().idle);
  for (uint32_t line = 0; line < 3; ++line) {
    for (uint32_t x = 0; x < 16; ++x) {
      const uint8_t expected = static_cast<uint8_t>((line * 64 + x) * 7 + 3);
      REQUIRE(t.gpu.memory().read_bytes(dst + line * 32 + x, 1)[0] == expected);
    }
    CHECK(t.gpu.memory().read_bytes(dst + line * 32 + 16, 1)[0] == 0); // past the line: untouched
  }
  CHECK(t.gpu.memory().read_u32(sem) == 0xc0de);
}

TEST_CASE("copy engine: component remap swaps and fills components", "[maxwell][engines]") {
  TestGpu t;
  const uint64_t src = data, dst = data + 0x1000;
  const uint32_t texels[] = {0x44332211, 0x88776655};
  t.gpu.memory().write(src, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(texels), 8));
  StreamBuilder s;
  s.bind(1, ClassId::copy);
  const uint32_t io[] = {high(src), low(src), high(dst), low(dst), 0, 0, 2, 1}; // two elements
  s.incrementing(1, "OFFSET_IN_UPPER", io);
  const uint32_t remap_constants[] = {0xee, 0};
  s.incrementing(1, "SET_REMAP_CONST_A", remap_constants);
  // 1-byte components, 4 in, 4 out: dst x = src w (3), y = src z (2), z = CONST_A (4), w = NO_WRITE (6)
  s.method(1, "SET_REMAP_COMPONENTS", 3u | (2u << 4) | (4u << 8) | (6u << 12) | (0u << 16) | (3u << 20) | (3u << 24));
  const uint32_t before[] = {0xaaaaaaaa, 0xbbbbbbbb};
  t.gpu.memory().write(dst, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(before), 8));
  s.method(1, "LAUNCH_DMA", 1u | (1u << 7) | (1u << 8) | (1u << 10)); // pitch, pitch, REMAP
  t.submit(s);
  REQUIRE(t.run().idle);
  CHECK(t.gpu.memory().read_u32(dst) == 0xaaee3344u);
  CHECK(t.gpu.memory().read_u32(dst + 4) == 0xbbee7788u);
}

TEST_CASE("inline-to-memory: pitch upload of lines with a stride, semaphore on completion", "[maxwell][engines]") {
  TestGpu t;
  const uint64_t dst = data + 0x3000, sem = data + 0x100;
  StreamBuilder s;
  s.bind(2, ClassId::inline_to_memory);
  const uint32_t setup[] = {6, 2, high(dst), low(dst), 16}; // 6 bytes per line, 2 lines, pitch 16
  s.incrementing(2, "LINE_LENGTH_IN", setup);
  const uint32_t semaphore[] = {high(sem), low(sem), 77};
  s.incrementing(2, "SET_I2M_SEMAPHORE_A", semaphore);
  s.method(2, "LAUNCH_DMA", 1u | (2u << 4) | (1u << 12)); // PITCH, RELEASE_SEMAPHORE, ONE_WORD
  const uint32_t payload[] = {0x04030201, 0x08070605, 0x0c0b0a09};
  s.non_incrementing(2, "LOAD_INLINE_DATA", payload);
  t.submit(s);
  REQUIRE(t.run().idle);
  const auto line0 = t.gpu.memory().read_bytes(dst, 8);
  const auto line1 = t.gpu.memory().read_bytes(dst + 16, 8);
  CHECK(line0 == std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 0, 0});
  CHECK(line1 == std::vector<uint8_t>{7, 8, 9, 10, 11, 12, 0, 0});
  CHECK(t.gpu.memory().read_u32(sem) == 77);
}

// Byte (x, y) of a GOB (64 bytes x 8 rows), from the Tegra X1 TRM's block-linear description:
// x[3:0] -> bits 3:0, y[0] -> bit 4, x[4] -> bit 5, y[2:1] -> bits 7:6, x[5] -> bit 8.
uint32_t gob_byte(uint32_t x, uint32_t y) {
  return (x & 15) | ((y & 1) << 4) | (((x >> 4) & 1) << 5) | (((y >> 1) & 3) << 6) | (((x >> 5) & 1) << 8);
}

TEST_CASE("inline-to-memory block-linear upload, read back by a block-linear to pitch copy", "[maxwell][engines]") {
  TestGpu t;
  const uint64_t surface = data + 0x8000, linear = data + 0xc000;
  // Surface: 64 bytes wide (one GOB), 16 rows, blocks of 2 GOBs in height (log2 1): rows 8..15 are the block's
  // second GOB, 512 bytes on. Upload 16 bytes x 12 rows at byte (8, 2).
  std::vector<uint32_t> words(16 * 12 / 4);
  for (uint32_t i = 0; i < words.size(); ++i) {
    words[i] = (4 * i) | ((4 * i + 1) << 8) | ((4 * i + 2) << 16) | ((4 * i + 3) << 24);
  }
  StreamBuilder s;
  s.bind(2, ClassId::inline_to_memory).bind(4, ClassId::copy);
  const uint32_t setup[] = {16, 12, high(surface), low(surface), 0, 1u << 4, 64, 16, 1, 0, 8, 2};
  s.incrementing(2, "LINE_LENGTH_IN", setup); // .. PITCH_OUT, DST_BLOCK_SIZE (height 2 GOBs), sizes, origin
  s.method(2, "LAUNCH_DMA", 0);               // BLOCKLINEAR
  s.non_incrementing(2, "LOAD_INLINE_DATA", words);
  // Copy the same 16 x 12 bytes back out to a pitch surface (pitch 16).
  const uint32_t io[] = {high(surface), low(surface), high(linear), low(linear), 0, 16, 16, 12};
  s.incrementing(4, "OFFSET_IN_UPPER", io);
  const uint32_t source[] = {1u << 4, 64, 16, 1, 0, 8u | (2u << 16)}; // block size, width, height, depth, layer, origin
  s.incrementing(4, "SET_SRC_BLOCK_SIZE", source);
  s.method(4, "LAUNCH_DMA", 1u | (0u << 7) | (1u << 8) | (1u << 9)); // block-linear in, pitch out, multi-line
  t.submit(s);
  REQUIRE(t.run().idle);
  REQUIRE(t.gpu.diagnostics().empty());
  const std::vector<uint8_t> guest = t.gpu.memory().read_bytes(surface, 1024);
  for (uint32_t row = 0; row < 12; ++row) {
    for (uint32_t column = 0; column < 16; ++column) {
      const uint32_t x = 8 + column, y = 2 + row;
      const uint32_t offset = (y / 8) * 512 + gob_byte(x, y % 8);
      REQUIRE(guest[offset] == static_cast<uint8_t>(row * 16 + column));
    }
  }
  CHECK(guest[gob_byte(0, 0)] == 0); // outside the region: untouched
  const std::vector<uint8_t> back = t.gpu.memory().read_bytes(linear, 16 * 12);
  for (uint32_t i = 0; i < back.size(); ++i) REQUIRE(back[i] == static_cast<uint8_t>(i));
}

TEST_CASE("2D engine: solid rectangle fill and a 2x downscaling blit", "[maxwell][engines]") {
  TestGpu t;
  const uint64_t surface = data, copy = data + 0x10000;
  StreamBuilder s;
  s.bind(3, ClassId::twod);
  // Destination: 8x4 A8R8G8B8 (0xcf), pitch 32.
  s.method(3, "SET_DST_FORMAT", 0xcf).method(3, "SET_DST_MEMORY_LAYOUT", 1).method(3, "SET_DST_PITCH", 32);
  s.method(3, "SET_DST_WIDTH", 8).method(3, "SET_DST_HEIGHT", 4);
  s.method(3, "SET_DST_OFFSET_UPPER", high(surface)).method(3, "SET_DST_OFFSET_LOWER", low(surface));
  s.method(3, "SET_RENDER_SOLID_PRIM_COLOR_FORMAT", 0xcf).method(3, "SET_RENDER_SOLID_PRIM_COLOR", 0xff336699);
  s.method(3, "RENDER_SOLID_PRIM_MODE", 4); // RECTS
  s.method(3, "RENDER_SOLID_PRIM_POINT_SET_X", 0, 2).method(3, "RENDER_SOLID_PRIM_POINT_Y", 0, 1);
  s.method(3, "RENDER_SOLID_PRIM_POINT_SET_X", 1, 5).method(3, "RENDER_SOLID_PRIM_POINT_Y", 1, 3);
  t.submit(s);
  REQUIRE(t.run().idle);
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 8; ++x) {
      const bool inside = x >= 2 && x < 5 && y >= 1 && y < 3;
      REQUIRE(t.gpu.memory().read_u32(surface + y * 32 + x * 4) == (inside ? 0xff336699u : 0u));
    }
  }
  // Blit the 8x4 surface to 4x2 with du/dx = dv/dy = 2, corner sampling: pixel (x, y) reads (2x, 2y).
  StreamBuilder b;
  b.bind(3, ClassId::twod);
  b.method(3, "SET_SRC_FORMAT", 0xcf).method(3, "SET_SRC_MEMORY_LAYOUT", 1).method(3, "SET_SRC_PITCH", 32);
  b.method(3, "SET_SRC_WIDTH", 8).method(3, "SET_SRC_HEIGHT", 4);
  b.method(3, "SET_SRC_OFFSET_UPPER", high(surface)).method(3, "SET_SRC_OFFSET_LOWER", low(surface));
  b.method(3, "SET_DST_OFFSET_UPPER", high(copy)).method(3, "SET_DST_OFFSET_LOWER", low(copy));
  b.method(3, "SET_DST_PITCH", 16).method(3, "SET_DST_WIDTH", 4).method(3, "SET_DST_HEIGHT", 2);
  b.method(3, "SET_PIXELS_FROM_MEMORY_SAMPLE_MODE", 1); // ORIGIN_CORNER
  b.method(3, "SET_PIXELS_FROM_MEMORY_DST_WIDTH", 4).method(3, "SET_PIXELS_FROM_MEMORY_DST_HEIGHT", 2);
  b.method(3, "SET_PIXELS_FROM_MEMORY_DU_DX_INT", 2).method(3, "SET_PIXELS_FROM_MEMORY_DV_DY_INT", 2);
  b.method(3, "PIXELS_FROM_MEMORY_SRC_Y0_INT", 0);
  t.submit(b);
  REQUIRE(t.run().idle);
  for (uint32_t y = 0; y < 2; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      const bool inside = 2 * x >= 2 && 2 * x < 5 && 2 * y >= 1 && 2 * y < 3;
      REQUIRE(t.gpu.memory().read_u32(copy + y * 16 + x * 4) == (inside ? 0xff336699u : 0u));
    }
  }
}

TEST_CASE("2D engine: a fill on a block-linear surface counts its width in pixels", "[maxwell][engines]") {
  TestGpu t;
  const uint64_t surface = data;
  StreamBuilder s;
  s.bind(3, ClassId::twod);
  // 32x8 A8R8G8B8 block-linear, blocks one GOB high: 128 bytes per row = two GOBs side by side, 512 bytes each.
  s.method(3, "SET_DST_FORMAT", 0xcf).method(3, "SET_DST_MEMORY_LAYOUT", 0).method(3, "SET_DST_BLOCK_SIZE", 0);
  s.method(3, "SET_DST_WIDTH", 32).method(3, "SET_DST_HEIGHT", 8).method(3, "SET_DST_DEPTH", 1);
  s.method(3, "SET_DST_OFFSET_UPPER", high(surface)).method(3, "SET_DST_OFFSET_LOWER", low(surface));
  s.method(3, "SET_RENDER_SOLID_PRIM_COLOR_FORMAT", 0xcf).method(3, "SET_RENDER_SOLID_PRIM_COLOR", 0xff10e020);
  s.method(3, "RENDER_SOLID_PRIM_MODE", 4); // RECTS
  // Pixels 10..29 of rows 1..2: bytes 40..119, across the boundary between the two GOBs at byte 64.
  s.method(3, "RENDER_SOLID_PRIM_POINT_SET_X", 0, 10).method(3, "RENDER_SOLID_PRIM_POINT_Y", 0, 1);
  s.method(3, "RENDER_SOLID_PRIM_POINT_SET_X", 1, 30).method(3, "RENDER_SOLID_PRIM_POINT_Y", 1, 3);
  t.submit(s);
  REQUIRE(t.run().idle);
  REQUIRE(t.gpu.diagnostics().empty());
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 32; ++x) {
      const uint32_t byte_x = 4 * x;
      const uint32_t offset = (byte_x / 64) * 512 + gob_byte(byte_x % 64, y);
      const bool inside = x >= 10 && x < 30 && y >= 1 && y < 3;
      INFO("pixel " << x << "," << y);
      REQUIRE(t.gpu.memory().read_u32(surface + offset) == (inside ? 0xff10e020u : 0u));
    }
  }
}

TEST_CASE("compute: a QMD launch becomes a dispatch snapshot and releases its semaphore", "[maxwell][engines]") {
  TestGpu t;
  const uint64_t qmd = data + 0x4000, sem = data + 0x5000, cbuf = data + 0x6000;
  std::array<uint32_t, 64> words{};
  auto set = [&](uint32_t high_bit, uint32_t low_bit, uint64_t value) { // MW(high:low) of clb1c0qmd.h V01_07
    for (uint32_t bit = low_bit; bit <= high_bit; ++bit) {
      if ((value >> (bit - low_bit)) & 1) words[bit / 32] |= 1u << (bit % 32);
    }
  };
  set(287, 256, 0x400);       // PROGRAM_OFFSET
  set(415, 384, 8);           // CTA_RASTER_WIDTH
  set(431, 416, 4);           // CTA_RASTER_HEIGHT
  set(447, 432, 1);           // CTA_RASTER_DEPTH
  set(607, 592, 64);          // CTA_THREAD_DIMENSION0
  set(623, 608, 2);
  set(639, 624, 1);
  set(561, 544, 0x800);       // SHARED_MEMORY_SIZE
  set(641, 641, 1);           // CONSTANT_BUFFER_VALID(1)
  set(959 + 64, 928 + 64, cbuf & 0xffffffff);
  set(967 + 64, 960 + 64, cbuf >> 32);
  set(991 + 64, 975 + 64, 0x100);
  set(202, 202, 1);           // SEMAPHORE_RELEASE_ENABLE0
  set(767, 736, sem & 0xffffffff);
  set(775, 768, sem >> 32);
  set(799, 799, 1);           // RELEASE0_STRUCTURE_SIZE_ONE_WORD
  set(831, 800, 0x5151);      // RELEASE0_PAYLOAD
  t.gpu.memory().write(qmd, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(words.data()), 256));
  StreamBuilder s;
  s.bind(1, ClassId::compute);
  s.method(1, "SET_PROGRAM_REGION_A", high(data)).method(1, "SET_PROGRAM_REGION_B", low(data));
  s.method(1, "SEND_PCAS_A", static_cast<uint32_t>(qmd >> 8));
  s.method(1, "SEND_SIGNALING_PCAS_B", 2); // SCHEDULE
  t.submit(s);
  REQUIRE(t.run().idle);
  REQUIRE(t.backend.events.size() == 1);
  const auto& dispatch = std::get<DispatchSnapshot>(t.backend.events[0]);
  CHECK(dispatch.program_address == data + 0x400);
  CHECK(dispatch.grid == std::array<uint32_t, 3>{8, 4, 1});
  CHECK(dispatch.block == std::array<uint32_t, 3>{64, 2, 1});
  CHECK(dispatch.shared_memory_size == 0x800);
  CHECK_FALSE(dispatch.constant_buffers[0].valid);
  CHECK(dispatch.constant_buffers[1].valid);
  CHECK(dispatch.constant_buffers[1].address == cbuf);
  CHECK(dispatch.constant_buffers[1].size == 0x100);
  CHECK(t.gpu.memory().read_u32(sem) == 0x5151);
}

TEST_CASE("compute: a C7C0 QMD 03_00 launch becomes a dispatch snapshot and releases after the backend returned", "[maxwell][engines]") {
  TestGpu t;
  const uint64_t qmd = data + 0x4000, one_word = data + 0x5000, two_words = data + 0x5010, four_words = data + 0x5020;
  const uint64_t program = data + 0x12300, cbuf0 = data + 0x6000, cbuf3 = data + 0x7000;
  std::array<uint32_t, 64> words{};
  auto set = [&](uint32_t high_bit, uint32_t low_bit, uint64_t value) { // MW(high:low) of clc7c0qmd.h V03_00
    for (uint32_t bit = low_bit; bit <= high_bit; ++bit) {
      if ((value >> (bit - low_bit)) & 1) words[bit / 32] |= 1u << (bit % 32);
    }
  };
  set(1567, 1536, program & 0xffffffff); // PROGRAM_ADDRESS_LOWER
  set(1584, 1568, program >> 32);        // PROGRAM_ADDRESS_UPPER
  set(415, 384, 3);                      // CTA_RASTER_WIDTH
  set(431, 416, 2);                      // CTA_RASTER_HEIGHT
  set(463, 448, 5);                      // CTA_RASTER_DEPTH
  set(607, 592, 128);                    // CTA_THREAD_DIMENSION0..2
  set(623, 608, 2);
  set(639, 624, 1);
  set(561, 544, 0x1800);                 // SHARED_MEMORY_SIZE
  set(759, 736, 0x40);                   // SHADER_LOCAL_MEMORY_LOW_SIZE
  set(656, 648, 24);                     // REGISTER_COUNT_V
  set(767, 763, 1);                      // BARRIER_COUNT
  set(640, 640, 1);                      // CONSTANT_BUFFER_VALID(0)
  set(1055, 1024, cbuf0 & 0xffffffff);   // CONSTANT_BUFFER_ADDR_LOWER(0)
  set(1072, 1056, cbuf0 >> 32);
  set(1087, 1075, 0x170 >> 4);           // CONSTANT_BUFFER_SIZE_SHIFTED4(0)
  set(643, 643, 1);                      // CONSTANT_BUFFER_VALID(3)
  set(1055 + 3 * 64, 1024 + 3 * 64, cbuf3 & 0xffffffff);
  set(1072 + 3 * 64, 1056 + 3 * 64, cbuf3 >> 32);
  set(1087 + 3 * 64, 1075 + 3 * 64, 0x20 >> 4);
  // RELEASE0: one word, reduction ADD of 7 onto 10. RELEASE1: two words, 64-bit payload. RELEASE2: four words.
  set(799, 768, one_word & 0xffffffff), set(807, 800, one_word >> 32), set(823, 823, 1), set(826, 826, 1);
  set(831, 830, 1), set(863, 832, 7);
  set(927, 896, two_words & 0xffffffff), set(935, 928, two_words >> 32), set(951, 951, 1), set(957, 957, 1);
  set(959, 958, 2), set(991, 960, 0x89abcdef), set(1023, 992, 0x01234567);
  set(1695, 1664, four_words & 0xffffffff), set(1703, 1696, four_words >> 32), set(1719, 1719, 1);
  set(1727, 1726, 0), set(1759, 1728, 0x4444);
  t.gpu.memory().write(qmd, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(words.data()), 256));
  t.gpu.memory().write_u32(one_word, 10);

  // The releases are written after the backend's dispatch() returned, not before it was called.
  struct Watching final : Backend {
    AddressSpace* memory = nullptr;
    uint64_t watched = 0;
    std::vector<DispatchSnapshot> dispatches;
    uint32_t seen = 0;
    void draw(std::shared_ptr<const DrawSnapshot>) override {}
    void clear(const ClearSnapshot&) override {}
    void dispatch(const DispatchSnapshot& dispatch) override {
      seen = memory->read_u32(watched);
      dispatches.push_back(dispatch);
    }
  } watching;
  watching.memory = &t.gpu.memory();
  watching.watched = one_word;
  t.gpu.set_backend(&watching);
  StreamBuilder s;
  s.bind(1, ClassId::compute_ampere);
  s.method(1, "SEND_PCAS_A", static_cast<uint32_t>(qmd >> 8));
  s.method(1, "SEND_SIGNALING_PCAS2_B", 3); // PCAS_ACTION INVALIDATE_COPY_SCHEDULE
  s.method(1, "SEND_SIGNALING_PCAS2_B", 1); // INVALIDATE alone: no launch
  t.submit(s);
  REQUIRE(t.run().idle);
  REQUIRE(watching.dispatches.size() == 1);
  const DispatchSnapshot& dispatch = watching.dispatches[0];
  CHECK(dispatch.class_id == 0xc7c0);
  CHECK(dispatch.qmd_address == qmd);
  CHECK(dispatch.program_address == program);
  CHECK(dispatch.grid == std::array<uint32_t, 3>{3, 2, 5});
  CHECK(dispatch.block == std::array<uint32_t, 3>{128, 2, 1});
  CHECK(dispatch.shared_memory_size == 0x1800);
  CHECK(dispatch.local_memory_size == 0x40);
  CHECK(dispatch.register_count == 24);
  CHECK(dispatch.barrier_count == 1);
  CHECK(dispatch.constant_buffers[0].valid);
  CHECK(dispatch.constant_buffers[0].address == cbuf0);
  CHECK(dispatch.constant_buffers[0].size == 0x170);
  CHECK_FALSE(dispatch.constant_buffers[1].valid);
  CHECK(dispatch.constant_buffers[3].valid);
  CHECK(dispatch.constant_buffers[3].address == cbuf3);
  CHECK(dispatch.constant_buffers[3].size == 0x20);
  CHECK(watching.seen == 10);
  CHECK(t.gpu.memory().read_u32(one_word) == 17);
  CHECK(t.gpu.memory().read_u64(two_words) == 0x0123456789abcdefull);
  CHECK(t.gpu.memory().read_u32(four_words) == 0x4444);
  CHECK(t.gpu.memory().read_u32(four_words + 4) == 0);
}
