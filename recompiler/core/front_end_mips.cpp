// The MIPS front end: a PS-X EXE on the PS1, a static mipsel ELF on linux-user-mips (recompiler/emit/mips).
#include "recompiler/core/front_ends.h"
#include "recompiler/core/recompile.h"
#include "recompiler/emit/mips/platform_projects.h"

namespace kiln::recompiler {

RecompileSummary MipsFrontEnd::recompile(const pipeline::Input& input, const RecompileOptions& options) const {
  return recompile_into_project(input, options, "MIPS", [&](pipeline::ProjectFiles& files, RecompileSummary& summary, const pipeline::TitleHints& hints) {
    const mips::ProjectRoots roots{source_root(), binary_root()};
    if (input.container == pipeline::Container::psx_exe) mips::write_psx_project(input.path, roots, hints, files, summary);
    else mips::write_mipsel_linux_project(input.bytes, input.path, roots, hints, files, summary);
  });
}

} // namespace kiln::recompiler
