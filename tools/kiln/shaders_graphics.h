#pragma once
// Raw graphics programs (a Shader Program Header, then code, as the 3D class uploads them) for
// `kiln shaders disasm|translate --arch sm50|sm53|sm60|sm75|sm86`. Cubins (ELF) go through the compute paths.
#include <string>

namespace kiln::cli {

/// True unless `file` starts with the ELF magic of a cubin.
bool is_raw_graphics_program(const std::string& file);

/// Prints the SPH summary and the code: Maxwell/Pascal (SPH 0x50 bytes, code after it) in kiln's nvdisasm-like
/// text; Turing/Ampere (SPH padded to 0x80 bytes) in nvdisasm's syntax.
void disassemble_graphics_program(const std::string& file, const std::string& arch);

/// Writes the program's validated SPIR-V to `output` (and GLSL beside it with `glsl`).
void translate_graphics_program(const std::string& file, const std::string& arch, const std::string& output, bool glsl);

} // namespace kiln::cli
