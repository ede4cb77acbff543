// Every case of the 56 r3000-singlestep files (generated from the ares interpreter), run through kiln's decoder
// and the step interpreter over runtime/core/mips/ops.h: registers, HI/LO, EPC/TAR/Cause, PC, load and branch
// delay state and the data bus accesses must all match.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "recompiler/isa/mips/decoder.h"
#include "runtime/core/mips/step.h"
#include "tests/recompiler/mips/state_vector.h"

namespace {

using namespace kiln;
namespace fs = std::filesystem;

const fs::path corpus_dir = fs::path(KILN_SHARED_DIR) / "corpus" / "r3000-singlestep";

r3000::Cpu cpu_from(const test::VectorState& s) {
  r3000::Cpu c;
  std::copy(std::begin(s.gpr), std::end(s.gpr), c.gpr);
  c.hi = s.hi;
  c.lo = s.lo;
  c.pc = s.pc;
  c.cop0[r3000::cop0::epc] = s.epc;
  c.cop0[r3000::cop0::tar] = s.tar;
  c.cop0[r3000::cop0::cause] = s.cause;
  c.branch = s.branch;
  c.load = s.load;
  return c;
}

/// The first difference between the CPU and the recorded final state, or empty.
std::string difference(const r3000::Cpu& c, const test::VectorState& s) {
  for (unsigned r = 0; r < 32; ++r)
    if (c.gpr[r] != s.gpr[r]) return fmt::format("r{} = {:#010x}, expected {:#010x}", r, c.gpr[r], s.gpr[r]);
  const std::pair<const char*, std::pair<uint32_t, uint32_t>> fields[] = {
      {"hi", {c.hi, s.hi}},
      {"lo", {c.lo, s.lo}},
      {"pc", {c.pc, s.pc}},
      {"epc", {c.cop0[r3000::cop0::epc], s.epc}},
      {"tar", {c.cop0[r3000::cop0::tar], s.tar}},
      {"cause", {c.cop0[r3000::cop0::cause], s.cause}},
  };
  for (const auto& [name, values] : fields)
    if (values.first != values.second) return fmt::format("{} = {:#010x}, expected {:#010x}", name, values.first, values.second);
  if (!(c.branch == s.branch))
    return fmt::format("branch delay ({:#x}, slot {}, taken {}), expected ({:#x}, slot {}, taken {})", c.branch.target,
                       c.branch.slot, c.branch.taken, s.branch.target, s.branch.slot, s.branch.taken);
  r3000::PendingLoad load = c.load;
  if (load.reg == -1) load.value = 0;
  if (!(load == s.load))
    return fmt::format("load delay (r{}, {:#x}), expected (r{}, {:#x})", load.reg, load.value, s.load.reg, s.load.value);
  return {};
}

/// Runs one case; returns why it differs, or empty.
std::string run_case(const mips::Decoder& decoder, const test::VectorCase& v) {
  if (v.initial.pc != v.opcode_address) return "initial PC is not the opcode address";
  if (v.cycles.empty() || v.cycles[0].action != 4 || static_cast<uint32_t>(v.cycles[0].value) != v.opcode)
    return "first bus cycle is not the fetch of the opcode";
  const mips::Instruction instruction = decoder.decode(v.opcode, v.opcode_address);
  if (!instruction.decoded) return instruction.text;
  r3000::Cpu c = cpu_from(v.initial);
  test::VectorBus bus(v.cycles);
  r3000::step(c, bus, instruction.opcode, instruction.word);
  std::string why = difference(c, v.final);
  if (why.empty()) why = bus.finish();
  return why.empty() ? std::string{} : fmt::format("{} ({}): {}", v.name, instruction.text, why);
}

} // namespace

TEST_CASE("r3000 state vectors: every case of every instruction file", "[mips][corpus]") {
  if (!fs::is_directory(corpus_dir)) {
    if (std::getenv("CI")) FAIL("r3000-singlestep corpus missing at " << corpus_dir.string() << " (required in CI)");
    WARN("SKIPPED: r3000-singlestep corpus not found at " << corpus_dir.string());
    return;
  }
  // The corpus holds 55 instruction files (plus its LICENSE); SHL is its name for SH.
  static const char* const instructions[] = {
      "ADD",  "ADDI", "ADDIU", "ADDU", "AND",   "ANDI",  "BCondZ", "BEQ",  "BGTZ", "BLEZ", "BNE",  "BREAK", "DIV",  "DIVU",
      "J",    "JAL",  "JALR",  "JR",   "LB",    "LBU",   "LH",     "LHU",  "LUI",  "LW",   "LWL",  "LWR",   "MFHI", "MFLO",
      "MTHI", "MTLO", "MULT",  "MULTU", "NOR",  "OR",    "ORI",    "SB",   "SHL",  "SLL",  "SLLV", "SLT",   "SLTI", "SLTIU",
      "SLTU", "SRA",  "SRAV",  "SRL",  "SRLV",  "SUB",   "SUBU",   "SW",   "SWL",  "SWR",  "SYSCALL", "XOR", "XORI"};
  std::vector<fs::path> files;
  for (const char* name : instructions) {
    files.push_back(corpus_dir / (std::string(name) + ".json.bin"));
    CHECK(fs::is_regular_file(files.back()));
  }

  const mips::Decoder decoder(r3000::Variant::r3000);
  size_t total = 0, total_passed = 0;
  for (const fs::path& file : files) {
    if (!fs::is_regular_file(file)) continue;
    const auto cases = test::read_state_vectors(file);
    size_t passed = 0;
    std::vector<std::string> failures;
    for (const test::VectorCase& v : cases) {
      const std::string why = run_case(decoder, v);
      if (why.empty()) ++passed;
      else if (failures.size() < 5) failures.push_back(why);
    }
    std::cout << fmt::format("{:<16} {:4}/{}\n", file.stem().stem().string(), passed, cases.size());
    for (const std::string& f : failures) std::cout << "    " << f << "\n";
    total += cases.size();
    total_passed += passed;
    INFO(file.filename().string() << ": first differences:\n" << fmt::format("{}", fmt::join(failures, "\n")));
    CHECK(passed == cases.size());
    CHECK(cases.size() == 1000);
  }
  std::cout << fmt::format("r3000-singlestep: {}/{} cases pass\n", total_passed, total);
}
