// `kiln recompile`, `kiln build`, `kiln port`: guest executables to native programs.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "recompiler/core/recompile.h"
#include "runtime/base/error.h"
#include "runtime/base/log.h"
#include "tools/kiln/command_registry.h"

namespace {

struct Arguments {
  std::string input, output, platform = "linux-user";
  unsigned jobs = 0;
  bool list_untranslated = false;
};

void print_summary(const kiln::recompiler::RecompileSummary& s, const Arguments& a) {
  fmt::print("recompiled {}: {} functions, {} instructions, {} jump tables, {} unresolved indirect branches, "
             "{} untranslated instructions; {} files written, {} unchanged; {:.2f} s\n",
             a.input, s.functions, s.instructions, s.jump_tables, s.unresolved_indirect_branches.size(), s.untranslated.size(),
             s.files_written, s.files_unchanged, s.seconds);
  const size_t shown = a.list_untranslated ? s.untranslated.size() : std::min<size_t>(s.untranslated.size(), 10);
  for (size_t i = 0; i < shown; ++i) {
    const auto& u = s.untranslated[i];
    fmt::print("  untranslated {:#x} {:08x} {} (in {})\n", u.address, u.encoding, u.text, u.function);
  }
  if (shown < s.untranslated.size()) fmt::print("  ... {} more (--list-untranslated shows all; each traps if reached)\n", s.untranslated.size() - shown);
}

kiln::recompiler::RecompileSummary do_recompile(const Arguments& a) {
  kiln::recompiler::RecompileOptions options;
  options.input = a.input;
  options.output = a.output;
  options.platform = a.platform;
  const auto summary = kiln::recompiler::recompile(options);
  print_summary(summary, a);
  std::fflush(stdout); // the summary comes before the build's own output in a log
  return summary;
}

void setup_recompile_commands(CLI::App& root) {
  static Arguments args;
  auto* recompile = root.add_subcommand("recompile", "recompile a guest executable into a C++ project");
  recompile->add_option("program", args.input, "guest executable (static AArch64 Linux ELF)")->required();
  recompile->add_option("-o,--output", args.output, "output folder for the generated project")->required();
  recompile->add_option("--platform", args.platform, "guest platform (linux-user)")->capture_default_str();
  recompile->add_flag("--list-untranslated", args.list_untranslated, "list every instruction kiln cannot translate yet");
  recompile->callback([] { do_recompile(args); });

  static std::string build_dir;
  static unsigned build_jobs = 0;
  auto* build = root.add_subcommand("build", "build a recompiled project (CMake + Ninja) into a native executable");
  build->add_option("folder", build_dir, "folder written by `kiln recompile`")->required();
  build->add_option("-j,--jobs", build_jobs, "parallel compile jobs (default: ninja's)");
  build->callback([] {
    const auto executable = kiln::recompiler::build(build_dir, build_jobs);
    fmt::print("built {}\n", executable.string());
  });

  auto* port = root.add_subcommand("port", "recompile and build in one step");
  port->add_option("program", args.input, "guest executable")->required();
  port->add_option("-o,--output", args.output, "output folder")->required();
  port->add_option("--platform", args.platform, "guest platform (linux-user)")->capture_default_str();
  port->add_option("-j,--jobs", args.jobs, "parallel compile jobs");
  port->callback([] {
    do_recompile(args);
    const auto executable = kiln::recompiler::build(args.output, args.jobs);
    fmt::print("built {}\n", executable.string());
  });
}

} // namespace

KILN_REGISTER_COMMAND("recompile", setup_recompile_commands);
