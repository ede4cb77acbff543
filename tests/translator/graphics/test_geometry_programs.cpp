// SM5x geometry programs: a hand-assembled geometry program between the corpus vertex program and a flat-colour
// fragment program, drawn on lavapipe (validation on, zero messages). Expectations are derived by hand from the
// program text and the scene: the corpus vertex program places the quad's corners at clip (±q, ±q, 0, q), i.e.
// exactly on the viewport's edges, and the quad is drawn as a 4-vertex triangle strip (two input triangles).
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <filesystem>
#include <random>
#include <string_view>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/gpu/vulkan/context.h"
#include "tests/translator/graphics/headsurface_renderer.h"
#include "translator/sass/sm5x/program.h"
#include "translator/sass/sm5x/sph_builder.h"
#include "translator/sass/sm5x/text_assembler.h"

namespace {

using namespace kiln;
namespace sm5x = sass::sm5x;
namespace fs = std::filesystem;


void set_bits(std::vector<uint8_t>& header, unsigned lsb, unsigned width, uint32_t value) {
  for (unsigned i = 0; i < width; ++i) {
    if ((value >> i) & 1) header[(lsb + i) / 8] |= static_cast<uint8_t>(1u << ((lsb + i) % 8));
  }
}

std::vector<uint8_t> with_code(std::vector<uint8_t> header, std::vector<std::string_view> lines) {
  lines.push_back("EXIT");
  const std::vector<uint64_t> code = sm5x::assemble_program(lines);
  const size_t at = header.size();
  header.resize(at + code.size() * sizeof(uint64_t));
  std::memcpy(header.data() + at, code.data(), code.size() * sizeof(uint64_t));
  return header;
}

/// Geometry SPH (open-gpu-doc layout): CommonWord0 SphType 1 (VTG), version 3, ShaderType 4 (geometry);
/// ThreadsPerInputPrimitive (bits 88-95), OutputTopology (120-123), MaxOutputVertexCount (128-139); output map
/// from bit 400: position and generic 0.
std::vector<uint8_t> geometry_header(uint32_t topology, uint32_t max_vertices, uint32_t invocations) {
  std::vector<uint8_t> header(sm5x::kSphBytes, 0);
  set_bits(header, 0, 5, 1);
  set_bits(header, 5, 5, 3);
  set_bits(header, 10, 4, 4);
  set_bits(header, 88, 8, invocations);
  set_bits(header, 120, 4, topology);
  set_bits(header, 128, 12, max_vertices);
  set_bits(header, 160 + 0x70 / 4, 4, 0xf);  // reads position
  set_bits(header, 400 + 0x70 / 4, 4, 0xf);  // writes position
  set_bits(header, 400 + 0x80 / 4, 4, 0xf);  // writes generic 0
  return header;
}

/// Fragment program: colour target 0 = generic 0, read flat (PixelImap constant: the value arrives unchanged).
std::vector<uint8_t> flat_colour_fragment() {
  std::vector<uint8_t> header = sm5x::pixel_header();
  header[192 / 8] = 0x55;
  return with_code(header, {"IPA.PASS R0, a[0x80], RZ", "IPA.PASS R1, a[0x84], RZ", "IPA.PASS R2, a[0x88], RZ", "IPA.PASS R3, a[0x8c], RZ"});
}

/// Draws the corpus vertex program, `geometry` and the flat-colour fragment program; colour target 0.
std::vector<float> draw(const graphics::Translation& geometry) {
  return test::draw_behind_corpus_vertex_program(flat_colour_fragment(), 11, {}, &geometry);
}

/// One output vertex: input vertex `index`'s position with x and y halved, generic 0 = R8-R11.
constexpr std::array<std::string_view, 6> kHalvedVertex0 = {"MOV32I R12, 0x0", "ALD.128 R0, a[0x70], R12", "FMUL R0, R0, 0.5",
                                                           "FMUL R1, R1, 0.5", "AST.128 a[0x70], R0", "AST.128 a[0x80], R8"};

} // namespace

TEST_CASE("a geometry program re-emits each input triangle with its per-vertex positions halved", "[gpu][graphics][geometry]") {
  if (!fs::exists(test::maxwell_corpus())) FAIL("corpus folder missing: " << test::maxwell_corpus());
  // For vertices 0, 1, 2 of each input triangle: ALD.128 of its position (R12 = vertex index), x and y times 0.5,
  // AST position and generic 0 = (0.25, 0.5, 0.75, 1), OUT.EMIT; then OUT.CUT. The two triangles shrink to
  // the centre half of the viewport, NDC [-0.5, 0.5]: pixels 16-47 in x and y (pixel centre 15.5 maps to
  // -0.516, 16.5 to -0.484) are (0.25, 0.5, 0.75); every other pixel keeps the clear value.
  std::vector<std::string_view> lines = {"MOV32I R8, 0x3e800000", "MOV32I R9, 0x3f000000", "MOV32I R10, 0x3f400000", "MOV32I R11, 0x3f800000",
                                         "MOV32I R13, 0x0"};
  const std::array<std::string_view, 3> vertex_index = {"MOV32I R12, 0x0", "MOV32I R12, 0x1", "MOV32I R12, 0x2"};
  for (std::string_view index : vertex_index) {
    lines.push_back(index);
    lines.insert(lines.end(), kHalvedVertex0.begin() + 1, kHalvedVertex0.end());
    lines.push_back("OUT.EMIT R13, R13, RZ");
  }
  lines.push_back("OUT.CUT RZ, R13, RZ");
  const auto program = with_code(geometry_header(7, 3, 1), lines); // triangle strip, 3 vertices, 1 invocation
  const auto header = sm5x::parse_sph(program, "geometry");
  CHECK(header.stage == sm5x::ShaderStage::geometry);
  CHECK(header.max_output_vertex_count == 3);
  const auto geometry = graphics::translate_graphics(program, graphics::Arch::sm53, "halving_geometry");
  CHECK(geometry.stage == spirv::GraphicsStage::geometry);
  const std::vector<float> image = draw(geometry);
  CHECK(test::count_wrong_rgb(image, [](uint32_t x, uint32_t y) {
          const bool inside = x >= 16 && x < 48 && y >= 16 && y < 48;
          return inside ? std::array<float, 3>{0.25f, 0.5f, 0.75f} : std::array<float, 3>{test::kClearValue, test::kClearValue, test::kClearValue};
        }) == 0);
}

TEST_CASE("OUT.EMIT_THEN_CUT ends the strip: a vertex emitted after it makes no triangle", "[gpu][graphics][geometry]") {
  if (!fs::exists(test::maxwell_corpus())) FAIL("corpus folder missing: " << test::maxwell_corpus());
  // Per input triangle: the halved vertices 0, 1, 2 (the last with EMIT_THEN_CUT), then vertex 0 unhalved
  // alone in a new strip, which draws nothing. The image is the first test's. Were the cut lost, the strip
  // would add the triangle (halved 1, halved 2, full 0), reaching outside the centre towards that corner.
  std::vector<std::string_view> lines = {"MOV32I R8, 0x3e800000", "MOV32I R9, 0x3f000000", "MOV32I R10, 0x3f400000", "MOV32I R11, 0x3f800000",
                                         "MOV32I R13, 0x0"};
  const std::array<std::string_view, 3> vertex_index = {"MOV32I R12, 0x0", "MOV32I R12, 0x1", "MOV32I R12, 0x2"};
  for (size_t i = 0; i < 3; ++i) {
    lines.push_back(vertex_index[i]);
    lines.insert(lines.end(), kHalvedVertex0.begin() + 1, kHalvedVertex0.end());
    lines.push_back(i == 2 ? "OUT.EMIT_THEN_CUT R13, R13, RZ" : "OUT.EMIT R13, R13, RZ");
  }
  lines.insert(lines.end(), {"MOV32I R12, 0x0", "ALD.128 R0, a[0x70], R12", "AST.128 a[0x70], R0", "AST.128 a[0x80], R8", "OUT.EMIT R13, R13, RZ"});
  const auto geometry = graphics::translate_graphics(with_code(geometry_header(7, 4, 1), lines), graphics::Arch::sm53, "cut_strip");
  CHECK(test::count_wrong_rgb(draw(geometry), [](uint32_t x, uint32_t y) {
          const bool inside = x >= 16 && x < 48 && y >= 16 && y < 48;
          return inside ? std::array<float, 3>{0.25f, 0.5f, 0.75f} : std::array<float, 3>{test::kClearValue, test::kClearValue, test::kClearValue};
        }) == 0);
}

TEST_CASE("geometry programs the translator cannot express are named", "[graphics][geometry]") {
  CHECK_THROWS_WITH(graphics::translate_graphics(with_code(geometry_header(2, 3, 1), {"OUT.EMIT R13, R13, RZ"}), graphics::Arch::sm53, "bad_topology"),
                    Catch::Contains("bad_topology") && Catch::Contains("output topology 2"));
  CHECK_THROWS_WITH(graphics::translate_graphics(with_code(geometry_header(7, 3, 1), {"OUT.EMIT R13, R13, 0x1"}), graphics::Arch::sm53, "stream1"),
                    Catch::Contains("code address 0x8") && Catch::Contains("vertex stream other than a literal 0"));
}

// Tessellation programs (the same harness and helpers): the corpus vertex program's vertices 0-2, corners
// (-1, -1), (1, -1), (-1, 1) in normalized coordinates, drawn as one 3-vertex patch.
namespace {

/// Tessellation SPH: CommonWord0 SphType 1 (VTG), version 3, ShaderType 2 (tessellation init = control) or 3
/// (tessellation = evaluation); ThreadsPerInputPrimitive (bits 88-95) = the control program's output patch size;
/// reads and writes position.
std::vector<uint8_t> tessellation_header(uint32_t shader_type, uint32_t output_vertices) {
  std::vector<uint8_t> header(sm5x::kSphBytes, 0);
  set_bits(header, 0, 5, 1);
  set_bits(header, 5, 5, 3);
  set_bits(header, 10, 4, shader_type);
  set_bits(header, 88, 8, output_vertices);
  set_bits(header, 160 + 0x70 / 4, 4, 0xf);
  set_bits(header, 400 + 0x70 / 4, 4, 0xf);
  if (shader_type == 3) set_bits(header, 400 + 0x80 / 4, 4, 0xf); // the evaluation program writes generic 0
  return header;
}

/// Control: output vertex = input vertex [SR_INVOCATION_ID]'s position; patch outputs: every tessellation level
/// 1.0 (AST.P a[0x00..0x0c] outer, a[0x10..0x14] inner), or outer level 0 = `first_outer_level`, and patch
/// generic 0 (a[0x20]) = (0.25, 0.5, 0.75, 1).
graphics::Translation pass_through_control(std::string_view first_outer_level = "MOV32I R4, 0x3f800000") {
  const auto program = with_code(tessellation_header(2, 3), {
      "S2R R12, SR_INVOCATION_ID", "ALD.128 R0, a[0x70], R12", "AST.128 a[0x70], R0",
      "MOV32I R4, 0x3f800000", "MOV32I R5, 0x3f800000", "MOV32I R6, 0x3f800000", "MOV32I R7, 0x3f800000",
      "AST.P.64 a[0x10], R4", first_outer_level, "AST.P.128 a[0x0], R4",
      "MOV32I R8, 0x3e800000", "MOV32I R9, 0x3f000000", "MOV32I R10, 0x3f400000", "MOV32I R11, 0x3f800000", "AST.P.128 a[0x20], R8"});
  return graphics::translate_graphics(program, graphics::Arch::sm53, "pass_through_control");
}

/// Evaluation: position = u·P0 + v·P1 + w·P2 (w = 1 - u - v, from tess_coord.u/v a[0x2f0]/a[0x2f4]); generic 0 =
/// patch generic 0.
graphics::Translation barycentric_evaluation() {
  const auto program = with_code(tessellation_header(3, 0), {
      "ALD R0, a[0x2f0]", "ALD R1, a[0x2f4]", "MOV32I R3, 0x3f800000", "FADD R2, R3, -R0", "FADD R2, R2, -R1",
      "MOV32I R20, 0x0", "ALD.128 R4, a[0x70], R20", "MOV32I R20, 0x1", "ALD.128 R8, a[0x70], R20", "MOV32I R20, 0x2", "ALD.128 R12, a[0x70], R20",
      "FMUL R16, R0, R4", "FFMA R16, R1, R8, R16", "FFMA R16, R2, R12, R16",
      "FMUL R17, R0, R5", "FFMA R17, R1, R9, R17", "FFMA R17, R2, R13, R17",
      "FMUL R18, R0, R6", "FFMA R18, R1, R10, R18", "FFMA R18, R2, R14, R18",
      "FMUL R19, R0, R7", "FFMA R19, R1, R11, R19", "FFMA R19, R2, R15, R19",
      "AST.128 a[0x70], R16", "ALD.P.128 R20, a[0x20]", "AST.128 a[0x80], R20"});
  return graphics::translate_graphics(program, graphics::Arch::sm53, "barycentric_evaluation");
}

/// Draws the corpus vertex program's vertices 0-2 as one patch through `control` and `evaluation` with the
/// flat-colour fragment program; colour target 0.
std::vector<float> draw_tessellated(const graphics::Translation& control, const graphics::Translation& evaluation) {
  return test::draw_behind_corpus_vertex_program(flat_colour_fragment(), 11, {}, nullptr, {&control, &evaluation});
}

} // namespace

TEST_CASE("tessellation programs at level 1 draw exactly the patch's triangle", "[gpu][graphics][tessellation]") {
  if (!fs::exists(test::maxwell_corpus())) FAIL("corpus folder missing: " << test::maxwell_corpus());
  // Every level 1 on the triangle domain: one triangle with TessCoord (1,0,0), (0,1,0), (0,0,1) at its corners,
  // where u·P0 + v·P1 + w·P2 is exactly P0, P1 or P2 (products with 0 and 1, sums with 0). The triangle (0, 0),
  // (64, 0), (0, 64) in pixels covers the pixel centres (x + 0.5) + (y + 0.5) < 64, i.e. x + y <= 62, in the
  // patch generic's colour; x + y >= 64 keep the clear value; the centres on the edge (x + y = 63) are left to
  // the rasterizer's tie rule and not checked.
  const graphics::Translation control = pass_through_control();
  const graphics::Translation evaluation = barycentric_evaluation();
  CHECK(control.stage == spirv::GraphicsStage::tess_control);
  CHECK(evaluation.stage == spirv::GraphicsStage::tess_evaluation);
  CHECK(sm5x::parse_sph(with_code(tessellation_header(2, 3), {}), "control").threads_per_input_primitive == 3);

  const std::vector<float> image = draw_tessellated(control, evaluation);
  size_t inside = 0;
  CHECK(test::count_wrong_rgb(image, [&](uint32_t x, uint32_t y) {
          const float* pixel = &image[(y * test::kViewportSize + x) * 4];
          if (x + y == 63) return std::array<float, 3>{pixel[0], pixel[1], pixel[2]}; // on the edge: unchecked
          if (x + y <= 62) {
            ++inside;
            return std::array<float, 3>{0.25f, 0.5f, 0.75f};
          }
          return std::array<float, 3>{test::kClearValue, test::kClearValue, test::kClearValue};
        }) == 0);
  CHECK(inside == 63 * 64 / 2); // x + y <= 62: 63 + 62 + ... + 1 pixels
}

TEST_CASE("an outer tessellation level of 0 written by AST.P a[0x0] discards the patch", "[gpu][graphics][tessellation]") {
  if (!fs::exists(test::maxwell_corpus())) FAIL("corpus folder missing: " << test::maxwell_corpus());
  // Vulkan: a patch with an outer level <= 0 is discarded, so the image stays clear: TessLevelOuter[0] is a[0x0].
  const std::vector<float> image = draw_tessellated(pass_through_control("MOV32I R4, 0x0"), barycentric_evaluation());
  CHECK(test::count_wrong_rgb(image, [](uint32_t, uint32_t) {
          return std::array<float, 3>{test::kClearValue, test::kClearValue, test::kClearValue};
        }) == 0);
}

TEST_CASE("tessellation programs the translator cannot express are named", "[graphics][tessellation]") {
  CHECK_THROWS_WITH(graphics::translate_graphics(with_code(tessellation_header(3, 0), {"MOV32I R0, 0x0", "AST.P a[0x20], R0"}), graphics::Arch::sm53, "patch_store"),
                    Catch::Contains("patch_store") && Catch::Contains("AST.P in an evaluation program"));
  CHECK_THROWS_WITH(graphics::translate_graphics(with_code(geometry_header(7, 3, 1), {"ALD.P R0, a[0x20]"}), graphics::Arch::sm53, "geometry_patch"),
                    Catch::Contains("ALD.P/AST.P outside a tessellation program"));
}
