// `kiln recompile`, `kiln build`, `kiln port`: guest executables to native programs.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string_view>

#include "recompiler/core/recompile.h"
#include "recompiler/emit/mips/linux_project.h"
#include "runtime/base/error.h"
#include "runtime/base/log.h"
#include "tools/kiln/command_registry.h"

// Defined in command_psx.cpp: PS-X EXEs go through the MIPS emitter.
void recompile_psx_command(const std::string& input, const std::string& output, bool list_untranslated);

namespace {

struct Arguments {
  std::string input, output, platform = "linux-user", config;
  std::vector<std::string> patch_sets;
  unsigned jobs = 0;
  bool list_untranslated = false;
  bool no_config = false;
};

void print_summary(const kiln::recompiler::RecompileSummary& s, const Arguments& a) {
  fmt::print("recompiled {}: {} functions, {} instructions, {} jump tables, {} unresolved indirect branches, "
             "{} untranslated instructions; {} files written, {} unchanged; {:.2f} s\n",
             a.input, s.functions, s.instructions, s.jump_tables, s.unresolved_indirect_branches.size(), s.untranslated.size(),
             s.files_written, s.files_unchanged, s.seconds);
  fmt::print("  platform: {}\n", s.platform);
  if (!s.config.empty()) fmt::print("  config: {}\n", s.config.string());
  for (const std::string& set : s.applied_patch_sets) fmt::print("  patch set applied: {}\n", set);
  fmt::print("  fallback interpreter: {} instructions outside compiled functions; discovery report: {}\n", s.fallback_steps, s.discovery_report.string());
  const size_t shown = a.list_untranslated ? s.untranslated.size() : std::min<size_t>(s.untranslated.size(), 10);
  for (size_t i = 0; i < shown; ++i) {
    const auto& u = s.untranslated[i];
    fmt::print("  untranslated {:#x} {:08x} {} (in {})\n", u.address, u.encoding, u.text, u.function);
  }
  if (shown < s.untranslated.size()) fmt::print("  ... {} more (--list-untranslated shows all; each traps if reached)\n", s.untranslated.size() - shown);
}

kiln::recompiler::RecompileSummary do_recompile(const Arguments& a) {
  if (a.platform == "psx") {
    recompile_psx_command(a.input, a.output, a.list_untranslated);
    return {};
  }
  if (a.platform == "linux-user" && kiln::mips::is_mips_elf(a.input)) { // mipsel: the MIPS32r2 frontend
    const auto started = std::chrono::steady_clock::now();
    kiln::mips::PsxRecompileOptions options{a.input, a.output, kiln::recompiler::source_root()};
    const auto report = kiln::mips::recompile_mipsel_linux(options);
    fmt::print("{}", kiln::mips::describe_report(a.input, report, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
                                                 a.list_untranslated));
    std::fflush(stdout);
    return {};
  }
  kiln::recompiler::RecompileOptions options;
  options.input = a.input;
  options.output = a.output;
  options.platform = a.platform;
  options.config = a.config;
  options.find_config = !a.no_config;
  options.patch_sets = a.patch_sets;
  const auto summary = kiln::recompiler::recompile(options);
  print_summary(summary, a);
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
  recompile->add_option("program", args.input, "guest executable (static AArch64 Linux ELF, or a Switch NSO/NRO)")->required();
  recompile->add_option("-o,--output", args.output, "output folder for the generated project")->required();
  recompile->add_option("--platform", args.platform, "guest platform (linux-user, psx)")->capture_default_str();
  recompile->add_flag("--list-untranslated", args.list_untranslated, "list every instruction kiln cannot translate yet");
  add_config_options(recompile, args);
  recompile->callback([] { do_recompile(args); });

  static std::string build_dir;
  static unsigned build_jobs = 0;
  auto* build = root.add_subcommand("build", "build a recompiled project (CMake + Ninja) into a native executable");
  build->add_option("folder", build_dir, "folder written by `kiln recompile`")->required();
  build->add_option("-j,--jobs", build_jobs, "parallel compile jobs (default: ninja's)");
  build->callback([] {
    const auto executable = kiln::recompiler::build(build_dir, build_jobs);
    print_applied_patch_sets(build_dir);
    fmt::print("built {}\n", executable.string());
  });

  auto* port = root.add_subcommand("port", "recompile and build in one step");
  port->add_option("program", args.input, "guest executable")->required();
  port->add_option("-o,--output", args.output, "output folder")->required();
  port->add_option("--platform", args.platform, "guest platform (linux-user, psx)")->capture_default_str();
  port->add_option("-j,--jobs", args.jobs, "parallel compile jobs");
  add_config_options(port, args);
  port->callback([] {
    do_recompile(args);
    const auto executable = kiln::recompiler::build(args.output, args.jobs);
    fmt::print("built {}\n", executable.string());
  });
}

} // namespace

KILN_REGISTER_COMMAND("recompile", setup_recompile_commands);
