#include "recompiler/core/recompile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "recompiler/analysis/program.h"
#include "recompiler/core/title_setup.h"
#include "recompiler/emit/mips/linux_project.h"
#include "recompiler/emit/mips/psx_project.h"
#include "recompiler/isa/aarch64/decoder.h"
#include "recompiler/loaders/elf/elf32_mips.h"
#include "recompiler/loaders/elf/elf_file.h"
#include "recompiler/loaders/switch/exefs.h"
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

namespace {

double seconds_since(std::chrono::steady_clock::time_point started) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

/// The AArch64 summary: counts, platform, configuration, fallback coverage and the first untranslated words.
std::string describe(const RecompileSummary& s, const RecompileOptions& o) {
  std::string out = fmt::format("recompiled {}: {} functions, {} instructions, {} jump tables, {} unresolved indirect branches, "
                                "{} untranslated instructions; {} files written, {} unchanged; {:.2f} s\n",
                                o.input.string(), s.functions, s.instructions, s.jump_tables, s.unresolved_indirect_branches.size(),
                                s.untranslated.size(), s.files_written, s.files_unchanged, s.seconds);
  out += fmt::format("  platform: {}\n", s.platform);
  if (!s.config.empty()) out += fmt::format("  config: {}\n", s.config.string());
  for (const std::string& set : s.applied_patch_sets) out += fmt::format("  patch set applied: {}\n", set);
  out += fmt::format("  fallback interpreter: {} instructions (all but the entries of compiled functions) in {} steps; discovery report: {}\n",
                     s.fallback_steps, s.fallback_step_functions,
                     s.discovery_report.string());
  const size_t shown = o.list_untranslated ? s.untranslated.size() : std::min<size_t>(s.untranslated.size(), 10);
  for (size_t i = 0; i < shown; ++i) {
    const auto& u = s.untranslated[i];
    out += fmt::format("  untranslated {:#x} {:08x} {} (in {})\n", u.address, u.encoding, u.text, u.function);
  }
  if (shown < s.untranslated.size())
    out += fmt::format("  ... {} more (--list-untranslated shows all; each traps if reached)\n", s.untranslated.size() - shown);
  return out;
}

bool is_psx_exe(std::span<const uint8_t> bytes) {
  static constexpr std::string_view magic = "PS-X EXE";
  return bytes.size() >= magic.size() && std::equal(magic.begin(), magic.end(), bytes.begin());
}

/// The MIPS front end's two platforms (recompiler/emit/mips): the PS1 and mipsel Linux.
RecompileSummary recompile_mips(const RecompileOptions& options, bool psx) {
  const auto started = std::chrono::steady_clock::now();
  const mips::PsxRecompileOptions mips_options{options.input, options.output, source_root(), binary_root()};
  const mips::PsxRecompileReport report = psx ? mips::recompile_psx(mips_options) : mips::recompile_mipsel_linux(mips_options);
  RecompileSummary summary;
  summary.platform = psx ? "psx" : "linux-user";
  summary.functions = report.functions;
  summary.instructions = report.instructions;
  summary.jump_tables = report.jump_tables;
  summary.unresolved_indirect_branches.assign(report.unresolved_jumps.begin(), report.unresolved_jumps.end());
  summary.files_written = report.files_written;
  summary.files_unchanged = report.files_unchanged;
  summary.seconds = seconds_since(started);
  summary.text = psx ? mips::describe_psx_report(options.input.string(), report, summary.seconds, options.list_untranslated)
                     : mips::describe_report(options.input.string(), report, summary.seconds, options.list_untranslated);
  return summary;
}

} // namespace

RecompileSummary recompile(const RecompileOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  if (options.platform != "linux-user" && options.platform != "switch" && options.platform != "psx")
    throw Error("unknown platform '" + options.platform + "' (supported: linux-user, switch, psx)");
  {
    std::error_code ec;
    const std::vector<uint8_t> head = std::filesystem::is_regular_file(options.input, ec) ? read_file(options.input, kiln::input::executable) : std::vector<uint8_t>{};
    if (options.platform == "psx" || is_psx_exe(head)) return recompile_mips(options, true);
    if (elf::is_elf32_mips(head)) return recompile_mips(options, false);
  }
  // A folder (or a PFS0: an NSP, a decrypted ExeFS section) is a Switch title's ExeFS: its `main` module (the
  // PFS0 file) names the title (hash, kiln.toml beside it).
  const bool exefs_folder = nx::is_exefs_input(options.input);
  if (exefs_folder) nx::require_exefs(options.input);
  const TitleSetup setup = prepare_title(exefs_folder ? nx::exefs_title_input(options.input) : options.input, options.config, options.find_config, options.patch_sets);
  // Switch NSO/NRO (recognised by magic) and ExeFS folders are analysed and emitted through an ELF view of the
  // loaded (and, for a folder, linked and relocated) modules.
  const bool switch_module = exefs_folder || nx::detect_format(setup.bytes).has_value();
  const std::string platform = switch_module ? "switch" : options.platform;
  std::vector<uint8_t> module_elf;
  std::optional<nx::ExeFs> exefs;
  if (exefs_folder) {
    exefs = nx::load_exefs(options.input);
    module_elf = nx::to_elf(exefs->placed(), exefs->entry);
  } else if (switch_module) {
    module_elf = nx::to_elf(nx::load_module(setup.bytes, options.input.string(), nx::default_load_base), nx::default_load_base);
  }
  // A Switch module's instruction patches name addresses of the loaded (for an ExeFS: linked and relocated) image.
  if (switch_module) apply_instruction_patches(module_elf, options.input.string() + " (linked image)", setup.changes.changes.patches);
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
  if (exefs) {
    emit::SwitchTitleInfo title;
    title.program_id = exefs->npdm.program_id;
    title.main_thread_priority = exefs->npdm.main_thread_priority;
    title.main_thread_stack_size = exefs->npdm.main_thread_stack_size;
    for (const nx::ServiceAccess& s : exefs->npdm.services)
      if (!s.server) title.allowed_services.push_back(s.name);
    title.initializers = exefs->initializers;
    emit_options.switch_title = title;
  }
  const emit::EmitReport report = emit::emit_project(program, options.input, emit_options);
  // main.npdm's FS permissions and system resource size, for the Horizon runtime (title_access.h).
  if (exefs) write_file_if_changed(options.output / "switch_title_access.cpp", nx::title_access_source(exefs->npdm));
  else std::filesystem::remove(options.output / "switch_title_access.cpp");
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
  summary.fallback_step_functions = report.fallback_step_functions;
  if (setup.config) summary.config = setup.config->file;
  summary.applied_patch_sets = setup.changes.applied;
  summary.discovery_report = options.output / "discovery.toml";
  write_discovery_report(summary.discovery_report, program, report.untranslated, exefs ? exefs->unresolved : std::vector<nx::UnresolvedImport>{});
  summary.seconds = seconds_since(started);
  summary.text = describe(summary, options);
  if (exefs) {
    for (const nx::UnresolvedImport& u : exefs->unresolved) summary.unresolved_imports.push_back(u.symbol);
    summary.text += nx::describe_exefs(*exefs, "  ");
  }
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
