// `kiln recompile`, `kiln build`, `kiln port`: guest executables to native programs.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string_view>

#include "recompiler/core/recompile.h"
#include "runtime/base/error.h"
#include "runtime/base/log.h"
#include "tools/kiln/command_registry.h"

namespace {

struct Arguments {
  std::string input, output, platform = "linux-user", config;
  std::vector<std::string> patch_sets;
  unsigned jobs = 0;
  std::string optimization; ///< the generated functions' level, e.g. -Og (empty: the project's, -O2)
  bool list_untranslated = false;
  bool no_config = false;
};

kiln::recompiler::RecompileSummary do_recompile(const Arguments& a) {
  kiln::recompiler::RecompileOptions options;
  options.input = a.input;
  options.output = a.output;
  options.platform = a.platform;
  options.config = a.config;
  options.find_config = !a.no_config;
  options.patch_sets = a.patch_sets;
  options.list_untranslated = a.list_untranslated;
  const auto summary = kiln::recompiler::recompile(options);
  fmt::print("{}", summary.text);
  std::fflush(stdout); // the summary comes before the build's own output in a log
  return summary;
}

void add_config_options(CLI::App* command, Arguments& a) {
  command->add_option("--config", a.config, "the title's kiln.toml (default: kiln.toml beside the executable, else games/*/kiln.toml naming its hash)");
  command->add_flag("--no-config", a.no_config, "ignore any kiln.toml");
  command->add_option("--patch", a.patch_sets, "apply a patch set (a folder, or an id under patches/<title>/); repeat, applied in order");
}

/// The patch sets a recompiled project was generated with (porter_glue.cpp lists them).
void print_applied_patch_sets(const std::string& folder) {
  std::FILE* glue = std::fopen((std::filesystem::path(folder) / "porter_glue.cpp").c_str(), "r");
  if (!glue) return;
  char line[512];
  while (std::fgets(line, sizeof line, glue))
    if (std::string_view(line).starts_with("// patch set applied: ")) fmt::print("patch set applied: {}", line + 22);
  std::fclose(glue);
}

void setup_recompile_commands(CLI::App& root) {
  static Arguments args;
  auto* recompile = root.add_subcommand("recompile", "recompile a guest executable into a C++ project");
  recompile->add_option("program", args.input, "guest executable (static AArch64, mipsel or ppc32 Linux ELF, Switch NSO/NRO, PS-X EXE, GameCube DOL or disc image)")->required();
  recompile->add_option("-o,--output", args.output, "output folder for the generated project")->required();
  recompile->add_option("--platform", args.platform, "guest platform (linux-user, switch, psx, gamecube; NSO/NRO, PS-X EXE, DOL and disc images choose their own)")->capture_default_str();
  recompile->add_flag("--list-untranslated", args.list_untranslated, "list every instruction kiln cannot translate yet");
  add_config_options(recompile, args);
  recompile->callback([] { do_recompile(args); });

  static std::string build_dir, build_optimization;
  static unsigned build_jobs = 0;
  constexpr const char* optimization_help = "optimisation level of the generated functions (-O0, -O1, -O2, -O3, -Os, -Og; default -O2): lower builds faster";
  auto* build = root.add_subcommand("build", "build a recompiled project (CMake + Ninja) into a native executable");
  build->add_option("folder", build_dir, "folder written by `kiln recompile`")->required();
  build->add_option("-j,--jobs", build_jobs, "parallel compile jobs (default: ninja's)");
  build->add_option("--optimization", build_optimization, optimization_help);
  build->callback([] {
    const auto executable = kiln::recompiler::build(build_dir, build_jobs, build_optimization);
    print_applied_patch_sets(build_dir);
    fmt::print("built {}\n", executable.string());
  });

  auto* port = root.add_subcommand("port", "recompile and build in one step");
  port->add_option("program", args.input, "guest executable")->required();
  port->add_option("-o,--output", args.output, "output folder")->required();
  port->add_option("--platform", args.platform, "guest platform (linux-user, switch, psx, gamecube; NSO/NRO, PS-X EXE, DOL and disc images choose their own)")->capture_default_str();
  port->add_option("-j,--jobs", args.jobs, "parallel compile jobs");
  port->add_option("--optimization", args.optimization, optimization_help);
  add_config_options(port, args);
  port->callback([] {
    do_recompile(args);
    const auto executable = kiln::recompiler::build(args.output, args.jobs, args.optimization);
    fmt::print("built {}\n", executable.string());
  });
}

} // namespace

KILN_REGISTER_COMMAND("recompile", setup_recompile_commands);
