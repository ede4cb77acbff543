#pragma once
// Decoded SM86 (and SM75) SASS -> kiln IR: each instruction's meaning in terms of IR ops, guest registers as
// IR locals, the kernel's branches as a CFG handed to the structurizer.
#include <span>
#include <string>

#include "translator/ir/ir.h"
#include "translator/sass/sm86/cubin.h"

namespace kiln::sass::sm86 {

/// The IR of `kernel` (structured, verified, folded). `file` names the cubin in errors. An instruction the
/// lowering does not know is an error naming file, kernel, offset and the 128-bit word.
ir::Function lower_kernel(const Kernel& kernel, std::span<const Instruction> code, const std::string& file);

/// Decode + lower + passes: what `kiln shaders translate` and the tests use.
ir::Function translate_kernel(const Kernel& kernel, const std::string& file, Architecture architecture);

} // namespace kiln::sass::sm86
