#pragma once
// The front ends `kiln recompile` dispatches to by the ISA the input holds (recompiler/pipeline/front_end.h).
#include "recompiler/pipeline/front_end.h"

namespace kiln::recompiler {

using pipeline::RecompileOptions;
using pipeline::RecompileSummary;

class AArch64FrontEnd final : public pipeline::FrontEnd {
public:
  pipeline::Isa isa() const override { return pipeline::Isa::aarch64; }
  RecompileSummary recompile(const pipeline::Input& input, const RecompileOptions& options) const override;
};

/// The R3000A (PS-X EXE on the PS1) and MIPS32r2 (static mipsel Linux ELF) share decoding, discovery and emission.
class MipsFrontEnd final : public pipeline::FrontEnd {
public:
  pipeline::Isa isa() const override { return pipeline::Isa::mips; }
  RecompileSummary recompile(const pipeline::Input& input, const RecompileOptions& options) const override;
};

} // namespace kiln::recompiler
