// Seed 002 §3 behaviours pinned with hand-assembled fragment programs. Each program computes from literals only
// and leaves its result in R0 (colour 0 red, per the SPH borrowed from corpus program 01); the lowering's
// constant folding evaluates it through the IR's CPU reference (the meaning the SPIR-V backend must match), so
// the colour output becomes a constant we compare with the value derived by hand in each test.
#include <catch2/catch.hpp>
#include <bit>
#include <filesystem>

#include "runtime/base/file_writer.h"
#include "translator/sass/sm5x/lower.h"

namespace {

using namespace kiln::sass::sm5x;
namespace fs = std::filesystem;

constexpr uint64_t kGuardPT = 0x70000;  // guard field 16:3 = PT
Instruction from_word(uint64_t word) { return decode(word, 0, "test"); }

// Template words (fields per encoding_table.cpp): opcode bits in the top 16, guard PT, registers zero.
Instruction mov32i(uint8_t reg, uint32_t value) {
  Instruction i = from_word(0x0100000000000000 | kGuardPT | 0xf000); // MOV32I R0, 0x0 (mask 15 at 12)
  i.operands[0].index = reg;
  i.operands[1].value = value;
  return i;
}
Instruction alu(uint64_t opcode_top, uint8_t d, uint8_t a, uint8_t b) {
  Instruction i = from_word(opcode_top << 48 | kGuardPT);
  i.operands[0].index = d;
  i.operands[1].index = a;
  i.operands[2].index = b;
  return i;
}

/// Assembles `code` (EXIT appended) behind corpus program 01's header and lowers it; returns the constant
/// stored to colour 0 red.
uint32_t run(std::vector<Instruction> code) {
  const fs::path corpus = fs::path(KILN_SHARED_DIR) / "corpus/nvidia-headsurface/maxwell/01_nvidia_headsurface_fragment.bin";
  if (!fs::exists(corpus)) FAIL("corpus program missing: " << corpus);
  std::vector<uint8_t> bytes = kiln::read_file(corpus);
  bytes.resize(kSphSize);
  code.push_back(from_word(0xe30000000007000f)); // EXIT
  while (code.size() % 3 != 0) code.push_back(from_word(0x50b0000000070f00)); // NOP
  std::vector<uint64_t> words;
  for (size_t i = 0; i < code.size(); i += 3) {
    words.push_back(encode_control_word({}, {}, {}));
    for (size_t k = 0; k < 3; ++k) words.push_back(assemble(code[i + k]));
  }
  for (uint64_t word : words) {
    for (int k = 0; k < 8; ++k) bytes.push_back(static_cast<uint8_t>(word >> (8 * k)));
  }
  const kiln::ir::Function function = lower_graphics(decode_program(bytes, "test"));
  for (const kiln::ir::Inst& inst : function.insts) {
    if (inst.op != kiln::ir::Op::StoreAttribute || inst.immediate != 0) continue;
    const kiln::ir::Inst& value = function.insts[inst.args[0]];
    INFO(kiln::ir::to_string(function));
    REQUIRE(value.op == kiln::ir::Op::Const);
    return static_cast<uint32_t>(value.immediate);
  }
  FAIL("no colour output");
  return 0;
}

constexpr uint32_t kNaN = 0x7fc00000;
uint32_t f(float value) { return std::bit_cast<uint32_t>(value); }

} // namespace

TEST_CASE("FMNMX with a NaN operand returns the other operand", "[seed002]") {
  Instruction min = alu(0x5c60, 0, 1, 2);
  min.operands[3].index = 7; // PT selects the minimum
  Instruction max = min;
  max.operands[3].invert = true; // !PT: the maximum
  REQUIRE(disassemble(min) == "FMNMX R0, R1, R2, PT");
  CHECK(run({mov32i(1, kNaN), mov32i(2, f(3.0f)), min}) == f(3.0f));
  CHECK(run({mov32i(1, f(-2.0f)), mov32i(2, kNaN), min}) == f(-2.0f));
  CHECK(run({mov32i(1, kNaN), mov32i(2, f(3.0f)), max}) == f(3.0f));
  CHECK(run({mov32i(1, f(-2.0f)), mov32i(2, f(5.0f)), max}) == f(5.0f));
}

TEST_CASE("FADD.SAT of NaN gives 0", "[seed002]") {
  Instruction add = alu(0x5c58, 0, 1, 2);
  add.modifiers[2] = 1; // SAT (FTZ, rnd, SAT, CC)
  REQUIRE(disassemble(add) == "FADD.SAT R0, R1, R2");
  CHECK(run({mov32i(1, kNaN), mov32i(2, f(1.0f)), add}) == 0u);
}

TEST_CASE("FMUL.FMZ: 0 times infinity or NaN is 0", "[seed002]") {
  Instruction mul = alu(0x5c68, 0, 1, 2);
  mul.modifiers[0] = 2; // fmz = FMZ
  REQUIRE(disassemble(mul) == "FMUL.FMZ R0, R1, R2");
  CHECK(run({mov32i(1, 0), mov32i(2, 0x7f800000), mul}) == 0u);
  CHECK(run({mov32i(1, kNaN), mov32i(2, 0), mul}) == 0u);
  CHECK(run({mov32i(1, f(2.0f)), mov32i(2, f(3.0f)), mul}) == f(6.0f));
  // Without FMZ, IEEE: 0 x Inf is NaN.
  const uint32_t ieee = run({mov32i(1, 0), mov32i(2, 0x7f800000), alu(0x5c68, 0, 1, 2)});
  CHECK(std::isnan(std::bit_cast<float>(ieee)));
}

TEST_CASE("BFE fields past bit 31 as PTX bfe", "[seed002]") {
  Instruction bfe_u = alu(0x5c00, 0, 1, 2); // BFE.U32 R0, R1, R2 (type 0 = U32)
  REQUIRE(disassemble(bfe_u) == "BFE.U32 R0, R1, R2");
  Instruction bfe_s = bfe_u;
  bfe_s.modifiers[0] = 1; // signed
  // Field at 28, 8 bits long: cut at bit 31 -> bits 28-31 of 0xf0000000 = 0xf.
  CHECK(run({mov32i(1, 0xf0000000), mov32i(2, 28 | 8 << 8), bfe_u}) == 0xfu);
  // Signed: the cut field's top bit (31) is set -> sign-extended 0xf -> -1.
  CHECK(run({mov32i(1, 0xf0000000), mov32i(2, 28 | 8 << 8), bfe_s}) == 0xffffffffu);
  // Starting past bit 31: unsigned 0, signed bit 31 repeated.
  CHECK(run({mov32i(1, 0x80000000), mov32i(2, 40 | 4 << 8), bfe_u}) == 0u);
  CHECK(run({mov32i(1, 0x80000000), mov32i(2, 40 | 4 << 8), bfe_s}) == 0xffffffffu);
  // Length 0 extracts 0.
  CHECK(run({mov32i(1, 0xffffffff), mov32i(2, 4), bfe_s}) == 0u);
}

TEST_CASE("BFI drops bits past 31 and inserts nothing past bit 31", "[seed002]") {
  // BFI R0, R1 (insert), R2 (position | length << 8), R3 (base).
  Instruction bfi = from_word(0x5bf0ull << 48 | kGuardPT);
  bfi.operands[0].index = 0;
  bfi.operands[1].index = 1;
  bfi.operands[2].index = 2;
  bfi.operands[3].index = 3;
  REQUIRE(disassemble(bfi) == "BFI R0, R1, R2, R3");
  // 0xff at position 28, 8 bits: only bits 28-31 change: 0x00000000 -> 0xf0000000.
  CHECK(run({mov32i(1, 0xff), mov32i(2, 28 | 8 << 8), mov32i(3, 0), bfi}) == 0xf0000000u);
  // Position 32: the base comes back unchanged.
  CHECK(run({mov32i(1, 0xff), mov32i(2, 32 | 8 << 8), mov32i(3, 0x12345678), bfi}) == 0x12345678u);
  // An ordinary field: 0xa at 4, 4 bits into 0xffffffff -> 0xffffffaf.
  CHECK(run({mov32i(1, 0xa), mov32i(2, 4 | 4 << 8), mov32i(3, 0xffffffff), bfi}) == 0xffffffafu);
}

TEST_CASE("SHF by 0 returns the unshifted word", "[seed002]") {
  // SHF.L R0, R1 (low), R2 (amount), R3 (high) -> high word of (R3:R1) << n; SHF.R -> low word of (R3:R1) >> n.
  Instruction shf_l = from_word(0x5bf8ull << 48 | kGuardPT);
  Instruction shf_r = from_word(0x5cf8ull << 48 | kGuardPT);
  for (Instruction* shf : {&shf_l, &shf_r}) {
    shf->operands[0].index = 0;
    shf->operands[1].index = 1;
    shf->operands[2].index = 2;
    shf->operands[3].index = 3;
  }
  REQUIRE(disassemble(shf_l) == "SHF.L R0, R1, R2, R3");
  CHECK(run({mov32i(1, 0x11111111), mov32i(2, 0), mov32i(3, 0x22222222), shf_l}) == 0x22222222u);
  CHECK(run({mov32i(1, 0x11111111), mov32i(2, 0), mov32i(3, 0x22222222), shf_r}) == 0x11111111u);
  // By 4: (0x22222222:0x11111111) << 4 high word = 0x22222221; >> 4 low word = 0x21111111.
  CHECK(run({mov32i(1, 0x11111111), mov32i(2, 4), mov32i(3, 0x22222222), shf_l}) == 0x22222221u);
  CHECK(run({mov32i(1, 0x11111111), mov32i(2, 4), mov32i(3, 0x22222222), shf_r}) == 0x21111111u);
}
