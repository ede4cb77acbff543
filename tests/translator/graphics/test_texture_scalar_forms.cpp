// TEXS, TLDS, TLD4S and TMML: hand-assembled Maxwell fragment programs (kiln's text assembler) drawn on lavapipe
// behind the corpus vertex program (validation on, zero messages) over a 2x2 RGBA8 texture whose channels are
// all 0 or 255 (so every sampled value is exactly 0.0 or 1.0):
//   texel (0,0) = (1, 0, 0, 1)   texel (1,0) = (0, 1, 0, 0)
//   texel (0,1) = (0, 1, 1, 0)   texel (1,1) = (1, 0, 1, 1)
// Texture unit 0 (handle at c[4][0], also the bound texture 0 of bank 4) samples nearest with clamp to edge.
// Every expected value below is derived by hand from this table, the documented register layouts
// (docs/maxwell.md) and, for gathers, Vulkan's gather order: (i0,j1), (i1,j1), (i1,j0), (i0,j0).
#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <string_view>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/gpu/vulkan/context.h"
#include "tests/translator/graphics/headsurface_renderer.h"
#include "translator/sass/sm5x/program.h"
#include "translator/sass/sm5x/text_assembler.h"

namespace {

using namespace kiln;
namespace sm5x = sass::sm5x;
namespace fs = std::filesystem;
using Rgb = std::array<float, 3>;

fs::path corpus() { return fs::path(KILN_SHARED_DIR) / "corpus" / "nvidia-headsurface" / "maxwell"; }

constexpr std::array<std::array<uint8_t, 4>, 4> kTexels = {{{255, 0, 0, 255}, {0, 255, 0, 0}, {0, 255, 255, 0}, {255, 0, 255, 255}}};
float texel(uint32_t x, uint32_t y, uint32_t channel) { return kTexels[y * 2 + x][channel] == 255 ? 1.0f : 0.0f; }

/// Corpus program 01's SPH (a pixel program writing color0.rgb from R0, R1, R2) with `lines` assembled behind it.
std::vector<uint8_t> fragment_program(std::vector<std::string_view> lines) {
  std::vector<uint8_t> bytes = read_file(corpus() / "01_nvidia_headsurface_fragment.bin");
  bytes.resize(sm5x::kSphSize);
  lines.push_back("EXIT");
  const std::vector<uint64_t> code = sm5x::assemble_program(lines);
  const size_t at = bytes.size();
  bytes.resize(at + code.size() * sizeof(uint64_t));
  std::memcpy(bytes.data() + at, code.data(), code.size() * sizeof(uint64_t));
  return bytes;
}

graphics::Translation translate(const std::vector<uint8_t>& program) {
  graphics::TranslateOptions options;
  options.backend.descriptor_set = 1;
  options.bound_texture_bank = test::kHandleBank;
  return graphics::translate_graphics(program, graphics::Arch::sm53, "texture_program", options);
}

/// Draws the program over the 64x64 viewport with the 2x2 texture on unit 0; colour target 0's texels.
std::vector<float> draw(const std::vector<uint8_t>& program, const std::function<void(test::HeadsurfaceScene&)>& edit_scene = {}) {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  std::mt19937_64 random(7);
  test::HeadsurfaceScene scene = test::make_headsurface_scene(random);
  scene.textures[0] = {.width = 2, .height = 2, .half_float = false, .texels = {}};
  for (const auto& texel_bytes : kTexels) scene.textures[0].texels.insert(scene.textures[0].texels.end(), texel_bytes.begin(), texel_bytes.end());
  scene.samplers[0] = {.linear = false, .address_mode = 2};
  if (edit_scene) edit_scene(scene);
  test::HeadsurfaceRenderer renderer(context, scene);
  const auto vertex = graphics::translate_graphics(read_file(corpus() / "00_nvidia_headsurface_vertex.bin"), graphics::Arch::sm53, "vertex");
  test::BankSet banks;
  banks.vertex[3] = scene.vertex_uniforms;
  banks.fragment[test::kHandleBank] = scene.handles;
  const auto images = renderer.draw(vertex, translate(program), std::span(&banks, 1));
  for (const std::string& message : context.validation_log().messages()) UNSCOPED_INFO(message);
  CHECK(context.validation_log().count() == 0);
  return images.at(0).targets.at(0);
}

/// Compares colour target 0 (rgb) with `expected(x, y)` bit for bit; reports the first few differences.
size_t count_wrong(const std::vector<float>& texels, const std::function<Rgb(uint32_t, uint32_t)>& expected) {
  size_t wrong = 0;
  for (uint32_t y = 0; y < test::kViewportSize; ++y) {
    for (uint32_t x = 0; x < test::kViewportSize; ++x) {
      const float* pixel = &texels[(y * test::kViewportSize + x) * 4];
      const Rgb want = expected(x, y);
      for (int c = 0; c < 3; ++c) {
        if (std::memcmp(&pixel[c], &want[c], sizeof(float)) != 0 && wrong++ < 4) {
          UNSCOPED_INFO("pixel (" << x << ", " << y << ") component " << c << ": " << pixel[c] << ", expected " << want[c]);
        }
      }
    }
  }
  return wrong;
}

Rgb constant(float r, float g, float b) { return {r, g, b}; }

} // namespace

TEST_CASE("TEXS 2D: coordinates in Ra and Rb, RGB split over R0, R1 and R28", "[gpu][graphics][texture]") {
  if (!fs::exists(corpus())) FAIL("corpus folder missing: " << corpus());
  // (u, v) = window position / 64: pixels x < 32 sample column 0, the others column 1 (likewise rows).
  // Mask code 0 with two result pairs (R28 = R2) is RGB: R0 = r, R1 = g, R2 = b.
  const auto program = fragment_program({"IPA.PASS R4, a[0x70], RZ", "IPA.PASS R5, a[0x74], RZ", "FMUL R4, R4, 0.015625",
                                         "FMUL R5, R5, 0.015625", "TEXS R2, R0, R4, R5, 0x0, 2D, RGB"});
  CHECK(count_wrong(draw(program), [](uint32_t x, uint32_t y) {
          return Rgb{texel(x / 32, y / 32, 0), texel(x / 32, y / 32, 1), texel(x / 32, y / 32, 2)};
        }) == 0);
}

TEST_CASE("TEXS with one result pair: mask GA (code 6) into R0 and R1 and TEXS.LL 2D reads (Ra, Ra+1) and the LOD from Rb", "[gpu][graphics][texture]") {
  if (!fs::exists(corpus())) FAIL("corpus folder missing: " << corpus());
  // Texel (1, 1) at its centre (0.75, 0.75), LOD 0 from R6: (g, a) = (0, 1); R2 keeps 0.5.
  const auto program = fragment_program({"MOV32I R4, 0x3f400000", "MOV32I R5, 0x3f400000", "MOV32I R6, 0x0", "MOV32I R2, 0x3f000000",
                                         "TEXS.LL RZ, R0, R4, R6, 0x0, 2D, GA"});
  CHECK(count_wrong(draw(program), [](uint32_t, uint32_t) { return constant(texel(1, 1, 1), texel(1, 1, 3), 0.5f); }) == 0);
}

TEST_CASE("TLDS.LL 2D fetches texel (Ra, Ra+1) at LOD Rb and mask GBA (code 3 with two pairs)", "[gpu][graphics][texture]") {
  if (!fs::exists(corpus())) FAIL("corpus folder missing: " << corpus());
  // Texel (1, 0) = (0, 1, 0, 0): R0 = g = 1, R1 = b = 0, R2 (R28) = a = 0.
  const auto program = fragment_program({"MOV32I R4, 0x1", "MOV32I R5, 0x0", "MOV32I R6, 0x0", "TLDS.LL R2, R0, R4, R6, 0x0, 2D, GBA"});
  CHECK(count_wrong(draw(program), [](uint32_t, uint32_t) { return constant(texel(1, 0, 1), texel(1, 0, 2), texel(1, 0, 3)); }) == 0);
}

TEST_CASE("TLDS.LZ.AOFFI 2D adds the signed 4-bit offsets of Rb to (Ra, Ra+1)", "[gpu][graphics][texture]") {
  if (!fs::exists(corpus())) FAIL("corpus folder missing: " << corpus());
  // (1, 0) + (x = 0xf = -1, y = 0x1 = +1) = texel (0, 1) = (0, 1, 1, 0): RGB = (0, 1, 1).
  const auto program = fragment_program({"MOV32I R4, 0x1", "MOV32I R5, 0x0", "MOV32I R7, 0x1f", "TLDS.LZ.AOFFI R2, R0, R4, R7, 0x0, 2D, RGB"});
  CHECK(count_wrong(draw(program), [](uint32_t, uint32_t) { return constant(texel(0, 1, 0), texel(0, 1, 1), texel(0, 1, 2)); }) == 0);
}

TEST_CASE("TLD4S gathers one component of the four footprint texels into R0, R0+1, R28, R28+1", "[gpu][graphics][texture]") {
  if (!fs::exists(corpus())) FAIL("corpus folder missing: " << corpus());
  // At the texture's centre (0.5, 0.5) the footprint is all four texels; green in gather order:
  // texel (0,1).g = 1 -> R0, (1,1).g = 0 -> R1, (1,0).g = 1 -> R2 (R28), (0,0).g -> R3.
  const auto program = fragment_program({"MOV32I R4, 0x3f000000", "MOV32I R5, 0x3f000000", "TLD4S.G R2, R0, R4, R5, 0x0"});
  CHECK(count_wrong(draw(program), [](uint32_t, uint32_t) { return constant(texel(0, 1, 1), texel(1, 1, 1), texel(1, 0, 1)); }) == 0);
  // Alpha with AOFFI: (x, y) = (Ra, Ra+1), offsets 6 bits per byte of Rb: x = 0x3f = -1, y = 0. The footprint
  // moves one column left and clamps onto column 0: alpha of (0,1), (0,1), (0,0) = (0, 0, 1).
  const auto offset = fragment_program({"MOV32I R4, 0x3f000000", "MOV32I R5, 0x3f000000", "MOV32I R6, 0x3f", "TLD4S.A.AOFFI R2, R0, R4, R6, 0x0"});
  CHECK(count_wrong(draw(offset), [](uint32_t, uint32_t) { return constant(texel(0, 1, 3), texel(0, 1, 3), texel(0, 0, 3)); }) == 0);
}

TEST_CASE("TMML returns the computed LOD (signed 8.8) in component 0 and the LOD used in component 1", "[gpu][graphics][texture]") {
  if (!fs::exists(corpus())) FAIL("corpus folder missing: " << corpus());
  // (u, v) = 2 x window position: 2 texture widths per pixel on the 2-texel texture, 4 texels per pixel in x
  // and y, so the computed LOD is log2(4) = 2.0 = 512 in 8.8 fixed point. The texture has one level and the
  // sampler's maximum LOD is 0, so the LOD used is 0. Both are converted to float for the colour output.
  const auto program = fragment_program({"IPA.PASS R4, a[0x70], RZ", "IPA.PASS R5, a[0x74], RZ", "FMUL R4, R4, 2", "FMUL R5, R5, 2",
                                         "TMML.LOD R0, R4, 0x0, 2D, 0x3", "I2F.F32.S32 R0, R0", "I2F.F32.S32 R1, R1",
                                         "MOV32I R2, 0x3f000000"});
  CHECK(count_wrong(draw(program), [](uint32_t, uint32_t) { return constant(512.0f, 0.0f, 0.5f); }) == 0);
}

TEST_CASE("TEXS.F16 and TLD4S.F16 pack two results per register as halves, the first in the low half", "[gpu][graphics][texture]") {
  if (!fs::exists(corpus())) FAIL("corpus folder missing: " << corpus());
  // Texel (1, 1) = (1, 0, 1, 1) at its centre. One result pair: mask code 5 (R, A) -> R0 = half(1) | half(1) << 16
  // = 0x3c003c00; code 6 (G, A) into R1 -> half(0) | half(1) << 16 = 0x3c000000 (both normal floats, so they
  // reach the RGBA32F target unchanged). TLD4S.F16 of red at the centre: (0,1).r = 0, (1,1).r = 1 into R2's
  // halves -> 0x3c000000 (and (1,0).r, (0,0).r into R28 = R3, not an output).
  const auto program = fragment_program({"MOV32I R4, 0x3f400000", "MOV32I R5, 0x3f400000", "TEXS.F16.LZ RZ, R0, R4, R5, 0x0, 2D, RA",
                                         "TEXS.F16.LZ RZ, R1, R4, R5, 0x0, 2D, GA", "MOV32I R6, 0x3f000000", "TLD4S.F16.R R3, R2, R6, R6, 0x0"});
  CHECK(count_wrong(draw(program), [](uint32_t, uint32_t) {
          return Rgb{std::bit_cast<float>(0x3c003c00u), std::bit_cast<float>(0x3c000000u), std::bit_cast<float>(0x3c000000u)};
        }) == 0);
}

TEST_CASE("TEX, TLD and TLD4 with AOFFI read the offsets from the meta register after the LOD", "[gpu][graphics][texture]") {
  if (!fs::exists(corpus())) FAIL("corpus folder missing: " << corpus());
  // TEX.LZ and TLD.LZ have no LOD register, so R6 (R20) holds the offsets: x = 0xf = -1, y = 0x1 = +1 move texel
  // (1, 0) (sampled at its centre (0.75, 0.25), fetched at (1, 0)) to texel (0, 1) = (0, 1, 1, 0).
  const auto tex = fragment_program({"MOV32I R4, 0x3f400000", "MOV32I R5, 0x3e800000", "MOV32I R6, 0x1f", "TEX.LZ.AOFFI R0, R4, R6, 0x0, 2D, 0x7"});
  CHECK(count_wrong(draw(tex), [](uint32_t, uint32_t) { return constant(texel(0, 1, 0), texel(0, 1, 1), texel(0, 1, 2)); }) == 0);
  const auto tld = fragment_program({"MOV32I R4, 0x1", "MOV32I R5, 0x0", "MOV32I R6, 0x1f", "TLD.LZ.AOFFI R0, R4, R6, 0x0, 2D, 0x7"});
  CHECK(count_wrong(draw(tld), [](uint32_t, uint32_t) { return constant(texel(0, 1, 0), texel(0, 1, 1), texel(0, 1, 2)); }) == 0);
  // TLD4.G at the centre with the 6-bit x offset 0x3f = -1: the footprint clamps onto column 0, green of
  // (0,1), (0,1), (0,0) = (1, 1, 0).
  const auto tld4 = fragment_program({"MOV32I R4, 0x3f000000", "MOV32I R5, 0x3f000000", "MOV32I R6, 0x3f", "TLD4.G.AOFFI R0, R4, R6, 0x0, 2D, 0x7"});
  CHECK(count_wrong(draw(tld4), [](uint32_t, uint32_t) { return constant(texel(0, 1, 1), texel(0, 1, 1), texel(0, 0, 1)); }) == 0);
}

/// Every texture unit as a 2x2 D32 texture with depths (0,0) = 0.2, (1,0) = 0.4, (0,1) = 0.6, (1,1) = 0.8, sampled
/// nearest with compare op LESS (1 where the reference < the texel). All units: a depth-compare access may reach
/// any slot of the descriptor array, so every view there must be a depth format.
void use_depth_texture(test::HeadsurfaceScene& scene) {
  const std::array<float, 4> depths{0.2f, 0.4f, 0.6f, 0.8f};
  for (uint32_t unit = 0; unit < test::kTextureUnits; ++unit) {
    scene.textures[unit] = {.width = 2, .height = 2, .half_float = false, .texels = std::vector<uint8_t>(sizeof(depths)), .depth = true};
    std::memcpy(scene.textures[unit].texels.data(), depths.data(), sizeof(depths));
    scene.samplers[unit] = {.linear = false, .address_mode = 2, .compare_less = true};
  }
}

TEST_CASE("depth compare: TEXS.LZ.DC 2D takes the reference from Rb, TEX.DC from the meta register, TLD4S.DC gathers", "[gpu][graphics][texture]") {
  if (!fs::exists(corpus())) FAIL("corpus folder missing: " << corpus());
  // Reference 0.5 in R6. TEXS at texel (1, 0) (depth 0.4): 0.5 < 0.4 is false -> R0 = 0; at texel (0, 1) (0.6)
  // -> R1 = 1; TEX.LZ.DC (meta R6 is the reference: no LOD, no offsets) at texel (1, 1) (0.8) -> R2 = 1.
  const auto sampled = fragment_program({"MOV32I R4, 0x3f400000", "MOV32I R5, 0x3e800000", "MOV32I R8, 0x3e800000", "MOV32I R9, 0x3f400000",
                                         "MOV32I R10, 0x3f400000", "MOV32I R11, 0x3f400000", "MOV32I R6, 0x3f000000",
                                         "TEXS.LZ.DC RZ, R0, R4, R6, 0x0, 2D, R", "TEXS.LZ.DC RZ, R1, R8, R6, 0x0, 2D, R",
                                         "TEX.LZ.DC R2, R10, R6, 0x0, 2D, 0x1"});
  CHECK(count_wrong(draw(sampled, use_depth_texture), [](uint32_t, uint32_t) { return constant(0.0f, 1.0f, 1.0f); }) == 0);
  // TLD4S.DC at the centre: (x, y) = (Ra, Ra+1), reference in Rb; in gather order (0,1) 0.6 -> 1, (1,1) 0.8 -> 1,
  // (1,0) 0.4 -> 0 into R0, R1, R2 (R28).
  const auto gathered = fragment_program({"MOV32I R4, 0x3f000000", "MOV32I R5, 0x3f000000", "MOV32I R6, 0x3f000000", "TLD4S.R.DC R2, R0, R4, R6, 0x0"});
  CHECK(count_wrong(draw(gathered, use_depth_texture), [](uint32_t, uint32_t) { return constant(1.0f, 1.0f, 0.0f); }) == 0);
}

TEST_CASE("TEXS/TLDS/TLD4S forms kiln does not translate yet are named with their address", "[graphics][texture]") {
  if (!fs::exists(corpus())) FAIL("corpus folder missing: " << corpus());
  CHECK_THROWS_WITH(translate(fragment_program({"TLD4S.R.AOFFI.DC R2, R0, R4, R5, 0x0"})),
                    Catch::Contains("code address 0x8") && Catch::Contains("depth compare with texel offsets"));
  // Mask code 5 names no components with two result pairs (the text has no letters for it): set in the word.
  std::vector<uint8_t> invalid_mask = fragment_program({"TEXS R2, R0, R4, R5, 0x0, 2D, RGB"});
  uint64_t texs = 0;
  std::memcpy(&texs, invalid_mask.data() + sm5x::kSphSize + 8, sizeof(texs));  // after the first control word
  texs |= uint64_t{5} << 50;  // component mask 50:3
  std::memcpy(invalid_mask.data() + sm5x::kSphSize + 8, &texs, sizeof(texs));
  CHECK_THROWS_WITH(translate(invalid_mask), Catch::Contains("component mask 5 is invalid with 2 result pair(s)"));
  CHECK_THROWS_WITH(translate(fragment_program({"TLDS.LZ.MS R2, R0, R4, R5, 0x0, 2D, RGB"})), Catch::Contains("multisample"));
  // Offsets the translator cannot see as constants (here from a constant bank) have no ConstOffset form.
  CHECK_THROWS_WITH(translate(fragment_program({"MOV R7, c[0x3][0x0]", "TLDS.LZ.AOFFI R2, R0, R4, R7, 0x0, 2D, RGB"})),
                    Catch::Contains("texel offsets must be constants"));
}
