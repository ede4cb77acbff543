// The AArch64 front end: static Linux ELFs, Switch NSO/NRO modules and ExeFS folders, through the title's
// configuration (kiln.toml, patch sets), analysis::Program and the C++ emitter.
#include <fmt/format.h>

#include <chrono>

#include "recompiler/analysis/program.h"
#include "recompiler/core/front_ends.h"
#include "recompiler/core/recompile.h"
#include "recompiler/core/title_setup.h"
#include "recompiler/emit/cpp_emitter.h"
#include "recompiler/isa/aarch64/decoder.h"
#include "recompiler/loaders/elf/elf_file.h"
#include "recompiler/loaders/switch/exefs.h"
#include "recompiler/loaders/switch/switch_module.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"

namespace kiln::recompiler {

RecompileSummary AArch64FrontEnd::recompile(const pipeline::Input& input, const RecompileOptions& options) const {
  const auto started = std::chrono::steady_clock::now();
  // A folder (or a PFS0: an NSP, a decrypted ExeFS section) is a Switch title's ExeFS: its `main` module (the
  // PFS0 file) names the title (hash, kiln.toml beside it).
  const bool exefs_folder = input.container == pipeline::Container::exefs_folder;
  TitleSetup setup = prepare_title(exefs_folder ? nx::exefs_title_input(options.input) : options.input, options.config, options.find_config, options.patch_sets);
  // Switch NSO/NRO (recognised by magic) and ExeFS folders are analysed and emitted through an ELF view of the
  // loaded (and, for a folder, linked and relocated) modules.
  const bool switch_module = exefs_folder || nx::detect_format(setup.bytes).has_value();
  const std::string& platform = input.platform;
  std::vector<uint8_t> module_elf;
  std::optional<nx::ExeFs> exefs;
  if (exefs_folder) {
    exefs = nx::load_exefs(options.input);
    module_elf = nx::to_elf(exefs->placed(), exefs->entry);
  } else if (switch_module) {
    module_elf = nx::to_elf(nx::load_module(setup.bytes, options.input.string(), nx::default_load_base), nx::default_load_base);
  }
  // A Switch module's instruction patches name addresses of the loaded (for an ExeFS: linked and relocated) image;
  // an ELF's, addresses of the file as read.
  if (switch_module) apply_instruction_patches(module_elf, options.input.string() + " (linked image)", setup.changes.changes.patches);
  else apply_instruction_patches(setup.bytes, options.input.string(), setup.changes.changes.patches);
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
  summary.has_fallback = true;
  summary.fallback_steps = report.fallback_steps;
  summary.fallback_step_functions = report.fallback_step_functions;
  if (setup.config) summary.config = setup.config->file;
  summary.applied_patch_sets = setup.changes.applied;
  summary.discovery_report = options.output / "discovery.toml";
  write_discovery_report(summary.discovery_report, program, report.untranslated, exefs ? exefs->unresolved : std::vector<nx::UnresolvedImport>{});
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  summary.text = pipeline::describe(summary, options);
  if (exefs) {
    for (const nx::UnresolvedImport& u : exefs->unresolved) summary.unresolved_imports.push_back(u.symbol);
    summary.text += nx::describe_exefs(*exefs, "  ");
  }
  return summary;
}

} // namespace kiln::recompiler
