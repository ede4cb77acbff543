#include "recompiler/core/recompile.h"

#include <fmt/format.h>

#include <cstdlib>

#include "recompiler/analysis/program.h"
#include "recompiler/core/title_setup.h"
#include "recompiler/isa/aarch64/decoder.h"
#include "recompiler/loaders/elf/elf_file.h"
#include "recompiler/loaders/switch/switch_module.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"

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

RecompileSummary recompile(const RecompileOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  if (options.platform != "linux-user" && options.platform != "switch")
    throw Error("unknown platform '" + options.platform + "' (supported: linux-user, switch)");
  const TitleSetup setup = prepare_title(options.input, options.config, options.find_config, options.patch_sets);
  // Switch NSO/NRO (recognised by magic) are analysed and emitted through an ELF view of the loaded module.
  const bool switch_module = nx::detect_format(setup.bytes).has_value();
  const std::string platform = switch_module ? "switch" : options.platform;
  std::vector<uint8_t> module_elf;
  if (switch_module) module_elf = nx::to_elf(nx::load_module(setup.bytes, options.input.string(), nx::default_load_base), nx::default_load_base);
  const elf::ElfFile elf(switch_module ? std::span<const uint8_t>(module_elf) : std::span<const uint8_t>(setup.bytes), options.input.string());
  const a64::Decoder decoder;
  const analysis::Program program(elf, decoder, setup.hints);
  check_against_program(setup, program);
  emit::EmitOptions emit_options;
  emit_options.output = options.output;
  emit_options.source_root = source_root();
  emit_options.binary_root = binary_root();
  emit_options.platform = platform;
  emit_options.customization = setup.customization;
  const emit::EmitReport report = emit::emit_project(program, options.input, emit_options);
  RecompileSummary summary;
  summary.platform = platform;
  summary.functions = report.functions;
  summary.instructions = report.instructions;
  summary.jump_tables = program.jump_tables().size();
  summary.unresolved_indirect_branches = program.unresolved_indirect_branches();
  summary.untranslated = report.untranslated;
  summary.files_written = report.files_written;
  summary.files_unchanged = report.files_unchanged;
  summary.fallback_steps = report.fallback_steps;
  if (setup.config) summary.config = setup.config->file;
  summary.applied_patch_sets = setup.changes.applied;
  summary.discovery_report = options.output / "discovery.toml";
  write_discovery_report(summary.discovery_report, program, report.untranslated);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return summary;
}

std::filesystem::path build(const std::filesystem::path& output, unsigned jobs) {
  if (!std::filesystem::exists(output / "CMakeLists.txt")) throw Error(in_file(output.string()), "not a recompiled project (no CMakeLists.txt)");
  const std::filesystem::path build_dir = output / "build";
  if (!std::filesystem::exists(build_dir / "build.ninja")) {
    const std::string configure = fmt::format("cmake -S '{}' -B '{}' -G Ninja -DCMAKE_BUILD_TYPE=Release > '{}' 2>&1", output.string(),
                                              build_dir.string(), (output / "configure.log").string());
    if (std::system(configure.c_str()) != 0) throw Error(in_file((output / "configure.log").string()), "configuring the recompiled project failed");
  }
  const std::string make = fmt::format("ninja -C '{}' {} program", build_dir.string(), jobs ? fmt::format("-j{}", jobs) : "");
  if (std::system(make.c_str()) != 0) throw Error(in_file(output.string()), "building the recompiled project failed");
  return build_dir / "program";
}

} // namespace kiln::recompiler
