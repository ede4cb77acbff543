#pragma once
// The front ends `kiln recompile` dispatches to by the ISA the input holds (recompiler/pipeline/front_end.h).
#include <functional>

#include "recompiler/pipeline/front_end.h"
#include "recompiler/pipeline/project_files.h"
#include "recompiler/pipeline/title_hints.h"

namespace kiln::recompiler {

using pipeline::RecompileOptions;
using pipeline::RecompileSummary;

class AArch64FrontEnd final : public pipeline::FrontEnd {
public:
  pipeline::Isa isa() const override { return pipeline::Isa::aarch64; }
  RecompileSummary recompile(const pipeline::Input& input, const RecompileOptions& options) const override;
};

/// What the MIPS and PowerPC front ends share around their project writer: the title's configuration (kiln.toml
/// and patch sets, as pipeline::TitleHints; `isa` names the ISA in its errors), the project files in
/// options.output, the summary's configuration, file counts, time and text.
RecompileSummary recompile_into_project(
    const pipeline::Input& input, const RecompileOptions& options, const char* isa,
    const std::function<void(pipeline::ProjectFiles&, RecompileSummary&, const pipeline::TitleHints&)>& write);

/// The R3000A (PS-X EXE on the PS1) and MIPS32r2 (static mipsel Linux ELF) share decoding, discovery and emission.
class MipsFrontEnd final : public pipeline::FrontEnd {
public:
  pipeline::Isa isa() const override { return pipeline::Isa::mips; }
  RecompileSummary recompile(const pipeline::Input& input, const RecompileOptions& options) const override;
};

/// The Gekko / PowerPC 750CL: a static 32-bit big-endian PowerPC Linux ELF (linux-user-ppc), a DOL or a GameCube
/// disc image (gamecube).
class PpcFrontEnd final : public pipeline::FrontEnd {
public:
  pipeline::Isa isa() const override { return pipeline::Isa::ppc; }
  RecompileSummary recompile(const pipeline::Input& input, const RecompileOptions& options) const override;
};

} // namespace kiln::recompiler
