#pragma once
// Raw graphics programs (a Shader Program Header, then code, as the 3D class uploads them) for
// `kiln shaders disasm|translate --arch sm50|sm53|sm60|sm75|sm86`. Cubins (ELF) go through the compute paths.
#include <cstdint>
#include <string>
#include <vector>

#include "translator/spirv/emit_compute.h"

namespace kiln::cli {

/// True unless `file` starts with the ELF magic of a cubin.
bool is_raw_graphics_program(const std::string& file);

/// Prints the SPH summary and the code: Maxwell/Pascal (SPH 0x50 bytes, code after it) in kiln's nvdisasm-like
/// text; Turing/Ampere (SPH padded to 0x80 bytes) in nvdisasm's syntax.
void disassemble_graphics_program(const std::string& file, const std::string& arch);

/// Writes the program's validated SPIR-V to `output` (and GLSL beside it with `glsl`). `constant_banks` are
/// "BANK:FILE" pairs: the bank's contents as little-endian 32-bit words, which the translator may read (the
/// jump tables of Maxwell BRX live in c[1], which the driver uploads beside the code).
struct GraphicsHostOptions {
  bool zero_registers = false;    ///< registers read before any write start at 0 (Mesa hosts, seed 002 §3.12)
  uint32_t gather_bias_bits = 0;  ///< the host's subTexelPrecisionBits on non-NVIDIA hosts (seed 002 §2.10); 0 = none
  spirv::FloatOptions floats;     ///< FMA lowering (--fma) and FP64 availability (--no-float64)
};
void translate_graphics_program(const std::string& file, const std::string& arch, const std::string& output, bool glsl,
                                const std::vector<std::string>& constant_banks = {}, const GraphicsHostOptions& host = {});

} // namespace kiln::cli
