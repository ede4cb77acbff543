// Viewport index output: a vertex program that writes a[0x68] (the viewport index, SPH OMAP) picks one of
// Maxwell's 16 viewports per primitive. Expectations: each viewport maps NDC -1..1 onto its rectangle
// (window = scale * ndc + offset), and primitives are clipped to -w..w, so a triangle covering the NDC square
// fills exactly its viewport's rectangle.
#include <catch2/catch.hpp>

#include <bit>

#include "runtime/gpu/vulkan/context.h"
#include "tests/gpu/renderer/renderer_scene.h"
#include "translator/sass/sm5x/text_assembler.h"

using namespace kiln;
using namespace kiln::test;
using kiln::sass::sm5x::assemble_program;

TEST_CASE_METHOD(PassThroughScene, "a vertex program's viewport index routes each triangle to its viewport", "[gpu][renderer][golden]") {
  // Vertex: position (generic 0), colour (generic 1), viewport selector as a float in generic 2's x, converted
  // with F2I and written to a[0x68].
  std::vector<uint8_t> header = vertex_header(3);
  header[(400 + 0x68 / 4) / 8] |= static_cast<uint8_t>(1u << ((400 + 0x68 / 4) % 8));
  const auto program_bytes = program(header, assemble_program({
      "ALD R0, a[0x80]", "ALD R1, a[0x84]", "ALD R2, a[0x88]", "ALD R3, a[0x8c]",
      "ALD R4, a[0x90]", "ALD R5, a[0x94]", "ALD R6, a[0x98]", "ALD R7, a[0x9c]", "ALD R8, a[0xa0]",
      "F2I.U32.F32.TRUNC R8, R8",
      "AST a[0x70], R0", "AST a[0x74], R1", "AST a[0x78], R2", "AST a[0x7c], R3",
      "AST a[0x80], R4", "AST a[0x84], R5", "AST a[0x88], R6", "AST a[0x8c], R7", "AST a[0x68], R8", "EXIT"}));
  scene.gpu.memory().write(kPrograms + kVertexProgramOffset, program_bytes);
  // Two triangles covering the NDC square: red to viewport 0, green to viewport 1 (48-byte vertices).
  std::vector<float> vertices;
  auto triangle = [&](std::array<float, 4> color, float selector) {
    for (const auto& [x, y] : {std::pair{-1.0f, -1.0f}, std::pair{3.0f, -1.0f}, std::pair{-1.0f, 3.0f}}) {
      vertices.insert(vertices.end(), {x, y, 0.5f, 1.0f, color[0], color[1], color[2], color[3], selector, 0, 0, 1});
    }
  };
  triangle({1, 0, 0, 1}, 0.0f);
  triangle({0, 1, 0, 1}, 1.0f);
  scene.write_floats(kVertices, vertices);

  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 16, 8, 48); // viewport 0: the whole 16x8 target
  s.method(0, "SET_VERTEX_ATTRIBUTE_A", 2, 0u | (32u << 7) | (1u << 21) | (7u << 27)); // RGBA32F at 32
  auto viewport = [&](uint32_t i, float x0) { // 8x8 at (x0, 0)
    s.method(0, "SET_VIEWPORT_SCALE_X", i, std::bit_cast<uint32_t>(4.0f)).method(0, "SET_VIEWPORT_OFFSET_X", i, std::bit_cast<uint32_t>(x0 + 4));
    s.method(0, "SET_VIEWPORT_SCALE_Y", i, std::bit_cast<uint32_t>(4.0f)).method(0, "SET_VIEWPORT_OFFSET_Y", i, std::bit_cast<uint32_t>(4.0f));
    s.method(0, "SET_VIEWPORT_SCALE_Z", i, std::bit_cast<uint32_t>(1.0f)).method(0, "SET_VIEWPORT_OFFSET_Z", i, 0);
  };
  viewport(0, 0);  // left half
  viewport(1, 8);  // right half
  clear_color(s, {0, 0, 0, 0});
  draw_arrays(s, 0, 6);
  scene.run(s);
  // Viewport 0 alone would put both triangles on the left half (green last) and leave the right half black.
  CHECK(count_wrong_texels(scene.read_target(kColorTarget, 16, 8, 4), 16, 8, [](uint32_t x, uint32_t) {
          return x < 8 ? std::array<uint8_t, 4>{255, 0, 0, 255} : std::array<uint8_t, 4>{0, 255, 0, 255};
        }) == 0);
  CHECK(scene.renderer->diagnostics().empty());
  check_no_validation_messages(context);
}
