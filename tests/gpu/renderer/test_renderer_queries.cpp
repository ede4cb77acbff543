// ZPASS_PIXEL_COUNT reports: the renderer counts samples with Vulkan occlusion queries and the command processor
// writes the sum at the report address in command order.
#include <catch2/catch.hpp>

#include <bit>

#include "runtime/gpu/vulkan/context.h"
#include "tests/gpu/renderer/renderer_scene.h"

using namespace kiln;
using namespace kiln::test;

TEST_CASE_METHOD(PassThroughScene, "a ZPASS_PIXEL_COUNT report holds the samples that passed the depth test since the reset", "[gpu][renderer][golden]") {
  const std::array<float, 4> red{1, 0, 0, 1}, green{0, 1, 0, 1}, blue{0, 0, 1, 1};
  const std::vector<float> left = concat({vertex(-1, -1, 0.25f, blue), vertex(0, -1, 0.25f, blue), vertex(-1, 1, 0.25f, blue),
                                          vertex(0, -1, 0.25f, blue), vertex(0, 1, 0.25f, blue), vertex(-1, 1, 0.25f, blue)});
  auto half = [](float x0, float z, std::array<float, 4> color) { // x0..x0 + 1 in NDC, full height
    return concat({vertex(x0, -1, z, color), vertex(x0 + 1, -1, z, color), vertex(x0, 1, z, color),
                   vertex(x0 + 1, -1, z, color), vertex(x0 + 1, 1, z, color), vertex(x0, 1, z, color)});
  };
  scene.write_floats(kVertices, concat({fullscreen(0.5f, red), fullscreen(0.75f, green), left, half(0, 0.375f, green), half(-1, 0.125f, red)}));
  const uint64_t reports = kArena + 0x600000;
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 16, 8);
  s.method(0, "SET_ZT_A", high(kDepthTarget)).method(0, "SET_ZT_B", low(kDepthTarget));
  s.method(0, "SET_ZT_FORMAT", 0x0a).method(0, "SET_ZT_BLOCK_SIZE", 0); // ZF32
  s.method(0, "SET_ZT_SIZE_A", 16).method(0, "SET_ZT_SIZE_B", 8).method(0, "SET_ZT_SIZE_C", 1).method(0, "SET_ZT_SELECT", 1);
  s.method(0, "SET_Z_CLEAR_VALUE", std::bit_cast<uint32_t>(1.0f)).method(0, "CLEAR_SURFACE", 1);
  s.method(0, "SET_DEPTH_TEST", 1).method(0, "SET_DEPTH_WRITE", 1).method(0, "SET_DEPTH_FUNC", 0x201); // OGL LESS
  s.method(0, "SET_ZPASS_PIXEL_COUNT", 1);
  s.method(0, "CLEAR_REPORT_VALUE", 1); // ZPASS_PIXEL_CNT
  auto report = [&](uint64_t address) {
    s.method(0, "SET_REPORT_SEMAPHORE_A", high(address)).method(0, "SET_REPORT_SEMAPHORE_B", low(address));
    s.method(0, "SET_REPORT_SEMAPHORE_C", 0);
    s.method(0, "SET_REPORT_SEMAPHORE_D", 2u | (2u << 23)); // REPORT_ONLY, ZPASS_PIXEL_COUNT, four words
  };
  // Red at 0.5 over depth 1: all 16 x 8 = 128 samples pass. Report 1: 128.
  draw_arrays(s, 0, 3);
  report(reports);
  // Green at 0.75 fails LESS against 0.5 everywhere (0 samples); blue at 0.25 on the left half passes: 8 x 8 = 64.
  // Report 2 (no reset between): 128 + 0 + 64 = 192. Then a reset and no draw: report 3 = 0.
  draw_arrays(s, 3, 3);
  draw_arrays(s, 6, 6);
  report(reports + 16);
  s.method(0, "CLEAR_REPORT_VALUE", 1);
  report(reports + 32);
  // With counting disabled, green at 0.375 on the right half (depth 0.5 there: 64 samples pass) is drawn but not
  // counted; enabled again, red at 0.125 on the left half (depth 0.25 there: 64 pass) is. Report 4: 64.
  s.method(0, "SET_ZPASS_PIXEL_COUNT", 0);
  draw_arrays(s, 12, 6);
  s.method(0, "SET_ZPASS_PIXEL_COUNT", 1);
  draw_arrays(s, 18, 6);
  report(reports + 48);
  scene.run(s);
  CHECK(scene.gpu.memory().read_u64(reports) == 128);
  CHECK(scene.gpu.memory().read_u64(reports + 16) == 192);
  CHECK(scene.gpu.memory().read_u64(reports + 32) == 0);
  CHECK(scene.gpu.memory().read_u64(reports + 48) == 64);
  // Rendering went on around the reports, the uncounted draw included: left half red, right half green.
  CHECK(count_wrong_texels(scene.read_target(kColorTarget, 16, 8, 4), 16, 8, [](uint32_t x, uint32_t) {
          return x < 8 ? std::array<uint8_t, 4>{255, 0, 0, 255} : std::array<uint8_t, 4>{0, 255, 0, 255};
        }) == 0);
  check_no_validation_messages(context);
}
