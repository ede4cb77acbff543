// Hand-checked words: each expectation is derived from the field positions cited beside it (envytools
// envydis/gm107.c unless said otherwise), not from kiln's own output.
#include <bit>
#include <map>

#include <catch2/catch.hpp>

#include "runtime/base/error.h"
#include "translator/sass/sm5x/encoding_table.h"
#include "translator/sass/sm5x/program.h"
#include "translator/sass/sm5x/text_assembler.h"

namespace kiln::sass::sm5x::test {
namespace {

std::string text_of(uint64_t word, uint64_t address = 0) { return disassemble(decode(word, address)); }

TEST_CASE("sm5x: every table row parses and no earlier row hides it", "[sm5x]") {
  const std::vector<Encoding>& rows = encodings();
  REQUIRE(rows.size() == encoding_rows().size());
  for (size_t i = 0; i < rows.size(); ++i) {
    INFO(opcode_name(rows[i].opcode) << " row " << i);
    size_t first = 0;
    while ((rows[i].match & rows[first].mask) != rows[first].match) ++first;
    CHECK(first == i);
  }
}

TEST_CASE("sm5x: hand-derived disassembly of corpus words", "[sm5x]") {
  // FFMA register form 0x5980/0xff80: d 0:8, a 8:8, b 20:8, c 39:8, FTZ/FMZ 53:2 (1 = FTZ), guard 16:4 = PT.
  CHECK(text_of(0x59a0000000970101) == "FFMA.FTZ R1, R1, R9, R0");
  // FSETP register form 0x5bb0: compare 48:4 (4 = GT), FTZ 47, boolean op 45:2 (0 = AND), first destination
  // predicate 3:3 (P0), second 0:3 (7 = PT), a 8:8 (R3), b 20:8 (R2), combining predicate 39:3 (PT).
  CHECK(text_of(0x5bb4838000270307) == "FSETP.GT.FTZ.AND P0, PT, R3, R2, PT");
  // IADD32I 0x1c00/0xfe80: d 0:8, a 8:8, 32-bit literal 20:32 = bits 48-51 0xf, 32-47 0xffff, 20-31 0xffe
  // (bits 16-19 are the PT guard) = 0xfffffffe = -2.
  CHECK(text_of(0x1c0fffffffe71d1d) == "IADD32I R29, R29, -0x2");
  // TEX.B 0xdeb8: d 0:8 (R12), a 8:8 (R6), handle 20:8 (R12), array 28, dimension 29:2 (1 = 2D),
  // component mask 31:4 (0b0111), NODEP 49.
  CHECK(text_of(0xdeba0003a0c7060c) == "TEX.B.NODEP R12, R6, R12, 2D, 0x7");
  // ALD 0xefd8: d 0:8 (R8), base 8:8 (RZ), offset 20:10 (0x100), vertex 39:8 (RZ, omitted), size 47:2 (1 = 64).
  CHECK(text_of(0xefd8ff801007ff08) == "ALD.64 R8, a[0x100]");
  // SSY 0xe290 (no guard): target = address + 8 + signed 20:24 (0x1738) = 0x30 + 8 + 0x1738.
  CHECK(text_of(0xe290000173800000, 0x30) == "SSY 0x1770");
  // BRA 0xe240: signed 20:24 = -8 jumps to itself; condition code 0:5 = 0xf (always) prints nothing.
  CHECK(text_of(0xe2400fffff87000f, 0x110) == "BRA 0x110");
  // I2F 0x4cb8 with c[bank 34:5][offset 20:14 * 4]: bank 3, word 5; destination type 8:2 (2 = F32), source
  // type 10:2 + signed 13 (2 = U32). nvdisasm 11.8 writes a space between bank and offset on operands that take a
  // part selector, as its sm_50 listings of I2F and XMAD show ("I2F.F32.S32.RP R5, |c[0x0] [0x15c]|").
  CHECK(text_of(0x4cb8000c00570a00) == "I2F.F32.U32 R0, c[0x3] [0x14]");
  // IPA 0xe000: mode 54:2 (0 = PASS), attribute 28:10 (0x7c = position.w), multiplier 20:8 (RZ).
  CHECK(text_of(0xe003ff87cff7ff0b) == "IPA.PASS R11, a[0x7c], RZ");
  // F2F 0x5ca8: FTZ 44, round 39:2 + 42 (1 + 4 = FLOOR), destination 8:2 and source 10:2
  // (2 = F32; the CUDA 11.8 listings settle the order: __double2float is F2F.F32.F64).
  CHECK(text_of(0x5ca8148000270a02) == "F2F.FTZ.F32.F32.FLOOR R2, R2");
  // DEPBAR 0xf0f0: scoreboard 26:3 (5), count 20:6 (4), LE 29.
  CHECK(text_of(0xf0f0000034470000) == "DEPBAR.LE SB5, 0x4");
}

TEST_CASE("sm5x: assembling hand-built forms gives hand-built words", "[sm5x]") {
  // FMUL.FTZ R9, R9, 0.75 in the 20-bit float form 0x3868/0xfef8: 0.75f = 0x3f400000 keeps its top 20 bits
  // (0x3f400) at 20:19 with the sign at 56; FTZ = fmz 44:2 value 1; guard PT = 7 at 16.
  const uint64_t expected = 0x3868000000000000 | (uint64_t{1} << 44) | (uint64_t{0x3f400} << 20) | (7u << 16) | (9u << 8) | 9u;
  REQUIRE(expected == 0x3868103f40070909);
  Instruction fmul = decode(expected, 0);
  CHECK(disassemble(fmul) == "FMUL.FTZ R9, R9, 0.75");
  CHECK(fmul.operands[2].kind == OperandKind::float32);
  CHECK(std::bit_cast<float>(static_cast<uint32_t>(fmul.operands[2].value)) == 0.75f);
  fmul.operands[2].value = std::bit_cast<uint32_t>(-2.0f);  // 0xc0000000: sign bit lands in 56
  CHECK(assemble(fmul) == (expected & ~(uint64_t{0x7ffff} << 20)) + (uint64_t{0x40000} << 20) + (uint64_t{1} << 56));
  CHECK(disassemble(decode(assemble(fmul), 0)) == "FMUL.FTZ R9, R9, -2");

  // @!P2 EXIT: guard 16:3 = 2 with negation 19; condition code 0:5 = 0xf.
  Instruction exit = decode(0xe30000000007000f, 0);
  exit.guard = 2;
  exit.guard_negated = true;
  CHECK(assemble(exit) == 0xe3000000000a000f);
  CHECK(disassemble(exit) == "@!P2 EXIT");
}

// The text assembler reads the notation the disassembler prints (TEXS.LL RZ, R0, R4, R6, 0x0, 2D, GA): every
// TEXS/TLDS/TLD4S word whose enumerated fields (target, component mask, modifiers) take any value, with one and
// with two result registers, prints as text that assembles back to the same word. The counts come from the row
// notation's value lists: TEXS 14 targets, TLDS 9, masks 8 with one register and 5 with two, TLD4S 4 components.
TEST_CASE("sm5x: TEXS, TLDS and TLD4S text assembles back to every word of their rows", "[sm5x]") {
  std::map<Opcode, size_t> round_trips;
  for (const Encoding& row : encodings()) {
    if (row.opcode != Opcode::texs && row.opcode != Opcode::tlds && row.opcode != Opcode::tld4s) continue;
    uint64_t enumerated = 0;
    for (const OperandSpec& operand : row.operands) {
      if (operand.form == OperandForm::enumerant || operand.component_mask) enumerated |= operand.field.mask();
    }
    for (const ModifierSpec& modifier : row.modifiers) enumerated |= modifier.field.mask();
    // d R0 (0:8), a R4 (8:8), b R6 (20:8), texture 0x5 (36:13), second destination at 28:8; guard PT.
    const uint64_t registers = 0x00 | (4u << 8) | (7u << 16) | (6u << 20) | (uint64_t{5} << 36);
    for (const uint64_t second_destination : {uint64_t{kRZ}, uint64_t{2}}) {
      uint64_t values = 0;
      do {  // every subset of the enumerated bits
        const uint64_t word = row.match | registers | (second_destination << 28) | values;
        values = (values - enumerated) & enumerated;
        std::string text;
        try {
          text = disassemble(decode(word, 0));
        } catch (const Error&) {
          continue;  // a value the row lists as '?'
        }
        if (text.find('?') != std::string::npos) continue;  // a mask naming no components
        INFO(std::hex << word << " " << text);
        CHECK(assemble_sass(text) == word);
        ++round_trips[row.opcode];
      } while (values != 0);
    }
  }
  CHECK(round_trips[Opcode::texs] == 14 * (8 + 5) * 4);   // x prec x NODEP
  CHECK(round_trips[Opcode::tlds] == 9 * (8 + 5) * 4);
  CHECK(round_trips[Opcode::tld4s] == 4 * 16 * 2);        // x F16, AOFFI, DC, NODEP x both destinations
  // The listings' forms, and what is not a form: letters that name no mask, a target's suffix it does not have.
  // Words and text from the sm_50 listing of texture_surface.cu (its .T/.P reuse flags live in the control word).
  CHECK(assemble_sass("TEXS.LL RZ, R10, R2, R16, 0x50, 2D, RG") == 0xd870050ff107020a);
  CHECK(assemble_sass("TLDS.LZ RZ, R5, R5, 0x50, 1D, R") == 0xda00050ffff70505);
  CHECK_THROWS_WITH(assemble_sass("TEXS RZ, R0, R4, R6, 0x0, 2D, RGBA"), Catch::Contains("cannot assemble"));
  CHECK_THROWS_WITH(assemble_sass("TLDS.DC RZ, R0, R4, R6, 0x0, 2D, R"), Catch::Contains("cannot assemble"));
}

TEST_CASE("sm5x: bad words and bad forms are clean errors", "[sm5x]") {
  // No row starts 0x0000: the all-zero word is not an instruction.
  CHECK_THROWS_WITH(decode(0, 0x18, "prog.bin"), Catch::Contains("prog.bin: offset 0x18") &&
                                                     Catch::Contains("unknown SM5x instruction 0x0000000000000000"));
  // FFMA's register form has no field at bits 28-38: a set bit there is an unknown encoding, named with its word.
  CHECK_THROWS_WITH(decode(0x59a0000040970101, 8), Catch::Contains("0x59a0000040970101") && Catch::Contains("FFMA") &&
                                                       Catch::Contains("0x40000000"));
  // F2F destination type 0 is not a float type.
  CHECK_THROWS_AS(decode(0x5ca8148000270202, 0), Error);

  Instruction iadd = decode(0x1c0fffffffe71d1d, 0);
  iadd.operands[2].value = int64_t{1} << 40;
  CHECK_THROWS_WITH(assemble(iadd), Catch::Contains("does not fit"));
  Instruction fmul = decode(0x3868103f40070909, 0);
  fmul.operands[2].value = std::bit_cast<uint32_t>(0.1f);  // needs more than 20 bits
  CHECK_THROWS_WITH(assemble(fmul), Catch::Contains("20 bits"));
  Instruction ssy = decode(0xe290000173800000, 0x30);
  ssy.guard = 0;
  CHECK_THROWS_WITH(assemble(ssy), Catch::Contains("cannot be predicated"));
}

TEST_CASE("sm5x: malformed programs name the file and offset", "[sm5x]") {
  std::vector<uint8_t> bytes(kSphSize + 4 * 8, 0);
  CHECK_THROWS_WITH(decode_program(bytes, "zero.bin"), Catch::Contains("zero.bin") && Catch::Contains("SPH type 0"));
  bytes[0] = 0x61;  // VTG, version 3
  bytes[1] = 0x04;  // shader type 1 = vertex
  bytes[kSphSize + 8] = 0x0f;  // instruction slot 1 (file offset 0x58) holds a word no row matches
  CHECK_THROWS_WITH(decode_program(bytes, "bad.bin"), Catch::Contains("bad.bin: offset 0x58") &&
                                                         Catch::Contains("0x000000000000000f"));
  bytes.resize(kSphSize + 12);
  CHECK_THROWS_WITH(decode_program(bytes, "short.bin"), Catch::Contains("short.bin") && Catch::Contains("multiple of 8"));
  CHECK_THROWS_WITH(decode_program(std::vector<uint8_t>(8, 0), "tiny.bin"), Catch::Contains("too short"));
}

TEST_CASE("sm5x: control words pack three instructions' scheduling", "[sm5x]") {
  // maxas layout, 21 bits per slot: stall 0:4, yield 4, write barrier 5:3, read barrier 8:3, wait 11:6, reuse 17:4.
  // 0x001c4400fe200711 -> slot 0 = 0x00711: stall 1, yield 1, write SB0, read none (7), wait 0.
  const std::vector<Scheduling> slots = decode_control_word(0x001c4400fe200711);
  CHECK(slots[0] == Scheduling{1, true, 0, 7, 0, 0});
  CHECK(encode_control_word(slots[0], slots[1], slots[2]) == 0x001c4400fe200711);
  CHECK_THROWS_AS(decode_control_word(uint64_t{1} << 63), Error);
}

} // namespace
} // namespace kiln::sass::sm5x::test

#include <random>

namespace kiln::sass::sm5x::test {
namespace {

// The fuzz target's property, run deterministically in every build: random words (fully random, and random
// within each row's opcode so that many decode) either fail with kiln::Error or re-assemble to themselves.
TEST_CASE("sm5x: random words round-trip or fail cleanly", "[sm5x]") {
  std::mt19937_64 random(5);
  size_t decoded = 0;
  size_t rejected = 0;
  auto check = [&](uint64_t word) {
    Instruction instruction;
    try {
      instruction = decode(word, 0x100);
    } catch (const Error&) {
      ++rejected;
      return;
    }
    ++decoded;
    INFO(std::hex << word << " " << disassemble(instruction));
    REQUIRE(assemble(instruction) == word);
  };
  for (int i = 0; i < 20000; ++i) check(random());
  for (const Encoding& row : encodings()) {
    for (int i = 0; i < 200; ++i) {
      const uint64_t noise = random() & ~row.mask;
      check(row.match | (noise & row.covered));  // bits only in fields: these should mostly decode
      check(row.match | noise);                  // any bits: mostly rejected as unknown encodings
    }
  }
  CHECK(decoded > 10000);
  CHECK(rejected > 10000);
}

} // namespace
} // namespace kiln::sass::sm5x::test
