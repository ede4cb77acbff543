// The MIPS front end: a PS-X EXE on the PS1, a static mipsel ELF on linux-user-mips (recompiler/emit/mips).
#include <chrono>

#include "recompiler/core/front_ends.h"
#include "recompiler/core/recompile.h"
#include "recompiler/emit/mips/platform_projects.h"

namespace kiln::recompiler {

RecompileSummary MipsFrontEnd::recompile(const pipeline::Input& input, const RecompileOptions& options) const {
  const auto started = std::chrono::steady_clock::now();
  pipeline::ProjectFiles files(options.output);
  RecompileSummary summary;
  summary.platform = input.platform;
  const mips::ProjectRoots roots{source_root(), binary_root()};
  if (input.container == pipeline::Container::psx_exe) mips::write_psx_project(input.path, roots, files, summary);
  else mips::write_mipsel_linux_project(input.bytes, input.path, roots, files, summary);
  summary.files_written = files.written();
  summary.files_unchanged = files.unchanged();
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  summary.text = pipeline::describe(summary, options);
  return summary;
}

} // namespace kiln::recompiler
