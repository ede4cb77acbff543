#pragma once
// The host side of `kiln inspect --function`: finds the x86-64 function the C++ compiler made for a guest
// function (g_<address>, as the emitter names them) in a built executable's .symtab and disassembles it (Zydis).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kiln::host {

struct HostFunction {
  std::string symbol; ///< as in the symbol table (mangled)
  uint64_t address = 0;
  std::vector<uint8_t> bytes;
};

/// The function whose (mangled) name is `name` or ends a C++ name component equal to it; nothing when absent
/// (inlined into its callers, or the executable is stripped). Errors for a file that is not an x86-64 ELF.
std::optional<HostFunction> find_function(std::span<const uint8_t> executable, const std::string& file, const std::string& name);

struct HostInstruction {
  uint64_t address = 0;
  std::string text;
};
/// Intel-syntax disassembly; an undecodable byte ends the listing with a "(bad)" line.
std::vector<HostInstruction> disassemble_x86_64(std::span<const uint8_t> bytes, uint64_t address);

} // namespace kiln::host
