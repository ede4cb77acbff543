#pragma once
// A whole Maxwell/Pascal program as the 3D class uploads it: the 0x50-byte Shader Program Header, then code in
// groups of four 64-bit words (a scheduling control word, then three instructions). Compute programs have no
// header. This is the library entry point the CLI and the translator use.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "translator/sass/sm5x/instruction.h"
#include "translator/sass/sm5x/sph.h"

namespace kiln::sass::sm5x {

enum class ProgramKind : uint8_t {
  graphics,  ///< SPH at offset 0, code at 0x50
  compute,   ///< code at offset 0
};

struct Program {
  std::string name;
  std::optional<ShaderProgramHeader> header;  ///< absent for compute programs
  uint64_t code_offset = 0;                   ///< where the code starts in the input (0x50 or 0)
  std::vector<Instruction> instructions;      ///< in order; Instruction::address is the offset inside the code
  std::vector<Scheduling> scheduling;         ///< one per instruction, from its control word
  std::vector<uint64_t> words;                ///< every 64-bit code word as read (control words included)
  size_t padding_words = 0;                   ///< trailing all-zero groups after the last instruction
};

/// Decodes a program. Throws kiln::Error naming `name`, the file offset and the word for an unknown or
/// malformed instruction, a bad header, or code whose size is not a multiple of 8 bytes.
Program decode_program(std::span<const uint8_t> bytes, std::string_view name, ProgramKind kind = ProgramKind::graphics);

/// The code words for `program` assembled back from its instructions and scheduling (padding included):
/// equal to program.words whenever decode and assemble are exact inverses.
std::vector<uint64_t> assemble_code(const Program& program);

/// cuobjdump-style listing: the header summary as comments, then one line per control word and instruction
/// ("        /*0008*/  FFMA R0, R1, c[0x0][0x20], R2 ;  /* 0x5980... */").
std::string disassemble_program(std::span<const uint8_t> bytes, std::string_view name,
                                ProgramKind kind = ProgramKind::graphics);
std::string listing(const Program& program);

} // namespace kiln::sass::sm5x
