#pragma once
// The shape both MIPS platforms (runtime/platform/psx, runtime/platform/linux-user-mips) give a recompiled
// program's function table: one entry per guest function start, sorted by address, searched when control
// reaches an address through a register (JALR, unresolved JR) or a code pointer.
#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace kiln::r3000 {

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

} // namespace kiln::r3000
