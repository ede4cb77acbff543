#pragma once
// Linking a DOL and its REL modules at recompile time, as OSLink would once every module is loaded: each module's
// sections are placed at its load address plus their file offsets, its .bss at its own address, and every
// import's relocations are applied (module 0's against absolute addresses, a module's against the sections of the
// module it names), so the recompiler sees the code that will run with every address resolved. The result is one
// GuestImage: the DOL's segments and each module's sections. OSLink masks values into their fields without a
// check; kiln refuses a value that does not fit (a REL24 branch beyond +-32 MiB, an ADDR16 beyond 16 bits), and an
// import of a module that is not linked, naming the file and the offset of the relocation or import entry. The
// branch-prediction bit of the *_BRTAKEN/*_BRNTAKEN forms is left as in the file, as OSLink leaves it.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "recompiler/loaders/dol/dol.h"
#include "recompiler/loaders/dol/rel.h"

namespace kiln::gamecube {

struct PlacedModule {
  const RelModule* module = nullptr;
  uint32_t load_address = 0; ///< where the game loads the file (its sections follow at their offsets)
  uint32_t bss_address = 0;  ///< where the game puts its .bss (ignored when it has none)
};

struct LinkedModule {
  uint32_t id = 0;
  std::string name;
  uint32_t load_address = 0, bss_address = 0;
  std::vector<std::optional<uint32_t>> section_addresses; ///< by section index; none for unused sections
  std::optional<uint32_t> prolog, epilog, unresolved;     ///< absolute addresses
  size_t relocations_applied = 0;
};

struct LinkedProgram {
  GuestImage image;
  std::vector<LinkedModule> modules;
};

/// Where kiln puts modules when the porter names no addresses: one after another from the end of the DOL's
/// highest section or BSS, each at its `align` (at least 32 bytes) with its .bss right after the file at
/// `bssAlign` (at least 32 bytes).
std::vector<PlacedModule> place_after_dol(const Dol& dol, std::span<const RelModule> modules);

/// Links `modules` at their places with `dol` as module 0. Throws kiln::Error (file, offset) for a module id
/// given twice or 0, an address outside MEM1 or off the module's alignment, sections overlapping, an import of a
/// module not among `modules`, a relocation against a missing section or a value that does not fit its field.
LinkedProgram link_modules(const Dol& dol, std::span<const PlacedModule> modules);

/// Patches one relocation of `type` at `place` (the bytes at address `address`) for target value `target`
/// (S + A). Returns the problem as text when the value does not fit, nothing when applied.
std::optional<std::string> apply_relocation(uint8_t type, std::span<uint8_t> place, uint32_t address, uint32_t target);

} // namespace kiln::gamecube
