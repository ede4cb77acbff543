#pragma once
// The shape the 32-bit platforms (runtime/platform/psx, linux-user-mips, linux-user-ppc, gamecube) give a
// recompiled program's function table: one entry per guest function start, sorted by address, searched when
// control reaches an address through a register (JALR, bctr, an unresolved jump) or a code pointer.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

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
