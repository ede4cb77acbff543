#pragma once
// The shape the 32-bit platforms (runtime/platform/psx, linux-user-mips, linux-user-ppc, gamecube) give a
// recompiled program: its function table (one entry per guest function start, sorted by address, searched when
// control reaches an address through a register (JALR, bctr, an unresolved jump) or a code pointer), and the
// calls its code makes besides the instruction semantics, declared once for all of them below.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

/// Declares, in the platform's namespace, the calls recompiled code makes into it, the same six on every 32-bit
/// platform (the emitters write one shape; generated code reaches them through the alias `kiln_platform`). Each
/// platform's recompiled.h says only what it does differently.
/// - install(program): the table call_guest() searches (one program per process).
/// - call_guest(m, address): runs the recompiled function at `address` (c.pc must already be `address`), else the
///   fallback interpreter from there; an address outside the program stops with an error naming it.
/// - returned_elsewhere(m, call_address, start, end, entry_link, entry_sp): a call from `call_address` in the
///   recompiled function [start, end), entered with `entry_link` and `entry_sp`, came back to c.pc instead of
///   after the call (longjmp): this frame resumes in the fallback interpreter when the landing address is in the
///   function and the stack pointer in its frame; else the caller returns and a frame further up takes over.
/// - resume_after_exception(m, pc): the instruction at `pc` raised an exception; it is answered and execution
///   goes on, or it stops with a kiln::Error naming it.
/// - untranslated(m, address, word, why): an instruction the recompiler could not translate was reached.
/// - run_recompiled(program, argc, argv): main() of a recompiled program; returns its exit status.
#define KILN_RECOMPILED_PLATFORM_CALLS(Machine, Program)                                                          \
  void install(const Program& program);                                                                           \
  void call_guest(Machine& m, uint32_t address);                                                                  \
  void returned_elsewhere(Machine& m, uint32_t call_address, uint32_t start, uint32_t end, uint32_t entry_link,    \
                          uint32_t entry_sp);                                                                     \
  void resume_after_exception(Machine& m, uint32_t pc);                                                           \
  [[noreturn]] void untranslated(Machine& m, uint32_t address, uint32_t word, const char* why);                   \
  int run_recompiled(const Program& program, int argc, char** argv)

namespace kiln::guest {

template <class Machine>
struct FunctionEntry {
  uint32_t address;
  void (*function)(Machine&);
};

/// The entry for `address` in a table sorted by address, or nullptr.
template <class Machine>
const FunctionEntry<Machine>* find_function(const FunctionEntry<Machine>* entries, size_t count, uint32_t address) {
  const FunctionEntry<Machine>* end = entries + count;
  const FunctionEntry<Machine>* it =
      std::lower_bound(entries, end, address, [](const FunctionEntry<Machine>& e, uint32_t a) { return e.address < a; });
  return it != end && it->address == address ? it : nullptr;
}

/// Runs the recompiled function starting at `address` (c.pc set to it) when the table has one; false otherwise.
template <class Machine>
bool enter_function(const FunctionEntry<Machine>* entries, size_t count, Machine& m, uint32_t address) {
  const FunctionEntry<Machine>* it = find_function(entries, count, address);
  if (!it) return false;
  m.cpu.pc = address;
  it->function(m);
  return true;
}

/// The program's text as the recompiler decoded it, for a fallback interpreter: one opcode per word from `base`
/// (Opcode::count: the word is no instruction), so the runtime needs no decoder.
template <class Opcode>
struct DecodedText {
  uint32_t base = 0;
  std::span<const uint16_t> opcodes;

  bool contains(uint32_t address) const { return !(address & 3) && address >= base && (address - base) / 4 < opcodes.size(); }
  /// The opcode of the word at `address`, or Opcode::count outside the text.
  Opcode at(uint32_t address) const { return contains(address) ? static_cast<Opcode>(opcodes[(address - base) / 4]) : Opcode::count; }
};

} // namespace kiln::guest
