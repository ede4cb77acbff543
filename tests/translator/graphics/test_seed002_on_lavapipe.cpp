// Seed 002 behaviours (and BRX without a jump table) that need a real pipeline, pinned with hand-assembled Maxwell
// fragment programs drawn on lavapipe behind the corpus vertex program (validation on, zero messages). The
// CPU-side behaviours (FMNMX/.SAT with NaN, FMZ, BFE/BFI past bit 31, SHF by 0) are pinned in
// tests/translator/sm5x_lower.
//
// Every expected value is derived by hand from the program text and the quad layout (lane bit 0 = x & 1,
// bit 1 = y & 1; the window coordinate of pixel (x, y) is x + 0.5).
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/gpu/vulkan/context.h"
#include "tests/translator/graphics/headsurface_renderer.h"
#include "translator/sass/sm5x/program.h"

namespace {

using namespace kiln;
namespace sm5x = sass::sm5x;
namespace fs = std::filesystem;

constexpr uint64_t kGuardPT = 0x70000; // guard field 16:3 = PT


/// A row's template (opcode bits in the top 16, guard PT, every field zero) with `change` applied.
sm5x::Instruction make(uint64_t word, const std::function<void(sm5x::Instruction&)>& change = {}) {
  sm5x::Instruction instruction = sm5x::decode(word, 0, "template");
  if (change) change(instruction);
  return instruction;
}
sm5x::Instruction row(uint16_t top, const std::function<void(sm5x::Instruction&)>& change = {}) {
  return make(uint64_t{top} << 48 | kGuardPT, change);
}

sm5x::Instruction ipa_pass(uint8_t reg, uint32_t address) { // IPA.PASS Rreg, a[address], RZ
  return make(0xe003ff87cff7ff0b, [&](auto& in) { in.operands.at(0).index = reg; in.operands.at(1).value = address; });
}
sm5x::Instruction mov32i(uint8_t reg, uint32_t value) {
  return make(0x0100000000000000 | kGuardPT | 0xf000, [&](auto& in) { in.operands.at(0).index = reg; in.operands.at(1).value = value; });
}
constexpr uint64_t kExit = 0xe30000000007000f;

/// Corpus program 01's SPH (a pixel program writing color0.rgb from R0, R1, R2) with `code` behind it.
std::vector<uint8_t> fragment_program(std::vector<sm5x::Instruction> code, const std::function<void(std::vector<uint8_t>&)>& edit_header = {}) {
  std::vector<uint8_t> bytes = read_file(test::maxwell_corpus() / "01_nvidia_headsurface_fragment.bin");
  bytes.resize(sm5x::kSphSize);
  if (edit_header) edit_header(bytes);
  code.push_back(make(kExit));
  while (code.size() % 3 != 0) code.push_back(make(0x50b0000000070f00)); // NOP
  for (size_t i = 0; i < code.size(); i += 3) {
    uint64_t words[4] = {sm5x::encode_control_word({}, {}, {}), sm5x::assemble(code[i]), sm5x::assemble(code[i + 1]), sm5x::assemble(code[i + 2])};
    const size_t at = bytes.size();
    bytes.resize(at + sizeof(words));
    std::memcpy(bytes.data() + at, words, sizeof(words));
  }
  return bytes;
}

/// Draws the program over the 64x64 viewport behind the corpus vertex program; colour target 0's texels.
std::vector<float> draw(const std::vector<uint8_t>& program, const graphics::TranslateOptions& options = {}) {
  return test::draw_behind_corpus_vertex_program(program, 3, options); // the scene only places the quad
}

} // namespace

TEST_CASE("unwritten components of a vertex output read 0 and 1 in the fragment program (seed 002 1.2)", "[gpu][graphics][seed002]") {
  if (!fs::exists(test::maxwell_corpus())) FAIL("corpus folder missing: " << test::maxwell_corpus());
  // The corpus vertex program writes texcoord0.st (AST.64 a[0x300]) and never its p and q. The fragment program
  // reads texcoord0.p and .q flat (constant interpolation: the values arrive unchanged): they must be 0 and 1.
  //   IPA.PASS R0, a[0x308], RZ ; IPA.PASS R1, a[0x30c], RZ ; MOV32I R2, 0.5 ; EXIT
  const auto program = fragment_program({ipa_pass(0, 0x308), ipa_pass(1, 0x30c), mov32i(2, 0x3f000000)}, [](std::vector<uint8_t>& sph) {
    sph[480 / 8] |= 1 << 4 | 1 << 6; // ImapPixelTexture[0]: components p (bits 4-5) and q (bits 6-7) constant
  });
  CHECK(sm5x::disassemble(sm5x::decode_program(program, "test").instructions.at(1)) == "IPA.PASS R1, a[0x30c], RZ");
  CHECK(test::count_wrong_rgb(draw(program), [](uint32_t, uint32_t) { return std::array<float, 3>{0.0f, 1.0f, 0.5f}; }) == 0);
}

TEST_CASE("KIL demotes: a discarded fragment still feeds its quad's shuffles (seed 002 3.5)", "[gpu][graphics][seed002]") {
  if (!fs::exists(test::maxwell_corpus())) FAIL("corpus folder missing: " << test::maxwell_corpus());
  //   S2R R3, SR_LANEID                  quad lane: bit 0 = x & 1
  //   LOP.AND R3, R3, 0x1
  //   ISETP.NE.AND P0, PT, R3, RZ, PT    P0 = odd x
  //   IPA.PASS R2, a[0x70], RZ           R2 = x + 0.5
  //   @P0 KIL                            odd columns are discarded
  //   SHFL.BFLY PT, R1, R2, 0x1, 0x1c03  R1 = the horizontal neighbour's x: a discarded fragment's value
  //   FADD R0, R1, -R2                   = 1.0 on every even column
  //   EXIT
  // With OpKill the neighbour would have terminated and R1 would be undefined; with demote it still runs as a
  // helper. Even columns: (1.0, x + 1.5, x + 0.5); odd columns keep the clear value.
  const std::vector<sm5x::Instruction> code = {
      row(0xf0c8, [](auto& in) { in.operands.at(0).index = 3; in.operands.at(1).index = 0; }),
      row(0x3840, [](auto& in) { in.operands.at(0).index = 7; in.operands.at(1).index = 3; in.operands.at(2).index = 3; in.operands.at(3).value = 1; }),
      row(0x5b60, [](auto& in) {
        in.modifiers.at(0) = 5; // NE
        in.modifiers.at(1) = 1; // signed
        in.operands.at(0).index = 0; in.operands.at(1).index = 7; in.operands.at(2).index = 3; in.operands.at(3).index = 255;
        in.operands.at(4).index = 7;
      }),
      ipa_pass(2, 0x70),
      make(0xe33000000000000f), // @P0 KIL (guard P0, condition code T)
      make(0xef17700cf0270502, [](auto& in) { in.operands.at(1).index = 1; in.operands.at(2).index = 2; in.operands.at(3).value = 1; }),
      row(0x5c58, [](auto& in) {
        in.operands.at(0).index = 0; in.operands.at(1).index = 1; in.operands.at(2).index = 2; in.operands.at(2).negate = true;
      }),
  };
  const std::string expected_text[] = {"S2R R3, SR_LANEID", "LOP.AND R3, R3, 0x1", "ISETP.NE.AND P0, PT, R3, RZ, PT", "IPA.PASS R2, a[0x70], RZ",
                                       "@P0 KIL", "SHFL.BFLY PT, R1, R2, 0x1, 0x1c03", "FADD R0, R1, -R2"};
  for (size_t i = 0; i < code.size(); ++i) CHECK(sm5x::disassemble(code[i]) == expected_text[i]);
  const auto texels = draw(fragment_program(code));
  CHECK(test::count_wrong_rgb(texels, [](uint32_t x, uint32_t) {
          if (x & 1) return std::array<float, 3>{test::kClearValue, test::kClearValue, test::kClearValue};
          return std::array<float, 3>{1.0f, static_cast<float>(x) + 1.5f, static_cast<float>(x) + 0.5f};
        }) == 0);
}

TEST_CASE("registers read before any write start at zero with the zero-registers option (seed 002 3.12)", "[gpu][graphics][seed002]") {
  if (!fs::exists(test::maxwell_corpus())) FAIL("corpus folder missing: " << test::maxwell_corpus());
  //   MOV R0, R5 ; MOV R1, R6 ; MOV32I R2, 0.25 ; EXIT   (R5 and R6 are never written)
  const auto mov = [](uint8_t d, uint8_t s) {
    return row(0x5c98, [&](auto& in) { in.operands.at(0).index = d; in.operands.at(1).index = s; in.operands.at(2).value = 15; });
  };
  const auto program = fragment_program({mov(0, 5), mov(1, 6), mov32i(2, 0x3e800000)});
  CHECK(sm5x::disassemble(sm5x::decode_program(program, "test").instructions.at(0)) == "MOV R0, R5");
  graphics::TranslateOptions options;
  options.zero_registers = true;
  CHECK(test::count_wrong_rgb(draw(program, options), [](uint32_t, uint32_t) { return std::array<float, 3>{0.0f, 0.0f, 0.25f}; }) == 0);
}

TEST_CASE("a shuffle wider than the fragment quad is an error, not a guess at a 32-lane warp (seed 002 3.4)", "[graphics][seed002]") {
  if (!fs::exists(test::maxwell_corpus())) FAIL("corpus folder missing: " << test::maxwell_corpus());
  // SHFL.BFLY across lane distance 4 (segment mask 0x18 = two quads): the host's fragment subgroup has no 32-lane
  // warp to take it from (lavapipe runs 8 lanes), so the translator must refuse it with the address.
  const auto program = fragment_program({ipa_pass(2, 0x70), make(0xef17700cf0270502, [](auto& in) {
                                           in.operands.at(1).index = 0; in.operands.at(2).index = 2; in.operands.at(3).value = 4;
                                           in.operands.at(4).value = 0x1803;
                                         })});
  CHECK_THROWS_WITH(graphics::translate_graphics(program, graphics::Arch::sm53, "wide_shuffle"),
                    Catch::Contains("code address 0x10") && Catch::Contains("SHFL across more than a quad"));
}

TEST_CASE("TLD4 on a non-NVIDIA host: the gather bias moves a coordinate just below a texel boundary onto it (seed 002 2.10)", "[gpu][graphics][seed002]") {
  if (!fs::exists(test::maxwell_corpus())) FAIL("corpus folder missing: " << test::maxwell_corpus());
  // Texture unit 0 becomes an 8x8 RGBA8 texture whose red is 255 from column 4 on, 0 before. The program gathers
  // red at texel-space s = u * 8 - 0.5 = 3 - 2^-10 (just below the boundary between columns 2|3 and 3|4 of the
  // footprint) and t = v * 8 - 0.5 = 2.25:
  //   MOV32I R4, u ; MOV32I R5, v ; MOV R6, c[0x4][0x0] (unit 0's handle) ; TLD4.B.R R0, R4, R6, 2D, 0x7 ; EXIT
  // With the bias of 8 sub-texel bits (lavapipe's subTexelPrecisionBits) s becomes 3 + 2^-10, whose 8-bit
  // sub-texel position is 3.0 whether the host rounds or truncates: the footprint is columns 3 and 4, rows 2
  // and 3, and the gather returns (texel(3,3), texel(4,3), texel(4,2)).r = (0, 1, 1). A host truncating the
  // unbiased 3 - 2^-10 would pick columns 2 and 3: (0, 0, 0).
  const float u = (3.5f - 0x1p-10f) / 8.0f, v = 2.75f / 8.0f;
  const std::vector<sm5x::Instruction> code = {
      mov32i(4, std::bit_cast<uint32_t>(u)), mov32i(5, std::bit_cast<uint32_t>(v)),
      row(0x4c98, [](auto& in) { in.operands.at(0).index = 6; in.operands.at(1).index = 4; in.operands.at(1).value = 0; in.operands.at(2).value = 15; }),
      row(0xdef8, [](auto& in) {
        in.operands.at(0).index = 0; in.operands.at(1).index = 4; in.operands.at(2).index = 6; in.operands.at(3).value = 1; // 2D
        in.operands.at(4).value = 7;
      }),
  };
  CHECK(sm5x::disassemble(code[2]) == "MOV R6, c[0x4][0x0]");
  CHECK(sm5x::disassemble(code[3]) == "TLD4.B.R R0, R4, R6, 2D, 0x7");

  vulkan::Context context({.validation = true, .synchronization_validation = true});
  std::mt19937_64 random(4);
  test::HeadsurfaceScene scene = test::make_headsurface_scene(random);
  test::SceneTexture& texture = scene.textures[0];
  texture = {.width = 8, .height = 8, .half_float = false, .texels = std::vector<uint8_t>(8 * 8 * 4, 0)};
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 4; x < 8; ++x) texture.texels[(y * 8 + x) * 4] = 255;
  }
  test::HeadsurfaceRenderer renderer(context, scene);
  const auto vertex = graphics::translate_graphics(read_file(test::maxwell_corpus() / "00_nvidia_headsurface_vertex.bin"), graphics::Arch::sm53, "vertex");
  graphics::TranslateOptions options;
  options.backend.descriptor_set = 1;
  options.backend.gather_bias_bits = 8;
  const auto fragment = graphics::translate_graphics(fragment_program(code), graphics::Arch::sm53, "gather_program", options);
  test::BankSet banks;
  banks.vertex[3] = scene.vertex_uniforms;
  banks.fragment[test::kHandleBank] = scene.handles;
  const auto images = renderer.draw(vertex, fragment, std::span(&banks, 1));
  CHECK(test::count_wrong_rgb(images.at(0).targets.at(0), [](uint32_t, uint32_t) { return std::array<float, 3>{0.0f, 1.0f, 1.0f}; }) == 0);
  for (const std::string& message : context.validation_log().messages()) UNSCOPED_INFO(message);
  CHECK(context.validation_log().count() == 0);
}

TEST_CASE("a vertex output the header declares but the code never writes reads (0, 0, 0, 1) (seed 002 1.2)", "[gpu][graphics][seed002]") {
  if (!fs::exists(test::maxwell_corpus())) FAIL("corpus folder missing: " << test::maxwell_corpus());
  // The corpus vertex program with generic0 (a[0x80..0x8c]) added to its header's output map (VTG Omap bit
  // 400 + address / 4), which its code never writes; the fragment program reads generic0.x, .y and .w flat.
  //   IPA.PASS R0, a[0x80], RZ ; IPA.PASS R1, a[0x84], RZ ; IPA.PASS R2, a[0x8c], RZ ; EXIT   -> (0, 0, 1)
  std::vector<uint8_t> vertex_bytes = read_file(test::maxwell_corpus() / "00_nvidia_headsurface_vertex.bin");
  for (unsigned bit = 400 + 0x80 / 4; bit < 400 + 0x90 / 4; ++bit) vertex_bytes[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
  const auto program = fragment_program({ipa_pass(0, 0x80), ipa_pass(1, 0x84), ipa_pass(2, 0x8c)}, [](std::vector<uint8_t>& sph) {
    sph[192 / 8] |= 0x55; // ImapGenericVector[0]: x, y, z, w constant (2 bits each)
  });
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  std::mt19937_64 random(5);
  const test::HeadsurfaceScene scene = test::make_headsurface_scene(random);
  test::HeadsurfaceRenderer renderer(context, scene);
  const auto vertex = graphics::translate_graphics(vertex_bytes, graphics::Arch::sm53, "vertex_with_generic0");
  graphics::TranslateOptions options;
  options.backend.descriptor_set = 1;
  const auto fragment = graphics::translate_graphics(program, graphics::Arch::sm53, "generic0_reader", options);
  test::BankSet banks;
  banks.vertex[3] = scene.vertex_uniforms;
  const auto images = renderer.draw(vertex, fragment, std::span(&banks, 1));
  CHECK(test::count_wrong_rgb(images.at(0).targets.at(0), [](uint32_t, uint32_t) { return std::array<float, 3>{0.0f, 0.0f, 1.0f}; }) == 0);
  for (const std::string& message : context.validation_log().messages()) UNSCOPED_INFO(message);
  CHECK(context.validation_log().count() == 0);
}

TEST_CASE("BRX without a jump table reaches every block start and discards a fragment whose target starts none", "[gpu][graphics][brx]") {
  if (!fs::exists(test::maxwell_corpus())) FAIL("corpus folder missing: " << test::maxwell_corpus());
  // Issue 19 point 3. The target comes from the quad lane (bit 0 = x & 1, bit 1 = y & 1), not from a table:
  //   0x08 S2R R3, SR_LANEID ; 0x10 LOP.AND R3, R3, 0x3 ; 0x18 SHL R4, R3, 0x5
  //   0x28 MOV32I R2, 0x3f000000 (0.5) ; 0x30 NOP ; 0x38 BRX R4, 0x8        -> lane * 32 + 0x40 + 8
  //   0x48 MOV32I R0, 1 ; 0x50 MOV32I R1, 1 ; 0x58 EXIT      lane 0: (1, 1, 0.5)
  //   0x68 MOV32I R0, 2 ; 0x70 MOV32I R1, 2 ; 0x78 NOP       lane 1: (2, 5, 0.5), falling through
  //   0x88 MOV32I R1, 5 ; 0x90 NOP ; 0x98 EXIT               lane 2: 0x88 is inside a block: discarded
  //   0xa8 MOV32I R0, 4 ; 0xb0 MOV32I R1, 4 ; 0xb8 EXIT      lane 3: (4, 4, 0.5)
  const auto s2r = row(0xf0c8, [](auto& in) { in.operands.at(0).index = 3; in.operands.at(1).index = 0; });
  const auto lop = row(0x3840, [](auto& in) { in.operands.at(0).index = 7; in.operands.at(1).index = 3; in.operands.at(2).index = 3; in.operands.at(3).value = 3; });
  const auto shl = row(0x3848, [](auto& in) { in.operands.at(0).index = 4; in.operands.at(1).index = 3; in.operands.at(2).value = 5; });
  const auto brx = row(0xe250, [](auto& in) {
    in.operands.at(0).index = 4;
    in.operands.at(1).value = 8;
    in.modifiers.at(1) = 15; // condition code T
  });
  const auto nop = make(0x50b0000000070f00);
  const auto exit = make(kExit);
  const auto one = [](float v) { return std::bit_cast<uint32_t>(v); };
  const std::vector<sm5x::Instruction> code = {
      s2r, lop, shl, mov32i(2, one(0.5f)), nop, brx,
      mov32i(0, one(1.0f)), mov32i(1, one(1.0f)), exit,
      mov32i(0, one(2.0f)), mov32i(1, one(2.0f)), nop,
      mov32i(1, one(5.0f)), nop, exit,
      mov32i(0, one(4.0f)), mov32i(1, one(4.0f)), exit,
  };
  const std::string expected_text[] = {"S2R R3, SR_LANEID", "LOP.AND R3, R3, 0x3", "SHL R4, R3, 0x5", "MOV32I R2, 0x3f000000", "NOP", "BRX R4, 0x8"};
  for (size_t i = 0; i < std::size(expected_text); ++i) CHECK(sm5x::disassemble(code[i]) == expected_text[i]);
  const auto texels = draw(fragment_program(code));
  CHECK(test::count_wrong_rgb(texels, [](uint32_t x, uint32_t y) {
          switch ((x & 1) | (y & 1) << 1) {
          case 0: return std::array<float, 3>{1.0f, 1.0f, 0.5f};
          case 1: return std::array<float, 3>{2.0f, 5.0f, 0.5f};
          case 3: return std::array<float, 3>{4.0f, 4.0f, 0.5f};
          default: return std::array<float, 3>{test::kClearValue, test::kClearValue, test::kClearValue};
          }
        }) == 0);
}
