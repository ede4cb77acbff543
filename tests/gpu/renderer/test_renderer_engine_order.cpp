// Other engines read what the 3D engine rendered earlier in the same submission: the renderer writes a render
// target back into guest memory before a copy-engine or 2D-engine access of its bytes, and before a texture
// upload of them, without waiting for a fence.
#include <catch2/catch.hpp>

#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/vulkan/context.h"
#include "tests/gpu/renderer/renderer_scene.h"

using namespace kiln;
using namespace kiln::test;

namespace {

constexpr std::array<uint8_t, 4> kRed{255, 0, 0, 255}, kGreen{0, 255, 0, 255};

/// Left half red, right half green (two triangles each), window x = width / 2 * (ndc + 1).
std::vector<float> red_left_green_right() {
  const std::array<float, 4> red{1, 0, 0, 1}, green{0, 1, 0, 1};
  return concat({vertex(-1, -1, 0.5f, red), vertex(0, -1, 0.5f, red), vertex(-1, 1, 0.5f, red), vertex(0, -1, 0.5f, red),
                 vertex(0, 1, 0.5f, red), vertex(-1, 1, 0.5f, red), vertex(0, -1, 0.5f, green), vertex(1, -1, 0.5f, green),
                 vertex(0, 1, 0.5f, green), vertex(1, -1, 0.5f, green), vertex(1, 1, 0.5f, green), vertex(0, 1, 0.5f, green)});
}

} // namespace

TEST_CASE_METHOD(PassThroughScene, "a copy-engine copy of a render target in the same submission reads the rendered pixels", "[gpu][renderer]") {
  scene.write_floats(kVertices, red_left_green_right());
  constexpr uint32_t width = 32, height = 16;
  const uint64_t pitch_buffer = kArena + 0x600000;
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, width, height);
  draw_arrays(s, 0, 12);
  // Copy engine on subchannel 1: the block-linear target (1-GOB blocks, width in bytes) into a pitch buffer of
  // 128 bytes per row, in the same pushbuffer as the draw. Before any flush, so only a write-back in command
  // order puts the red/green halves there; the target's memory was zero before the draw.
  s.bind(1, maxwell::ClassId::copy);
  const uint32_t io[] = {high(kColorTarget), low(kColorTarget), high(pitch_buffer), low(pitch_buffer), 0, width * 4, width * 4, height};
  s.incrementing(1, "OFFSET_IN_UPPER", io);
  const uint32_t source[] = {0, width * 4, height, 1, 0, 0}; // block size (1 GOB), width, height, depth, layer, origin
  s.incrementing(1, "SET_SRC_BLOCK_SIZE", source);
  s.method(1, "LAUNCH_DMA", 2u | (1u << 8) | (1u << 9)); // NON_PIPELINED, source block-linear, destination pitch, MULTI_LINE
  const maxwell::GpfifoEntry entry = s.place(scene.gpu.memory(), kPushbuffers);
  scene.gpu.submit(0, entry);
  REQUIRE(scene.gpu.run(maxwell::RunOptions{std::chrono::milliseconds(20)}).idle);
  CHECK(scene.renderer->statistics().flushes == 0);
  CHECK(scene.renderer->statistics().target_write_backs == 1);
  const std::vector<uint8_t> copied = scene.gpu.memory().read_bytes(pitch_buffer, width * 4 * height);
  CHECK(count_wrong_texels(copied, width, height, [](uint32_t x, uint32_t) { return x < width / 2 ? kRed : kGreen; }) == 0);
  CHECK(scene.renderer->diagnostics().empty());
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "a 2D-engine fill over a render target the GPU wrote keeps the rendered pixels around it", "[gpu][renderer]") {
  // The 2D fill is a read-modify-write of the block-linear surface: without a write-back first it would either
  // read zeros around the rectangle or be overwritten by the renderer's later write-back. Draw red/green,
  // fill x in [4, 8) x y in [2, 6) with blue through the 2D engine, then draw nothing more and flush.
  scene.write_floats(kVertices, red_left_green_right());
  constexpr uint32_t width = 16, height = 8;
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, width, height);
  draw_arrays(s, 0, 12);
  s.bind(2, maxwell::ClassId::twod);
  // SET_DST_FORMAT A8B8G8R8 (0xd5), MEMORY_LAYOUT block-linear (0), block size 1 GOB, depth 1, layer 0, pitch 0,
  // width, height, address.
  const uint32_t destination[] = {kRgba8, 0, 0, 1, 0, 0, width, height, high(kColorTarget), low(kColorTarget)};
  s.incrementing(2, "SET_DST_FORMAT", destination);
  s.method(2, "SET_RENDER_SOLID_PRIM_COLOR_FORMAT", kRgba8).method(2, "SET_RENDER_SOLID_PRIM_COLOR", 0xffff0000u); // bytes 00 00 ff ff
  s.method(2, "RENDER_SOLID_PRIM_MODE", 4); // RECTS
  s.method(2, "RENDER_SOLID_PRIM_POINT_X_Y", 4u | (2u << 16)).method(2, "RENDER_SOLID_PRIM_POINT_X_Y", 8u | (6u << 16));
  scene.run(s);
  const auto pixels = scene.read_target(kColorTarget, width, height, 4);
  CHECK(count_wrong_texels(pixels, width, height, [](uint32_t x, uint32_t y) {
          if (x >= 4 && x < 8 && y >= 2 && y < 6) return std::array<uint8_t, 4>{0, 0, 255, 255};
          return x < width / 2 ? kRed : kGreen;
        }) == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "render to texture writes back only the sampled target and waits for no fence", "[gpu][renderer]") {
  // Two targets rendered in one submission, the first then sampled into a third: the sampling draw needs only
  // the first target in guest memory, so one write-back happens before the flush (the second stays on the GPU),
  // and the flush writes back the other two.
  constexpr uint32_t kSamplingOffset = 0x2000;
  scene.gpu.memory().write(kPrograms + kSamplingOffset, sampling_fragment_program({"TEX R0, R0, RZ, 0x0, 2D, 0xf"}));
  const uint64_t other_target = kArena + 0x340000, result_target = kArena + 0x380000;
  const uint64_t headers = kArena + 0x510000, samplers = kArena + 0x520000;
  scene.write_words(headers, rgba8_texture_header(kColorTarget, 16, 8));
  scene.write_words(samplers, nearest_clamp_sampler());
  // Vertices 0-11: red left, green right; 12-15: a quad with (u, v) from (0, 0) to (1, 1) in the colour.
  scene.write_floats(kVertices, concat({red_left_green_right(), vertex(-1, -1, 0.5f, {0, 0, 0, 1}), vertex(1, -1, 0.5f, {1, 0, 0, 1}),
                                        vertex(1, 1, 0.5f, {1, 1, 0, 1}), vertex(-1, 1, 0.5f, {0, 1, 0, 1})}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 16, 8);
  draw_arrays(s, 0, 12);
  s.method(0, "SET_COLOR_TARGET_A", 0, high(other_target)).method(0, "SET_COLOR_TARGET_B", 0, low(other_target));
  clear_color(s, {0, 0, 1, 1});
  s.method(0, "SET_COLOR_TARGET_A", 0, high(result_target)).method(0, "SET_COLOR_TARGET_B", 0, low(result_target));
  s.method(0, "SET_PIPELINE_PROGRAM", 5, kSamplingOffset);
  scene.bind_textures(s, headers, samplers);
  draw_arrays(s, 12, 4, 7); // QUADS
  const maxwell::GpfifoEntry entry = s.place(scene.gpu.memory(), kPushbuffers);
  scene.gpu.submit(0, entry);
  REQUIRE(scene.gpu.run(maxwell::RunOptions{std::chrono::milliseconds(20)}).idle);
  CHECK(scene.renderer->statistics().target_write_backs == 1);
  CHECK(scene.renderer->statistics().flushes == 0);
  scene.renderer->flush();
  CHECK(scene.renderer->statistics().target_write_backs == 3);
  CHECK(scene.renderer->diagnostics().empty());
  const auto pixels = scene.read_target(result_target, 16, 8, 4);
  CHECK(count_wrong_texels(pixels, 16, 8, [](uint32_t x, uint32_t) { return x < 8 ? kRed : kGreen; }) == 0);
  CHECK(count_wrong_texels(scene.read_target(other_target, 16, 8, 4), 16, 8, std::array<uint8_t, 4>{0, 0, 255, 255}) == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "a copy into a texture between two draws of one batch reaches the second draw only", "[gpu][renderer]") {
  // Draw 1 samples an 8x8 texture of (10, 20, 30, 40) into the left half; the copy engine then overwrites the
  // texture with (50, 60, 70, 80) texels from a pitch buffer; draw 2 samples it into the right half. The texture
  // upload of a batch runs before all its draws, so the renderer must end the batch at the copy.
  scene.gpu.memory().write(kPrograms + kFragmentProgramOffset, sampling_fragment_program({"TEX R0, R0, RZ, 0x0, 2D, 0xf"}));
  const uint64_t texture = kArena + 0x500000, headers = kArena + 0x510000, samplers = kArena + 0x520000, fresh = kArena + 0x530000;
  auto uniform = [](std::array<uint8_t, 4> texel) {
    std::vector<uint8_t> bytes(512); // 8x8 texels: a uniform fill is the same bytes in both layouts
    for (size_t i = 0; i < bytes.size(); i += 4) std::copy(texel.begin(), texel.end(), bytes.begin() + i);
    return bytes;
  };
  scene.gpu.memory().write(texture, uniform({10, 20, 30, 40}));
  scene.gpu.memory().write(fresh, uniform({50, 60, 70, 80}));
  scene.write_words(headers, rgba8_texture_header(texture, 8, 8));
  scene.write_words(samplers, nearest_clamp_sampler());
  const std::array<float, 4> uv{0.5f, 0.5f, 0, 1};
  scene.write_floats(kVertices, concat({vertex(-1, -1, 0.5f, uv), vertex(0, -1, 0.5f, uv), vertex(-1, 1, 0.5f, uv), vertex(0, -1, 0.5f, uv),
                                        vertex(0, 1, 0.5f, uv), vertex(-1, 1, 0.5f, uv), vertex(0, -1, 0.5f, uv), vertex(1, -1, 0.5f, uv),
                                        vertex(0, 1, 0.5f, uv), vertex(1, -1, 0.5f, uv), vertex(1, 1, 0.5f, uv), vertex(0, 1, 0.5f, uv)}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 16, 8);
  scene.bind_textures(s, headers, samplers);
  draw_arrays(s, 0, 6);
  s.bind(1, maxwell::ClassId::copy);
  const uint32_t io[] = {high(fresh), low(fresh), high(texture), low(texture), 0, 0, 512, 1};
  s.incrementing(1, "OFFSET_IN_UPPER", io);
  s.method(1, "LAUNCH_DMA", 2u | (1u << 7) | (1u << 8)); // NON_PIPELINED, pitch to pitch, one line of 512 bytes
  draw_arrays(s, 6, 6);
  scene.run(s);
  CHECK(scene.renderer->statistics().texture_uploads == 2);
  const auto pixels = scene.read_target(kColorTarget, 16, 8, 4);
  CHECK(count_wrong_texels(pixels, 16, 8, [](uint32_t x, uint32_t) {
          return x < 8 ? std::array<uint8_t, 4>{10, 20, 30, 40} : std::array<uint8_t, 4>{50, 60, 70, 80};
        }) == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "an inline-to-memory upload into a render target lands on the rendered pixels", "[gpu][renderer]") {
  // Red/green halves on 16x8, then the inline-to-memory engine writes a 4x2 patch of blue (0, 0, 255, 255)
  // block-linear at byte column 16 (pixel 4), row 2: blue on [4, 8) x [2, 4), the halves elsewhere.
  scene.write_floats(kVertices, red_left_green_right());
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 16, 8);
  draw_arrays(s, 0, 12);
  s.bind(3, maxwell::ClassId::inline_to_memory);
  // LINE_LENGTH_IN 16 bytes, LINE_COUNT 2, address, pitch (unused), 1-GOB blocks, width 64 bytes, height 8,
  // depth 1, layer 0, origin (16 bytes, row 2).
  const uint32_t setup[] = {16, 2, high(kColorTarget), low(kColorTarget), 0, 0, 64, 8, 1, 0, 16, 2};
  s.incrementing(3, "LINE_LENGTH_IN", setup);
  s.method(3, "LAUNCH_DMA", 0); // block-linear destination, no completion semaphore
  const std::vector<uint32_t> blue(8, 0xffff0000u); // bytes 00 00 ff ff per texel
  s.non_incrementing(3, "LOAD_INLINE_DATA", blue);
  scene.run(s);
  CHECK(count_wrong_texels(scene.read_target(kColorTarget, 16, 8, 4), 16, 8, [](uint32_t x, uint32_t y) {
          if (x >= 4 && x < 8 && y >= 2 && y < 4) return std::array<uint8_t, 4>{0, 0, 255, 255};
          return x < 8 ? kRed : kGreen;
        }) == 0);
  check_no_validation_messages(context);
}
