// The PowerPC front end: a static ppc32 Linux ELF on linux-user-ppc, a DOL or GameCube disc image on the GameCube
// (recompiler/emit/ppc).
#include "recompiler/core/front_ends.h"
#include "recompiler/core/recompile.h"
#include "recompiler/emit/ppc/gamecube_project.h"
#include "recompiler/emit/ppc/platform_projects.h"

namespace kiln::recompiler {

RecompileSummary PpcFrontEnd::recompile(const pipeline::Input& input, const RecompileOptions& options) const {
  return recompile_into_project(input, options, "PowerPC", [&](pipeline::ProjectFiles& files, RecompileSummary& summary, const pipeline::TitleHints& hints) {
    if (input.container == pipeline::Container::elf) ppc::write_ppc_linux_project(input.bytes, input.path, source_root(), hints, files, summary);
    else ppc::write_gamecube_project(input, source_root(), hints, files, summary);
  });
}

} // namespace kiln::recompiler
