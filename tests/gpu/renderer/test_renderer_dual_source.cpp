// Dual-source blending: a pixel program's colour output 1 (SPH omap target 1) is the second blend source when
// target 0's blend state reads SRC1_* factors. Expectations come from the blend equation (OpenGL 4.6 §17.3.6,
// table 17.2: SRC1_COLOR is the second source's colour) computed by hand below.
#include <catch2/catch.hpp>

#include "runtime/gpu/vulkan/context.h"
#include "tests/gpu/renderer/renderer_scene.h"
#include "translator/sass/sm5x/text_assembler.h"

using namespace kiln;
using namespace kiln::test;
using kiln::sass::sm5x::assemble_program;

namespace {

// Source 0 = (1.0, 0.6, 0.2, 1.0), source 1 = (0.5, 0.5, 1.0, 0.75) as MOV32I float bits into R0-R3 / R4-R7.
std::vector<uint8_t> two_source_program() {
  std::vector<uint8_t> header = pixel_header();
  for (uint32_t c = 0; c < 4; ++c) header[(576 + 4 + c) / 8] |= static_cast<uint8_t>(1u << ((576 + 4 + c) % 8)); // target 1 RGBA
  return program(header, assemble_program({"MOV32I R0, 0x3f800000", "MOV32I R1, 0x3f19999a", "MOV32I R2, 0x3e4ccccd",
                                           "MOV32I R3, 0x3f800000", "MOV32I R4, 0x3f000000", "MOV32I R5, 0x3f000000",
                                           "MOV32I R6, 0x3f800000", "MOV32I R7, 0x3f400000", "EXIT"}));
}

constexpr uint64_t kSlot1 = kArena + 0x380000;

/// Colour targets: slot 0 (kColorTarget) cleared to (0.2, 1.0, 0.4, 0.0), slot 1 (kSlot1, zeros in memory);
/// output 0 -> slot 0, output 1 -> slot 1; blend of target 0 as given; one full-screen triangle.
void draw_two_sources(RendererScene& scene, uint32_t source_factor, uint32_t destination_factor) {
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 8, 8);
  s.method(0, "SET_COLOR_TARGET_A", 1, high(kSlot1)).method(0, "SET_COLOR_TARGET_B", 1, low(kSlot1));
  s.method(0, "SET_COLOR_TARGET_WIDTH", 1, 8).method(0, "SET_COLOR_TARGET_HEIGHT", 1, 8);
  s.method(0, "SET_COLOR_TARGET_FORMAT", 1, kRgba8).method(0, "SET_COLOR_TARGET_MEMORY", 1, 0);
  s.method(0, "SET_CT_WRITE", 1, 0x1111);
  clear_color(s, {0.2f, 1.0f, 0.4f, 0.0f});
  s.method(0, "SET_CT_SELECT", 2u | (0u << 4) | (1u << 7)); // TARGET_COUNT 2, TARGET0 = slot 0, TARGET1 = slot 1
  s.method(0, "SET_BLEND", 0, 1).method(0, "SET_BLEND_SEPARATE_FOR_ALPHA", 0).method(0, "SET_BLEND_COLOR_OP", 0x8006);
  s.method(0, "SET_BLEND_COLOR_SOURCE_COEFF", source_factor).method(0, "SET_BLEND_COLOR_DEST_COEFF", destination_factor);
  draw_arrays(s, 0, 3);
  scene.run(s);
}

} // namespace

TEST_CASE_METHOD(PassThroughScene, "blend factors of source 1 read the pixel program's colour output 1", "[gpu][renderer][golden]") {
  scene.gpu.memory().write(kPrograms + kFragmentProgramOffset, two_source_program());
  scene.write_floats(kVertices, fullscreen(0.5f, {0, 0, 0, 1}));
  // FUNC_ADD, source factor SRC1_COLOR (OGL spelling 0xc900), destination ONE_MINUS_SRC1_COLOR (D3D spelling 0x11):
  //   result = S0 * S1 + D * (1 - S1), per channel (alpha too: the colour state is shared)
  //   R: 1.0 * 0.5  + 0.2 * 0.5  = 0.6   -> 153
  //   G: 0.6 * 0.5  + 1.0 * 0.5  = 0.8   -> 204
  //   B: 0.2 * 1.0  + 0.4 * 0.0  = 0.2   -> 51
  //   A: 1.0 * 0.75 + 0.0 * 0.25 = 0.75  -> 191 (191.25)
  // 8-bit UNORM stores round(x * 255); every x * 255 above is within 0.25 of an integer, so either tie rule
  // gives the same bytes. The cleared destination values 0.2, 1.0, 0.4, 0.0 are exact in 8 bits (51, 255, 102, 0).
  draw_two_sources(scene, 0xc900, 0x11);
  CHECK(count_wrong_texels(scene.read_target(kColorTarget, 8, 8, 4), 8, 8, std::array<uint8_t, 4>{153, 204, 51, 191}) == 0);
  // Target 1 is not an attachment while output 1 is the second source: its memory keeps its zeros.
  CHECK(count_wrong_texels(scene.read_target(kSlot1, 8, 8, 4), 8, 8, std::array<uint8_t, 4>{0, 0, 0, 0}) == 0);
  CHECK(scene.renderer->diagnostics().empty());

  // The same program under ordinary blending (ONE, ZERO) is a separate translation: output 1 goes to slot 1
  // again: (0.5, 0.5, 1.0, 0.75) -> (127 or 128, 127 or 128, 255, 191); 0.5 * 255 = 127.5 is a tie whose
  // direction the conversion leaves open, so both neighbours are accepted. Target 0 gets source 0 unblended.
  draw_two_sources(scene, 0x4001, 0x4000);
  CHECK(count_wrong_texels(scene.read_target(kColorTarget, 8, 8, 4), 8, 8, std::array<uint8_t, 4>{255, 153, 51, 255}) == 0);
  const auto slot1 = scene.read_target(kSlot1, 8, 8, 4);
  size_t wrong = 0;
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 8; ++x) {
      const auto t = texel8(slot1, 8, x, y);
      wrong += (t[0] != 127 && t[0] != 128) || (t[1] != 127 && t[1] != 128) || t[2] != 255 || t[3] != 191;
    }
  }
  CHECK(wrong == 0);
  CHECK(scene.renderer->statistics().shaders_translated == 3); // vertex + the pixel program twice (two specialisations)
  check_no_validation_messages(context);
}
