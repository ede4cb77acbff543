#pragma once
// Where C++ exceptions land. The unwinder (libgcc's _Unwind_RaiseException) enters a landing pad with a RET
// into a frame further up the stack; recompiled code resumes there only at labels it knows, so the emitter
// asks for every landing pad the program's exception tables name: each FDE in .eh_frame whose CIE has an 'L'
// augmentation points at an LSDA (in .gcc_except_table), whose call-site table lists the landing pads relative
// to LPStart (by default the FDE's first address). Malformed tables are a kiln::Error naming file and offset.
#include <cstdint>
#include <set>

#include "recompiler/loaders/elf/elf_file.h"

namespace kiln::emit {

/// Every landing pad of the program (empty when it has no .eh_frame or no LSDAs).
std::set<uint64_t> find_landing_pads(const elf::ElfFile& elf);

} // namespace kiln::emit
