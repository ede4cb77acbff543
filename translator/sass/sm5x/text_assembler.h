#pragma once
// Assembles nvdisasm-style Maxwell SASS lines ("ALD R0, a[0x80]", "IPA.PASS R0, a[0x80]") with kiln's encoding
// table: each line is encoded with the first table row whose disassembly of the result reads back as the line,
// so the program text (a test's, a sample title's) is exactly what the translator sees. Throws with the nearest reading otherwise.
#include <cstdint>
#include <string_view>
#include <vector>

namespace kiln::sass::sm5x {

/// One instruction word.
uint64_t assemble_sass(std::string_view line);
/// Code for a program: control words inserted before every three instructions, then a closing self-branch
/// group (how drivers end a program in memory).
std::vector<uint64_t> assemble_program(const std::vector<std::string_view>& lines);

} // namespace kiln::sass::sm5x
