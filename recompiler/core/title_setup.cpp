#include "recompiler/core/title_setup.h"

#include <fmt/format.h>

#include "recompiler/config/toml_fields.h"
#include "recompiler/core/recompile.h"
#include "recompiler/isa/aarch64/semantics/semantics.h"
#include "recompiler/loaders/dol/symbol_map.h"
#include "recompiler/loaders/elf/elf_file.h"
#include "recompiler/loaders/switch/pfs0.h"
#include "recompiler/loaders/switch/switch_module.h"
#include "runtime/base/file_writer.h"
#include "runtime/base/hash.h"

namespace kiln::recompiler {
namespace {

/// Where an entry was written, as errors name it.
std::string origin_text(const config::Origin& origin) {
  return origin.patch_set.empty() ? fmt::format("{}:{}", origin.file, origin.line) : origin.describe();
}

Error config_error(const config::Origin& origin, const std::string& message) { return Error(in_file(origin_text(origin)), message); }

pipeline::CodePatch code_patch(const config::InstructionPatch& patch) {
  return pipeline::CodePatch{patch.address, patch.encoding, patch.original, origin_text(patch.origin)};
}

std::string toml_string(std::string_view text) {
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

} // namespace

void apply_instruction_patches(std::vector<uint8_t>& bytes, const std::string& name, const std::vector<config::InstructionPatch>& patches) {
  if (patches.empty()) return; // nothing to place: the input need not be an ELF
  const std::vector<uint8_t> original = bytes; // the ELF view reads the headers; the patches write `bytes`
  const elf::ElfFile elf(original, name);
  std::vector<pipeline::CodeBytes> code;
  for (const elf::Segment& s : elf.segments())
    if (s.executable()) code.push_back({s.address, std::span<uint8_t>(bytes).subspan(s.file_offset, s.file_size)});
  std::vector<pipeline::CodePatch> code_patches;
  for (const config::InstructionPatch& patch : patches) code_patches.push_back(code_patch(patch));
  pipeline::apply_code_patches(code, Endian::little, name, code_patches);
}

pipeline::TitleHints fixed_width_hints(const TitleSetup& setup, const char* isa) {
  const config::Changes& changes = setup.changes.changes;
  auto unsupported = [&](const config::Origin& origin, const char* what) {
    return config_error(origin, fmt::format("{} are not supported for {} programs yet (functions, jump_tables, ignore and patches are)", what, isa));
  };
  if (!changes.stubs.empty()) throw unsupported(changes.stubs.front().origin, "stubs");
  if (!changes.hooks.empty()) throw unsupported(changes.hooks.front().origin, "hooks");
  if (!changes.replacements.empty()) throw unsupported(changes.replacements.front().origin, "replacements");
  if (!changes.sources.empty())
    throw Error(in_file(changes.sources.front().string()), fmt::format("C++ sources (`sources`) are not supported for {} programs yet", isa));
  pipeline::TitleHints hints;
  for (const config::FunctionHint& f : changes.functions) hints.functions.push_back({f.address, origin_text(f.origin)});
  for (const config::JumpTableHint& j : changes.jump_tables) hints.jump_tables.push_back({j.branch, j.targets, origin_text(j.origin)});
  for (const config::IgnoredFunction& i : changes.ignore) hints.ignored.push_back({i.address, origin_text(i.origin)});
  for (const config::InstructionPatch& p : changes.patches) hints.patches.push_back(code_patch(p));
  if (setup.config)
    for (const std::filesystem::path& map : setup.config->symbol_maps) {
      const std::vector<uint8_t> text = read_file(map, kiln::input::text);
      const gamecube::SymbolMap symbols = gamecube::read_symbol_map(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()), map.string());
      for (const gamecube::MapSymbol& s : symbols.symbols)
        if (s.is_function) hints.functions.push_back({s.address, fmt::format("{}:{}", map.string(), s.line), false});
    }
  return hints;
}

TitleSetup prepare_title(const std::filesystem::path& input, const std::filesystem::path& config_file, bool find_config,
                         const std::vector<std::string>& patch_sets) {
  TitleSetup setup;
  setup.bytes = read_file(input, kiln::input::executable);
  std::filesystem::path file = config_file;
  if (file.empty() && find_config) file = config::find_title_config(input, setup.bytes, source_root());
  if (file.empty()) {
    if (!patch_sets.empty()) throw Error("patch sets need the title's kiln.toml (--config)");
    return setup;
  }
  setup.config = config::load_title_config(file);
  config::verify_input(*setup.config, input, setup.bytes);
  std::vector<config::PatchSet> sets;
  for (const std::string& name : patch_sets) sets.push_back(config::load_patch_set(config::find_patch_set(name, *setup.config, source_root() / "patches")));
  setup.changes = config::combine_changes_or_throw(*setup.config, sets);
  const config::Changes& changes = setup.changes.changes;
  for (const config::FunctionHint& f : changes.functions) setup.hints.functions.push_back({f.address, f.size.value_or(0), f.name});
  for (const config::JumpTableHint& j : changes.jump_tables)
    if (!setup.hints.jump_tables.emplace(j.branch, j.targets).second) throw config_error(j.origin, fmt::format("jump table at {:#x} is described twice", j.branch));
  emit::Customization& custom = setup.customization;
  for (const config::IgnoredFunction& i : changes.ignore) custom.ignored.insert(i.address);
  for (const config::Stub& s : changes.stubs) custom.stubs[s.address] = s.return_value;
  for (const config::Replacement& r : changes.replacements) custom.replacements[r.address] = r.function;
  for (const config::Hook& h : changes.hooks) custom.hooks.emplace(h.address, emit::Customization::Hook{h.when == config::HookWhen::after, h.function, h.targets});
  custom.sources = changes.sources;
  custom.applied_patch_sets = setup.changes.applied;
  return setup;
}

void check_against_program(const TitleSetup& setup, const analysis::Program& program) {
  const config::Changes& changes = setup.changes.changes;
  auto function_start = [&](uint64_t address, const config::Origin& origin, const char* what) {
    const analysis::Function* f = program.function_at(address);
    if (!f) {
      const analysis::Function* owner = program.function_containing(address);
      throw config_error(origin, owner ? fmt::format("{} {:#x} is inside function {:#x} ({}), not at its start", what, address, owner->start, owner->name)
                                       : fmt::format("{} {:#x} is not a function analysis found (add it under [[functions]])", what, address));
    }
  };
  for (const config::IgnoredFunction& i : changes.ignore) function_start(i.address, i.origin, "ignored function");
  for (const config::Stub& s : changes.stubs) function_start(s.address, s.origin, "stubbed function");
  for (const config::Replacement& r : changes.replacements) function_start(r.address, r.origin, "replaced function");
  for (const config::Hook& h : changes.hooks) {
    const analysis::Function* f = program.function_containing(h.address);
    if (!f) throw config_error(h.origin, fmt::format("hook address {:#x} is not inside a function analysis found", h.address));
    if (setup.customization.ignored.count(f->start) || setup.customization.stubs.count(f->start))
      throw config_error(h.origin, fmt::format("hook address {:#x} is inside function {:#x}, which is ignored or stubbed (not compiled)", h.address, f->start));
    for (uint64_t t : h.targets)
      if (t < f->start || t >= f->end) throw config_error(h.origin, fmt::format("hook target {:#x} is outside the hooked function [{:#x}, {:#x})", t, f->start, f->end));
    if (h.when == config::HookWhen::after) {
      const a64::ControlFlow kind = a64::control_flow(*program.instruction(h.address)).kind;
      if (kind != a64::ControlFlow::none && kind != a64::ControlFlow::call && kind != a64::ControlFlow::indirect_call)
        throw config_error(h.origin, fmt::format("an 'after' hook at {:#x} follows a branch or return, so it would never run; hook 'before' it instead", h.address));
    }
  }
}

void write_discovery_report(const std::filesystem::path& file, const analysis::Program& program,
                            const std::vector<emit::UntranslatedInstruction>& untranslated,
                            const std::vector<nx::UnresolvedImport>& unresolved_imports) {
  auto name_of = [&](uint64_t address) {
    const analysis::Function* f = program.function_containing(address);
    return f ? (f->name.empty() ? fmt::format("sub_{:x}", f->start) : f->name) : std::string("(no function)");
  };
  std::string out = fmt::format("# Written by kiln recompile for {}: what analysis could not resolve.\n"
                                "# `kiln discover apply` turns run-time [[reached]] entries into kiln.toml entries; the rest is for the porter\n"
                                "# ([[jump_tables]] hints, [[functions]] entries, patches).\n\n",
                                program.elf().name());
  for (uint64_t branch : program.unresolved_indirect_branches())
    out += fmt::format("[[unresolved_branch]]\naddress = {:#x}\nfunction = {}\ninstruction = {}\n\n", branch, toml_string(name_of(branch)),
                       toml_string(program.instruction(branch)->text));
  for (const analysis::JumpTableIssue& issue : program.jump_table_issues())
    out += fmt::format("[[jump_table]]\nbranch = {:#x}\ntable = {:#x}\nfunction = {}\nproblem = {}\n\n", issue.jump_address, issue.table_address,
                       toml_string(name_of(issue.jump_address)), toml_string(issue.problem));
  for (const emit::UntranslatedInstruction& u : untranslated)
    out += fmt::format("[[{}]]\naddress = {:#x}\nencoding = {:#010x}\nfunction = {}\ntext = {}\n\n", u.undecodable ? "undecodable" : "untranslated", u.address,
                       u.encoding, toml_string(u.function), toml_string(u.text));
  for (const nx::UnresolvedImport& u : unresolved_imports) {
    std::string importers;
    for (const std::string& module : u.importers) importers += (importers.empty() ? "" : ", ") + toml_string(module);
    // A weak import resolves to 0 (ELF's rule) and has no stub; a strong one's stub stops the program naming it.
    out += fmt::format("[[unresolved_import]]\nsymbol = {}\nimported_by = [{}]\nweak = {}\n{}\n", toml_string(u.symbol), importers,
                       u.weak ? "true" : "false", u.weak ? "" : fmt::format("stub = {:#x}\n", u.stub));
  }
  write_file_if_changed(file, out);
}

} // namespace kiln::recompiler
