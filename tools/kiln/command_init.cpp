// `kiln init EXECUTABLE`: a starting games/<title>/kiln.toml with the executable's hash, the platform and what
// analysis found (and could not find) in it. For an ExeFS folder: the title id from main.npdm, `main`'s hash,
// the modules and imports kiln linked.
#include <fmt/format.h>

#include <filesystem>

#include "recompiler/analysis/program.h"
#include "recompiler/config/title_config.h"
#include "recompiler/isa/aarch64/decoder.h"
#include "recompiler/loaders/elf/elf_file.h"
#include "recompiler/loaders/switch/exefs.h"
#include "recompiler/pipeline/front_end.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "tools/kiln/command_registry.h"

namespace {

/// The kiln.toml text: `header` (title, platform and what else the input says), the [[inputs]] entry for
/// `input_name` with the hash of `bytes`, and what analysis of `elf` found.
std::string starting_config(const std::string& header, const std::string& input_name, const std::vector<uint8_t>& bytes, const kiln::elf::ElfFile& elf) {
  const kiln::a64::Decoder decoder;
  const kiln::analysis::Program program(elf, decoder);
  size_t unnamed = 0;
  for (const auto& f : program.functions()) unnamed += f.name.empty();
  std::string out = header + fmt::format(
      "[[inputs]]\nname = \"{1}\"\nhash = \"{2}\"\n\n"
      "# Analysis found {3} functions ({4} without a symbol name), {5} instructions, {6} jump tables;\n"
      "# {7} indirect branches stay unresolved (they go through the run-time dispatch table and, for addresses that\n"
      "# were not recompiled, the fallback interpreter; `kiln discover apply` adds what a run reaches).\n",
      "", input_name, kiln::config::content_hash(bytes), program.functions().size(), unnamed, program.instruction_count(),
      program.jump_tables().size(), program.unresolved_indirect_branches().size());
  for (uint64_t branch : program.unresolved_indirect_branches()) {
    const auto* f = program.function_containing(branch);
    out += fmt::format("#   unresolved: {:#x} {} in {}\n", branch, program.instruction(branch)->text,
                       f ? (f->name.empty() ? fmt::format("sub_{:x}", f->start) : f->name) : std::string("?"));
  }
  for (const auto& issue : program.jump_table_issues()) out += fmt::format("#   jump table at {:#x}: {}\n", issue.jump_address, issue.problem);
  out += "\n# Entries to add as porting goes on (see docs/porting.md):\n"
         "# [[functions]]     address, size, name      entries analysis missed\n"
         "# [[jump_tables]]   branch, targets           case targets of a BR analysis could not read\n"
         "# [[ignore]] / [[stubs]] / [[patches]] / [[hooks]] / [[replacements]], sources = [\"hooks.cpp\"]\n";
  return out;
}

/// A MIPS or PowerPC executable (a PS-X EXE, a static 32-bit ELF): its platform and hash; `kiln recompile`
/// prints what discovery finds in it.
std::string fixed_width_config(const kiln::pipeline::Input& input, const std::string& title) {
  if (input.container == kiln::pipeline::Container::gamecube_disc)
    throw kiln::Error(kiln::in_file(input.path.string()), "a disc image takes no kiln.toml yet: give the title's DOL");
  const char* isa = input.isa == kiln::pipeline::Isa::mips ? "MIPS" : "PowerPC";
  std::string out = fmt::format("# kiln.toml for {0} ({1}): written by `kiln init`; docs/porting.md describes every field.\n"
                                "title = \"{0}\"\nplatform = \"{2}\"\n\n[[inputs]]\nname = \"{3}\"\nhash = \"{4}\"\n\n",
                                title, isa, input.platform, input.path.filename().string(), kiln::config::content_hash(input.bytes));
  out += "# `kiln recompile` prints what discovery finds (functions, jump tables, unresolved indirect branches).\n"
         "# Entries to add as porting goes on (see docs/porting.md; for MIPS and PowerPC programs):\n"
         "# [[functions]]     address                  entries discovery missed\n"
         "# [[jump_tables]]   branch, targets           case targets of an indirect jump discovery could not read\n"
         "# [[ignore]]        address                  functions left to the fallback interpreter\n"
         "# [[patches]]       address, encoding, original\n";
  return out;
}

std::string executable_config(const std::filesystem::path& executable, const std::string& title) {
  kiln::pipeline::RecompileOptions options;
  options.input = executable;
  const kiln::pipeline::Input input = kiln::pipeline::identify_input(options);
  if (input.isa != kiln::pipeline::Isa::aarch64) return fixed_width_config(input, title);
  const std::vector<uint8_t>& bytes = input.bytes;
  const kiln::elf::ElfFile elf(bytes, executable.string());
  const std::string header = fmt::format("# kiln.toml for {0}: written by `kiln init`; docs/porting.md describes every field.\n"
                                         "title = \"{0}\"\nplatform = \"linux-user\"\n\n", title);
  return starting_config(header, executable.filename().string(), bytes, elf);
}

/// An ExeFS folder: the title is named by main.npdm's program id (unless --title names it); the input is `main`,
/// whose hash identifies the title (the kiln.toml goes beside it, in the folder, or under games/).
std::string exefs_config(const std::filesystem::path& folder, const std::string& title) {
  const kiln::nx::ExeFs exefs = kiln::nx::load_exefs(folder);
  const std::filesystem::path title_input = kiln::nx::exefs_title_input(folder);
  const std::vector<uint8_t> bytes = kiln::read_file(title_input, kiln::input::executable);
  const std::vector<uint8_t> linked = kiln::nx::to_elf(exefs.placed(), exefs.entry);
  const kiln::elf::ElfFile elf(linked, folder.string());
  const std::string name = title.empty() ? fmt::format("{:016x}", exefs.npdm.program_id) : title;
  std::string header = fmt::format("# kiln.toml for the ExeFS {}: written by `kiln init`; docs/porting.md describes every field.\n"
                                   "# The platform is switch (kiln recompile chooses it for an ExeFS folder or PFS0).\n",
                                   folder.string());
  std::string summary = kiln::nx::describe_exefs(exefs, "#   ");
  header += "# What kiln found in the folder:\n" + summary + fmt::format("title = \"{}\"\n\n", name);
  return starting_config(header, title_input.filename().string(), bytes, elf);
}

void setup_init_command(CLI::App& root) {
  static std::string executable, output, title;
  static bool force = false;
  auto* init = root.add_subcommand("init", "write a starting kiln.toml for a guest executable (hash, platform, analysis findings)");
  init->add_option("executable", executable, "guest executable (static AArch64, mipsel or ppc32 Linux ELF, PS-X EXE) or a Switch ExeFS (folder, or a PFS0 such as an NSP)")->required();
  init->add_option("-o,--output", output, "kiln.toml to write (default: kiln.toml in the current folder)");
  init->add_option("--title", title, "title name (default: the executable's file name without extension; an ExeFS folder: main.npdm's program id)");
  init->add_flag("--force", force, "overwrite an existing file");
  init->callback([] {
    const std::filesystem::path target = output.empty() ? std::filesystem::path("kiln.toml") : std::filesystem::path(output);
    if (std::filesystem::exists(target) && !force) throw kiln::Error(kiln::in_file(target.string()), "already exists (--force overwrites it)");
    const std::string text = kiln::nx::is_exefs_input(executable)
                                 ? exefs_config(executable, title)
                                 : executable_config(executable, title.empty() ? std::filesystem::path(executable).stem().string() : title);
    kiln::write_file_if_changed(target, text);
    fmt::print("wrote {}\n", target.string());
  });
}

} // namespace

KILN_REGISTER_COMMAND("init", setup_init_command);
