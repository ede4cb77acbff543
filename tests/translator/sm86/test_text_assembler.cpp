// kiln's SM86 text assembler (translator/sass/sm86/text_assembler.h) against NVIDIA's nvdisasm: every instruction
// of the listings, assembled from nvdisasm's text with the listed word's control bits, must be the listed word,
// but for the operands nvdisasm does not print (the uniform registers holding sm_86 global memory descriptors,
// which ptxas allocates and the text cannot say; the assembler gives them the table's default).
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <map>

#include "runtime/base/error.h"
#include "tests/translator/sm86/nvdisasm_listing.h"
#include "translator/sass/sm86/encoding_table.h"
#include "translator/sass/sm86/text_assembler.h"

namespace sm86 = kiln::sass::sm86;
namespace fs = std::filesystem;

namespace {

/// The bits of the operands a form never prints.
sm86::Word128 hidden_bits(const sm86::Form& form) {
  sm86::Word128 mask;
  for (const sm86::OperandSpec& spec : form.operands) {
    if (!spec.hidden) continue;
    for (const sm86::BitField field : {spec.field, spec.field_high}) {
      if (field.present()) mask.set_field(field.lsb, field.width, ~uint64_t{0} >> (64 - field.width));
    }
  }
  return mask;
}

struct Tally {
  size_t total = 0, equal = 0, hidden_only = 0;
  std::map<std::string, size_t> failures; // by opcode
  std::vector<std::string> examples;

  void check(const sm86::testing::ListedInstruction& listed, sm86::Architecture architecture) {
    ++total;
    const sm86::Control control = sm86::decode(listed.word, listed.offset, {"listing", "", 0}, architecture).control;
    std::string problem;
    try {
      const sm86::Word128 word = sm86::assemble_sass(listed.text, listed.offset, control, architecture);
      if (word == listed.word) {
        ++equal;
        return;
      }
      const sm86::Instruction ours = sm86::decode(word, listed.offset, {"assembled", "", 0}, architecture);
      const sm86::Word128 mask = hidden_bits(sm86::encoding_forms()[ours.form]);
      if (((word.low ^ listed.word.low) & ~mask.low) == 0 && ((word.high ^ listed.word.high) & ~mask.high) == 0) {
        ++equal;
        ++hidden_only;
        return;
      }
      problem = fmt::format("0x{:016x}{:016x}", word.high, word.low);
    } catch (const kiln::Error& error) {
      problem = error.what();
    }
    const std::string mnemonic = listed.text.substr(listed.text.starts_with('@') ? listed.text.find(' ') + 1 : 0);
    if (failures[mnemonic.substr(0, mnemonic.find_first_of(" ."))]++ < 2) {
      examples.push_back(fmt::format("{:04x} {} (0x{:016x}{:016x}): {}", listed.offset, listed.text, listed.word.high, listed.word.low, problem));
    }
  }
  std::string report() const {
    std::string text = fmt::format("{} of {} assembled to nvdisasm's word ({} of them but for unprinted operands)\n", equal, total, hidden_only);
    for (const auto& [opcode, count] : failures) text += fmt::format("  {}: {}\n", opcode, count);
    for (const auto& example : examples) text += "  " + example + "\n";
    return text;
  }
};

} // namespace

TEST_CASE("sm86 text assembler: nvdisasm's text of every listed instruction assembles to its word", "[sm86][assembler]") {
  struct Corpus {
    fs::path folder;
    sm86::Architecture architecture;
  };
  const Corpus corpora[] = {
      {fs::path(KILN_SOURCE_DIR) / "tests" / "translator" / "fixtures" / "sm86", sm86::Architecture::sm86},
      {fs::path(KILN_SOURCE_DIR) / "tests" / "translator" / "fixtures" / "sm75", sm86::Architecture::sm75},
      {fs::path(KILN_SHARED_DIR) / "corpus" / "nvidia-headsurface" / "turing" / "nvdisasm", sm86::Architecture::sm75},
  };
  for (const Corpus& corpus : corpora) {
    REQUIRE(fs::is_directory(corpus.folder));
    Tally tally;
    for (const auto& entry : fs::directory_iterator(corpus.folder)) {
      if (entry.path().extension() != ".sass") continue;
      for (const auto& listed : sm86::testing::read_nvdisasm_listing(entry.path())) tally.check(listed, corpus.architecture);
    }
    INFO(corpus.folder.string() << ": " << tally.report());
    WARN(fmt::format("{}: {} of {} instructions assembled from nvdisasm's text to its word ({} of them but for operands nvdisasm "
                     "does not print)",
                     corpus.folder.filename().string(), tally.equal, tally.total, tally.hidden_only));
    CHECK(tally.total > 3000);
    CHECK(tally.equal == tally.total);
  }
}

TEST_CASE("sm86 text assembler: programs end with the branch to itself, bad lines name the nearest reading", "[sm86][assembler]") {
  const std::vector<sm86::Word128> code = sm86::assemble_program({"MOV R0, c[0x2][0x10]", "EXIT"});
  REQUIRE(code.size() == 8); // two instructions, BRA to itself at 0x20, NOPs to 128 bytes
  const auto bra = sm86::decode(code[2], 0x20, {"program", "", 0});
  CHECK(sm86::disassemble(bra) == "BRA 0x20");
  CHECK(sm86::disassemble(sm86::decode(code[7], 0x70, {"program", "", 0})) == "NOP");
  // Every instruction waits on scoreboard 0, which the variable-latency ones set, after 15 stall cycles.
  const auto mov = sm86::decode(code[0], 0, {"program", "", 0});
  CHECK(mov.control.stall == 15);
  CHECK(mov.control.wait_mask == 1);
  CHECK(mov.control.write_barrier == 7);
  CHECK(sm86::decode(sm86::assemble_program({"IPA.PASS R0, a[0x7c]"})[0], 0, {"program", "", 0}).control.write_barrier == 0);
  CHECK_THROWS_WITH(sm86::assemble_sass("FADD R1, R2"), "cannot assemble 'FADD R1, R2' (nearest: 'no form of FADD takes these operands')");
  CHECK_THROWS_WITH(sm86::assemble_sass("FADD.XYZ R1, R2, R3"), "cannot assemble 'FADD.XYZ R1, R2, R3': 'XYZ' is no modifier");
  CHECK_THROWS_WITH(sm86::assemble_sass("FADD R1, R2, R300"), "cannot assemble 'FADD R1, R2, R300' (nearest: 'no form of FADD takes these operands')");
}
