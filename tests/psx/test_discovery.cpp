// The MIPS emitter's function discovery and C++ output on a hand-assembled program: JAL targets, a code pointer
// built by LUI+ADDIU, a GCC-shaped jump table, a string pointer past the code that must not become a function,
// and an undecodable word reported with its address and encoding.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>

#include "recompiler/emit/mips/function_discovery.h"
#include "recompiler/emit/mips/function_writer.h"
#include "recompiler/pipeline/function_body.h"

using namespace kiln::mips;

namespace {

constexpr uint32_t base = 0x80010000u;
constexpr unsigned zero = 0, at = 1, v0 = 2, a0 = 4, a1 = 5, t0 = 8, t1 = 9, t2 = 10, ra = 31;

uint32_t jump_index(uint32_t target) { return (target >> 2) & 0x03FFFFFFu; }
uint32_t branch_offset(uint32_t from, uint32_t target) { return ((target - (from + 4)) >> 2) & 0xFFFFu; }

std::vector<uint8_t> program() {
  std::map<uint32_t, uint32_t> words = {
      // entry
      {0x00, assemble(Opcode::jal, {.imm = jump_index(base + 0x40)})},
      {0x04, assemble(Opcode::addiu, {.rs = zero, .rt = a0, .imm = 1})},
      {0x08, assemble(Opcode::lui, {.rt = v0, .imm = 0x8001})},
      {0x0C, assemble(Opcode::addiu, {.rs = v0, .rt = v0, .imm = 0x00A0})}, // code pointer: 800100A0h
      {0x10, assemble(Opcode::lui, {.rt = a1, .imm = 0x8001})},
      {0x14, assemble(Opcode::addiu, {.rs = a1, .rt = a1, .imm = 0x0210})}, // string pointer: 80010210h
      {0x18, assemble(Opcode::jal, {.imm = jump_index(base + 0xB0)})},
      {0x1C, 0},
      {0x20, assemble(Opcode::jal, {.imm = jump_index(base + 0xC0)})},
      {0x24, 0},
      {0x28, assemble(Opcode::jr, {.rs = ra})},
      {0x2C, 0},
      // 80010040h: switch (a0) with 3 cases, as GCC lays it out
      {0x40, assemble(Opcode::sltiu, {.rs = a0, .rt = t0, .imm = 3})},
      {0x44, assemble(Opcode::beq, {.rs = t0, .rt = zero, .imm = branch_offset(base + 0x44, base + 0x80)})},
      {0x48, assemble(Opcode::sll, {.rt = a0, .rd = t1, .sa = 2})},
      {0x4C, assemble(Opcode::lui, {.rt = t2, .imm = 0x8001})},
      {0x50, assemble(Opcode::addiu, {.rs = t2, .rt = t2, .imm = 0x0200})},
      {0x54, assemble(Opcode::addu, {.rs = t1, .rt = t2, .rd = t1})},
      {0x58, assemble(Opcode::lw, {.rs = t1, .rt = t1, .imm = 0})},
      {0x5C, 0},
      {0x60, assemble(Opcode::jr, {.rs = t1})},
      {0x64, 0},
      {0x68, assemble(Opcode::jr, {.rs = ra})}, {0x6C, assemble(Opcode::addiu, {.rs = zero, .rt = v0, .imm = 10})},
      {0x70, assemble(Opcode::jr, {.rs = ra})}, {0x74, assemble(Opcode::addiu, {.rs = zero, .rt = v0, .imm = 11})},
      {0x78, assemble(Opcode::jr, {.rs = ra})}, {0x7C, assemble(Opcode::addiu, {.rs = zero, .rt = v0, .imm = 12})},
      {0x80, assemble(Opcode::jr, {.rs = ra})}, {0x84, assemble(Opcode::addiu, {.rs = zero, .rt = v0, .imm = 0xFFFF})},
      // 800100A0h: reached only through the pointer
      {0xA0, assemble(Opcode::jr, {.rs = ra})}, {0xA4, 0},
      // 800100B0h: an undecodable word (primary opcode 3Fh does not exist on the R3000A)
      {0xB0, 0xFC000000u}, {0xB4, assemble(Opcode::jr, {.rs = ra})}, {0xB8, 0},
      // 800100C0h: a BIOS call stub, printf = A(3Fh)
      {0xC0, assemble(Opcode::addiu, {.rs = zero, .rt = t2, .imm = 0xA0})},
      {0xC4, assemble(Opcode::jr, {.rs = t2})},
      {0xC8, assemble(Opcode::addiu, {.rs = zero, .rt = t1, .imm = 0x3F})},
      // data: the jump table, then a string
      {0x200, base + 0x68}, {0x204, base + 0x70}, {0x208, base + 0x78},
      {0x210, 0x6D617266u /* "fram" */}, {0x214, 0x00000065u /* "e" */},
  };
  std::vector<uint8_t> bytes(0x220, 0);
  for (const auto& [offset, word] : words) std::memcpy(&bytes[offset], &word, 4);
  return bytes;
}

} // namespace

TEST_CASE("mips discovery finds calls, code pointers and jump tables, not strings", "[psx]") {
  const Decoder decoder(Variant::r3000);
  const ProgramImage image(program(), base, base, decoder, "hand.exe");
  std::vector<uint32_t> starts;
  for (const Function& f : image.functions()) starts.push_back(f.start);
  CHECK(starts == std::vector<uint32_t>{base, base + 0x40, base + 0xA0, base + 0xB0, base + 0xC0});
  REQUIRE(image.jump_tables().count(base + 0x60) == 1);
  const JumpTable& table = image.jump_tables().at(base + 0x60);
  CHECK(table.table_address == base + 0x200);
  CHECK(table.targets == std::vector<uint64_t>{base + 0x68, base + 0x70, base + 0x78});
  CHECK(image.unresolved_jumps().empty());
  CHECK(image.constant_jumps() == std::map<uint64_t, uint64_t>{{base + 0xC4, 0xA0}});
}

TEST_CASE("mips emitter runs the delay slot between a branch and its transfer", "[psx]") {
  const Decoder decoder(Variant::r3000);
  const ProgramImage image(program(), base, base, decoder, "hand.exe");
  std::string out;
  std::vector<kiln::pipeline::UntranslatedInstruction> untranslated;
  for (const Function& f : image.functions()) write_function(image, f, out, untranslated);
  // JAL at 80010000h: the call's semantics, then its delay slot (ADDIU at 80010004h), then the host call.
  const size_t jal = out.find("kiln::r3000::jal(c, bus, 0x0c004010u, 0x80010000u)");
  const size_t slot = out.find("kiln::r3000::take_issued_branch(c); kiln::r3000::addiu(c, bus, 0x24040001u, 0x80010004u)");
  const size_t call = out.find("f_80010040(m); if (c.pc != 0x80010008u) [[unlikely]] { kiln_platform::returned_elsewhere(m, 0x80010000u");
  REQUIRE(jal != std::string::npos);
  REQUIRE(slot != std::string::npos);
  REQUIRE(call != std::string::npos);
  CHECK(jal < slot);
  CHECK(slot < call);
  // retire_load only where a load can be in flight: after the LW at 80010058h and at the NOP after it, not
  // after the SLL at 80010048h (its predecessor is a branch).
  CHECK(out.find("0x80010058u); kiln::r3000::retire_load(c);") != std::string::npos);
  CHECK(out.find("0x8001005cu); kiln::r3000::retire_load(c);") != std::string::npos);
  CHECK(out.find("0x80010048u); kiln::r3000::retire_load(c);") == std::string::npos);
  CHECK(out.find("0x80010048u);") != std::string::npos);
  // The stub's JR is a tail call to the BIOS entry, after its delay slot set $t1.
  const size_t stub_slot = out.find("kiln::r3000::addiu(c, bus, 0x2409003fu, 0x800100c8u)");
  const size_t stub_jump = out.find("{ c.pc = 0x000000a0u; kiln_platform::call_guest(m, 0x000000a0u); return; }");
  REQUIRE(stub_slot != std::string::npos);
  REQUIRE(stub_jump != std::string::npos);
  CHECK(stub_slot < stub_jump);
  // The jump table became a switch with gotos to the cases.
  CHECK(out.find("switch (b_.target)") != std::string::npos);
  CHECK(out.find("case 0x80010070u: goto L_80010070;") != std::string::npos);
  // Every instruction goes through the one set of semantics: no instruction is open-coded (each function only
  // notes, on entry, the $ra and $sp it was entered with: where a longjmp's frame resumes).
  std::string instructions = out;
  const std::string entry_state = kiln::pipeline::FunctionBody::entry_state("c.gpr[31]", "c.gpr[29]");
  for (size_t at; (at = instructions.find(entry_state)) != std::string::npos;) instructions.erase(at, entry_state.size());
  CHECK(instructions.find("c.gpr[") == std::string::npos);
  // The undecodable word is reported with address and encoding, and compiled to a stop naming both.
  REQUIRE(untranslated.size() == 1);
  CHECK(untranslated[0].address == base + 0xB0);
  CHECK(untranslated[0].encoding == 0xFC000000u);
  CHECK(untranslated[0].function == "f_800100b0");
  CHECK(out.find("kiln_platform::untranslated(m, 0x800100b0u, 0xfc000000u") != std::string::npos);
}

TEST_CASE("mips discovery rejects an entry point outside the text", "[psx]") {
  const Decoder decoder(Variant::r3000);
  CHECK_THROWS_WITH(ProgramImage(program(), base, base + 0x10000, decoder, "hand.exe"), Catch::Contains("hand.exe"));
}
