#pragma once
// A guest program's bytes as they lie in GPU memory, which gives a program no size: each reader follows its
// architecture's layout up to the branch to itself that drivers and ptxas place after a program.
#include <cstdint>
#include <string_view>
#include <vector>

#include "runtime/gpu/maxwell/address_space.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/draw_snapshot.h"

namespace kiln::vulkan {

/// A graphics program at `address`: its SPH and code as the translator takes them. SM5x: the 0x50-byte SPH, then
/// code groups up to and including the group holding the closing self-branch, or up to the first all-zero group.
/// SM86: the SPH padded to 0x80 bytes, then 16-byte instructions up to the closing self-branch (sm86_code_bytes).
/// `what` names the program in errors.
std::vector<uint8_t> graphics_program_bytes(const maxwell::AddressSpace& memory, uint64_t address, maxwell::ProgramIsa isa,
                                            std::string_view what);

/// SM86 code at `address`: 16-byte instructions up to and including the first unconditional branch to itself after
/// an EXIT, at most `limit` bytes. An unknown instruction word, unmapped memory before the end, or no end within
/// `limit` is a kiln::Error naming `what` and the offset (counted from `code_offset`, where the code starts in
/// what `what` names).
std::vector<uint8_t> sm86_code_bytes(const maxwell::AddressSpace& memory, uint64_t address, uint64_t limit, std::string_view what,
                                     uint64_t code_offset = 0);

} // namespace kiln::vulkan
