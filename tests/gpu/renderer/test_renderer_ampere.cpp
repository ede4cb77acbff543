// Draws of the Ampere 3D class (C797): programs found by SET_PIPELINE_PROGRAM_ADDRESS, read in the SM75+ layout
// (the SPH padded to 0x80 bytes, then 128-bit code up to the branch to itself) and translated for SM86. Each
// case draws the same scene through B197 with SM53 programs and through C797 with their SM86 twins (kiln's SM86
// assembler): the images must be the same bits, and match what the scene's numbers give.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "runtime/gpu/textures/blocklinear/surface.h"
#include "runtime/gpu/textures/blocklinear/swizzle.h"
#include "tests/gpu/renderer/renderer_scene.h"
#include "translator/sass/sm5x/text_assembler.h"

using namespace kiln;
using namespace kiln::test;

namespace {

/// The scene drawn by `threed` (B197 with the SM53 pass-through programs, C797 with their SM86 twins): three
/// vertices with different colours on an RGBA32F target, so every pixel is an interpolation.
std::vector<uint8_t> draw_gradient(vulkan::Context& context, maxwell::ClassId threed) {
  RendererScene scene(context);
  scene.threed = threed;
  scene.write_pass_through_programs(threed == maxwell::ClassId::threed_ampere);
  scene.write_floats(kVertices, concat({vertex(-1, -1, 0.5f, {1, 0, 0, 1}), vertex(1, -1, 0.5f, {0, 1, 0, 0.5f}),
                                        vertex(-1, 1, 0.5f, {0, 0, 1, 0.25f})}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba32f, 32, 32);
  draw_arrays(s, 0, 3);
  scene.run(s);
  CHECK(scene.renderer->statistics().shaders_translated == 2);
  return scene.read_target(kColorTarget, 32, 32, 16);
}

} // namespace

TEST_CASE("a C797 draw of SM86 programs gives the bits of the same draw through B197 with SM53 programs", "[gpu][renderer][ampere]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  const std::vector<uint8_t> maxwell = draw_gradient(context, maxwell::ClassId::threed);
  const std::vector<uint8_t> ampere = draw_gradient(context, maxwell::ClassId::threed_ampere);
  CHECK(ampere == maxwell);
  // The lower-left half-square is covered (x + y < 32 in pixels), its colours interpolated from the corners:
  // pixel (0, 0)'s centre is (0.5, 0.5) of 32, so red = 1 - 1/32, green = blue = 1/64 (a few ulps of rounding).
  CHECK(texel_f32(ampere, 32, 0, 0, 0) == Approx(1.0 - 1.0 / 32).margin(1e-5));
  CHECK(texel_f32(ampere, 32, 0, 0, 1) == Approx(1.0 / 64).margin(1e-5));
  CHECK(texel_f32(ampere, 32, 0, 0, 2) == Approx(1.0 / 64).margin(1e-5));
  CHECK(texel_f32(ampere, 32, 31, 31, 3) == 0.0f); // outside the triangle: the cleared (zero) memory
  check_no_validation_messages(context);
}

TEST_CASE("a C797 pixel program samples its bound texture through TEX.SCR as B197's TEX does", "[gpu][renderer][ampere]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  constexpr uint32_t kSize = 8;
  constexpr uint64_t kTexture = kArena + 0x500000, kHeaders = kArena + 0x510000, kSamplers = kArena + 0x511000;
  auto texel_at = [](uint32_t x, uint32_t y) {
    return std::array<uint8_t, 4>{static_cast<uint8_t>(32 * x), static_cast<uint8_t>(32 * y), 200, static_cast<uint8_t>(100 + x + 8 * y)};
  };
  auto render = [&](maxwell::ClassId threed) {
    RendererScene scene(context);
    scene.threed = threed;
    const bool sm86 = threed == maxwell::ClassId::threed_ampere;
    scene.write_pass_through_programs(sm86);
    // Coordinates from generic 0 (x, y); the handle (TIC 0, TSC 0) in c[2][0] of the pixel group.
    scene.gpu.memory().write(kPrograms + kFragmentProgramOffset,
                             sm86 ? sm86_program(pixel_header(), {"IPA.PASS R0, a[0x80]", "IPA.PASS R1, a[0x84]",
                                                                  "TEX.SCR R2, R0, R0, R1, 0x2, 0x0, 2D", "EXIT"})
                                  : program(pixel_header(), sass::sm5x::assemble_program({"IPA.PASS R0, a[0x80], RZ", "IPA.PASS R1, a[0x84], RZ",
                                                                                          "TEX R0, R0, RZ, 0x0, 2D, 0xf", "EXIT"})));
    std::vector<uint8_t> linear(kSize * kSize * 4);
    for (uint32_t y = 0; y < kSize; ++y) {
      for (uint32_t x = 0; x < kSize; ++x) std::memcpy(&linear[(y * kSize + x) * 4], texel_at(x, y).data(), 4);
    }
    textures::SurfaceDescription description; // block-linear with 1-GOB blocks, as the header says
    description.width = kSize;
    description.height = kSize;
    description.element = {4, 1, 1};
    description.block_height_log2 = 0;
    const auto layout = textures::SurfaceLayout::compute(description);
    std::vector<uint8_t> swizzled(layout.total_size());
    textures::swizzle(layout, 0, 0, textures::whole_level(layout, 0), linear, swizzled);
    scene.gpu.memory().write(kTexture, swizzled);
    const auto tic = rgba8_texture_header(kTexture, kSize, kSize);
    const auto tsc = nearest_clamp_sampler();
    scene.write_words(kHeaders, tic);
    scene.write_words(kSamplers, tsc);
    // Pixel centre (x + 0.5) / 8 lies in the middle of texel x: nearest filtering reads texel (x, y).
    scene.write_floats(kVertices, concat({vertex(-1, -1, 0.5f, {0, 0, 0, 1}), vertex(1, -1, 0.5f, {1, 0, 0, 1}),
                                          vertex(1, 1, 0.5f, {1, 1, 0, 1}), vertex(-1, 1, 0.5f, {0, 1, 0, 1})}));
    maxwell::StreamBuilder s;
    scene.setup(s, kRgba8, kSize, kSize);
    scene.bind_textures(s, kHeaders, kSamplers);
    draw_arrays(s, 0, 4, 7); // QUADS
    scene.run(s);
    return scene.read_target(kColorTarget, kSize, kSize, 4);
  };
  const std::vector<uint8_t> maxwell = render(maxwell::ClassId::threed);
  const std::vector<uint8_t> ampere = render(maxwell::ClassId::threed_ampere);
  CHECK(count_wrong_texels(ampere, kSize, kSize, texel_at) == 0);
  CHECK(ampere == maxwell);
  check_no_validation_messages(context);
}

TEST_CASE("a C797 program the SM86 decoder does not know is reported with its GPU address and offset", "[gpu][renderer][ampere]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  RendererScene scene(context);
  scene.threed = maxwell::ClassId::threed_ampere;
  scene.write_pass_through_programs(true);
  // The fragment program's second instruction word replaced by one no form decodes (opcode bits 0xfff).
  const uint64_t bad = kPrograms + kFragmentProgramOffset + 0x80 + 16;
  const std::array<uint32_t, 4> unknown = {0x00000fff, 0, 0, 0};
  scene.write_words(bad, unknown);
  scene.write_floats(kVertices, fullscreen(0.5f, {1, 1, 1, 1}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 16, 16);
  draw_arrays(s, 0, 3);
  const maxwell::GpfifoEntry entry = s.place(scene.gpu.memory(), scene.next_pushbuffer);
  scene.gpu.submit(0, entry);
  REQUIRE(scene.gpu.run().idle);
  scene.renderer->flush();
  REQUIRE(scene.renderer->diagnostics().size() == 1);
  const std::string& message = scene.renderer->diagnostics()[0];
  INFO(message);
  CHECK(message.find(fmt::format("fragment program at GPU {:#x}", kPrograms + kFragmentProgramOffset)) != std::string::npos);
  CHECK(message.find("offset 0x90: unknown instruction at code offset 0x0010") != std::string::npos); // 0x80 + 0x10
  check_no_validation_messages(context);
}
