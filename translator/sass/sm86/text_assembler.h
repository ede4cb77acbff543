#pragma once
// Assembles nvdisasm-style Ampere/Turing SASS lines ("FFMA R8, R1, c[0x1][0x4], R8", "@!P0 IPA.PASS R0, a[0x7c]")
// with kiln's SM86 encoding table: each line is encoded with the first form of its opcode whose disassembly of the
// result reads back as the line, so the program text (a test's, a sample title's) is exactly what the translator
// sees. Throws kiln::Error with the nearest reading otherwise.
#include <cstdint>
#include <string_view>
#include <vector>

#include "translator/sass/sm86/instruction.h"

namespace kiln::sass::sm86 {

/// One instruction at code offset `offset` (branch targets in the text are absolute code offsets, as nvdisasm
/// prints them), with the scheduling bits `control`.
Word128 assemble_sass(std::string_view line, uint64_t offset = 0, const Control& control = {}, Architecture architecture = Architecture::sm86);

/// Code for a program: the lines at consecutive 16-byte offsets, each with a conservative schedule (every
/// instruction waits for the previous one's results: 15 stall cycles, variable-latency results on scoreboard 0,
/// waited on by the next instruction; not tuned, and not checked on hardware), then the closing branch to itself
/// and NOPs up to a multiple of 128 bytes, as ptxas ends a program.
std::vector<Word128> assemble_program(const std::vector<std::string_view>& lines, Architecture architecture = Architecture::sm86);

/// The words as the GPU reads them (little-endian, 16 bytes each).
std::vector<uint8_t> code_bytes(const std::vector<Word128>& code);

} // namespace kiln::sass::sm86
