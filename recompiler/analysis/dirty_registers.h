#pragma once
// Which register locals may differ from their Cpu slots at each instruction of a function, so a spill stores
// only those. At an entry the locals are loaded from Cpu; after a call the caller-saved ones are reloaded and the
// AAPCS64 keeps the callee-saved ones (the assumption reload_after_call already makes); after an SVC or a resume
// everything is reloaded. So a local can differ from its slot only if the function wrote it since. What each
// instruction writes comes from the front end (a64::Instruction::writes), never from the emitted text.
#include <cstdint>
#include <map>
#include <set>

#include "recompiler/analysis/program.h"

namespace kiln::analysis {

/// For each instruction address of `function`: the registers that may differ from Cpu before it runs.
/// `writes` holds what each emitted instruction writes (an address missing from it counts as writing
/// everything); `clean_starts` are addresses entered with locals equal to Cpu (the start, secondary entries,
/// resume labels reached after a full reload).
std::map<uint64_t, a64::RegisterMask> dirty_before(const Program& program, const Function& function,
                                                   const std::map<uint64_t, a64::RegisterMask>& writes,
                                                   const std::set<uint64_t>& clean_starts);

} // namespace kiln::analysis
