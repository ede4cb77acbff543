// Output declarations that depend on the draw: dual-source blending (colour output 1 as Location 0 Index 1) and
// the viewport index / layer built-ins (a[0x68] / a[0x64]). translate_graphics validates every module with
// spirv-val (Vulkan 1.2); the GLSL from SPIRV-Cross shows the declarations.
#include <catch2/catch.hpp>

#include <string>

#include "translator/graphics/graphics.h"
#include "translator/sass/sm5x/sph_builder.h"
#include "translator/sass/sm5x/text_assembler.h"

using namespace kiln;

namespace {

std::vector<uint8_t> with_code(std::vector<uint8_t> header, const std::vector<std::string_view>& lines) {
  for (uint64_t word : sass::sm5x::assemble_program(lines)) {
    for (int i = 0; i < 8; ++i) header.push_back(static_cast<uint8_t>(word >> (8 * i)));
  }
  return header;
}

graphics::Translation translate(const std::vector<uint8_t>& bytes, bool dual_source) {
  graphics::TranslateOptions options;
  options.want_glsl = true;
  options.backend.dual_source_blend = dual_source;
  return graphics::translate_graphics(bytes, graphics::Arch::sm53, "test program", options);
}

} // namespace

TEST_CASE("a pixel program's colour output 1 is the second blend source only when asked", "[translator][graphics]") {
  std::vector<uint8_t> header = sass::sm5x::pixel_header();
  for (uint32_t c = 0; c < 4; ++c) header[(576 + 4 + c) / 8] |= static_cast<uint8_t>(1u << ((576 + 4 + c) % 8)); // target 1 RGBA
  const auto bytes = with_code(header, {"MOV32I R0, 0x3f800000", "MOV32I R1, 0x0", "MOV32I R2, 0x0", "MOV32I R3, 0x3f800000",
                                        "MOV32I R4, 0x3f000000", "MOV32I R5, 0x0", "MOV32I R6, 0x0", "MOV32I R7, 0x0", "EXIT"});
  const graphics::Translation dual = translate(bytes, true);
  INFO(dual.glsl);
  CHECK(dual.glsl.find("layout(location = 0, index = 1)") != std::string::npos);
  CHECK(dual.glsl.find("layout(location = 1)") == std::string::npos);
  const graphics::Translation plain = translate(bytes, false);
  INFO(plain.glsl);
  CHECK(plain.glsl.find("layout(location = 1)") != std::string::npos);
  CHECK(plain.glsl.find("index = 1") == std::string::npos);
}

TEST_CASE("a vertex program's viewport index and layer writes become the built-ins", "[translator][graphics]") {
  std::vector<uint8_t> header = sass::sm5x::vertex_header(1);
  for (uint32_t address : {0x64u, 0x68u}) header[(400 + address / 4) / 8] |= static_cast<uint8_t>(1u << ((400 + address / 4) % 8));
  const auto bytes = with_code(header, {"ALD R0, a[0x80]", "ALD R1, a[0x84]", "ALD R2, a[0x88]", "ALD R3, a[0x8c]",
                                        "MOV32I R4, 0x1", "MOV32I R5, 0x3", "AST a[0x70], R0", "AST a[0x74], R1",
                                        "AST a[0x78], R2", "AST a[0x7c], R3", "AST a[0x68], R4", "AST a[0x64], R5", "EXIT"});
  const graphics::Translation vertex = translate(bytes, false);
  INFO(vertex.glsl);
  CHECK(vertex.glsl.find("gl_ViewportIndex = ") != std::string::npos);
  CHECK(vertex.glsl.find("gl_Layer = ") != std::string::npos);
}
