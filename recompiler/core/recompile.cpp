#include "recompiler/core/recompile.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>

#include "recompiler/core/front_ends.h"
#include "recompiler/core/title_setup.h"
#include "runtime/base/error.h"

#ifndef KILN_RECOMPILER_SOURCE_ROOT
#error "KILN_RECOMPILER_SOURCE_ROOT must name the kiln source tree"
#endif

namespace kiln::recompiler {

std::filesystem::path source_root() {
  if (const char* overridden = std::getenv("KILN_SOURCE_DIR")) return overridden;
  return KILN_RECOMPILER_SOURCE_ROOT;
}

std::filesystem::path binary_root() {
  if (const char* overridden = std::getenv("KILN_BINARY_DIR")) return overridden;
  return KILN_RECOMPILER_BINARY_ROOT;
}

RecompileSummary recompile_into_project(
    const pipeline::Input& input, const RecompileOptions& options, const char* isa,
    const std::function<void(pipeline::ProjectFiles&, RecompileSummary&, const pipeline::TitleHints&)>& write) {
  const auto started = std::chrono::steady_clock::now();
  // A disc image is never read whole (it can be 1.4 GB), so it has no content hash for kiln.toml yet.
  TitleSetup setup;
  if (input.container != pipeline::Container::gamecube_disc)
    setup = prepare_title(options.input, options.config, options.find_config, options.patch_sets);
  else if (!options.config.empty() || !options.patch_sets.empty())
    throw Error(in_file(options.input.string()), "kiln.toml and patch sets apply to a DOL, not yet to a disc image: give the title's DOL");
  const pipeline::TitleHints hints = fixed_width_hints(setup, isa);
  pipeline::ProjectFiles files(options.output);
  RecompileSummary summary;
  summary.platform = input.platform;
  if (setup.config) summary.config = setup.config->file;
  summary.applied_patch_sets = setup.changes.applied;
  write(files, summary, hints);
  summary.files_written = files.written();
  summary.files_unchanged = files.unchanged();
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  summary.text = pipeline::describe(summary, options);
  return summary;
}

RecompileSummary recompile(const RecompileOptions& options) {
  const pipeline::Input input = pipeline::identify_input(options);
  static const AArch64FrontEnd aarch64;
  static const MipsFrontEnd mips;
  static const PpcFrontEnd ppc;
  static const pipeline::FrontEnd* const front_ends[] = {&aarch64, &mips, &ppc};
  for (const pipeline::FrontEnd* front_end : front_ends)
    if (front_end->isa() == input.isa) return front_end->recompile(input, options);
  throw Error(in_file(options.input.string()), "no front end for this program's instruction set");
}

namespace {

/// The levels `kiln build --optimization` passes on; the value goes into a shell command, so only these.
bool is_optimization_level(const std::string& level) {
  for (const char* known : {"-O0", "-O1", "-O2", "-O3", "-Os", "-Og"})
    if (level == known) return true;
  return false;
}

} // namespace

std::filesystem::path build(const std::filesystem::path& output, unsigned jobs, const std::string& optimization) {
  if (!std::filesystem::exists(output / "CMakeLists.txt")) throw Error(in_file(output.string()), "not a recompiled project (no CMakeLists.txt)");
  if (!optimization.empty() && !is_optimization_level(optimization))
    throw Error(fmt::format("--optimization {}: not a compiler optimisation level (-O0, -O1, -O2, -O3, -Os, -Og)", optimization));
  const std::filesystem::path build_dir = output / "build";
  if (!std::filesystem::exists(build_dir / "build.ninja") || !optimization.empty()) {
    const std::string level = optimization.empty() ? "" : fmt::format(" -DKILN_GENERATED_OPTIMIZATION={}", optimization);
    const std::string configure = fmt::format("cmake -S '{}' -B '{}' -G Ninja -DCMAKE_BUILD_TYPE=Release{} > '{}' 2>&1", output.string(),
                                              build_dir.string(), level, (output / "configure.log").string());
    if (std::system(configure.c_str()) != 0) throw Error(in_file((output / "configure.log").string()), "configuring the recompiled project failed");
  }
  const std::string make = fmt::format("ninja -C '{}' {} program", build_dir.string(), jobs ? fmt::format("-j{}", jobs) : "");
  if (std::system(make.c_str()) != 0) throw Error(in_file(output.string()), "building the recompiled project failed");
  return build_dir / "program";
}

} // namespace kiln::recompiler
