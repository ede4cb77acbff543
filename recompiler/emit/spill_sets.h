#pragma once
// Which register locals may differ from their Cpu slots at each instruction of a function, so a spill stores
// only those. At an entry the locals are loaded from Cpu; after a call the caller-saved ones are reloaded and the
// AAPCS64 keeps the callee-saved ones (the assumption reload_after_call already makes); after an SVC or a resume
// everything is reloaded. So a local can differ from its slot only if the function wrote it since.
#include <cstdint>
#include <map>
#include <set>
#include <string_view>

#include "recompiler/analysis/program.h"

namespace kiln::emit {

/// Bit r (0..30) for x0..x30, bit 31 for sp, bit 32 for the flags NZCV.
using RegisterMask = uint64_t;
constexpr RegisterMask flags_bit = RegisterMask{1} << 32;
constexpr RegisterMask all_registers = (RegisterMask{1} << 33) - 1;

/// The general registers, sp and flags that emitted C++ assigns (`x5 = ...`, `sp = ...`, flags passed to a helper).
RegisterMask written_registers(std::string_view code);

/// For each instruction address of `function`: the registers that may differ from Cpu before it runs.
/// `code` holds each instruction's emitted C++; `clean_starts` are addresses entered with locals equal to Cpu
/// (the start, secondary entries, resume labels reached after a full reload).
std::map<uint64_t, RegisterMask> dirty_before(const analysis::Program& program, const analysis::Function& function,
                                              const std::map<uint64_t, std::string_view>& code, const std::set<uint64_t>& clean_starts);

} // namespace kiln::emit
