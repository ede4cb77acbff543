#pragma once
// Decoded SM86 (and SM75) SASS -> kiln IR: each instruction's meaning in terms of IR ops, guest registers as
// IR locals, the kernel's branches as a CFG handed to the structurizer.
#include <span>
#include <string>

#include "translator/ir/ir.h"
#include "translator/sass/sm5x/sph.h"
#include "translator/sass/sm86/cubin.h"

namespace kiln::sass::sm86 {

/// The IR of `kernel` (structured, verified, folded). `file` names the cubin in errors. An instruction the
/// lowering does not know is an error naming file, kernel, offset and the 128-bit word.
ir::Function lower_kernel(const Kernel& kernel, std::span<const Instruction> code, const std::string& file);

/// Decode + lower + passes: what `kiln shaders translate` and the tests use.
ir::Function translate_kernel(const Kernel& kernel, const std::string& file, Architecture architecture);

struct GraphicsLowerOptions {
  /// S2R/S2UR SR_Y_DIRECTION: +1.0 for Vulkan's upper-left window origin, -1.0 for a lower-left one.
  float y_direction = 1.0f;
};

/// A Turing/Ampere graphics program (vertex or pixel stage): its decoded code (from 0x80 on, after the SPH padded
/// to 128 bytes) and its SPH. Constant operands read bank c[n] directly (the IR's LoadConstBank), textures
/// take their handles from a constant bank or a uniform register pair, fragment outputs leave R0.. at EXIT
/// as the SPH's output map says. Errors name `file`, the code offset and the 128-bit word.
ir::Function lower_graphics_program(std::span<const Instruction> code, const sm5x::ShaderProgramHeader& header,
                                    const std::string& file, const GraphicsLowerOptions& options = {});

} // namespace kiln::sass::sm86
