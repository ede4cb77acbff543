// `kiln inspect EXECUTABLE`: format, segments, symbols and build ID of a guest executable (AArch64 ELF, Switch
// NSO/NRO; for an ExeFS folder each module, its base, the npdm and what every import resolved to); with --function and --build, a function's guest instructions beside the x86-64 code the host
// compiler made for it in the built program, with the instruction counts of both.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "recompiler/analysis/program.h"
#include "recompiler/isa/aarch64/decoder.h"
#include "recompiler/loaders/elf/elf_file.h"
#include "recompiler/loaders/switch/exefs.h"
#include "recompiler/loaders/switch/host_code.h"
#include "recompiler/loaders/switch/switch_module.h"
#include "runtime/base/bits.h"
#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "tools/kiln/command_registry.h"

namespace {

using namespace kiln;

struct Arguments {
  std::string input, function, build;
  bool all_symbols = false;
  size_t symbols_shown = 10;
};

std::string hex(std::span<const uint8_t> bytes) {
  std::string text;
  for (uint8_t b : bytes) text += fmt::format("{:02x}", b);
  return text;
}

std::string permissions(bool executable, bool writable) { return fmt::format("r{}{}", writable ? 'w' : '-', executable ? 'x' : '-'); }

/// GNU build ID from .note.gnu.build-id (namesz, descsz, type, "GNU\0", then the ID), or empty.
std::string elf_build_id(const elf::ElfFile& elf) {
  for (const auto& section : elf.sections()) {
    if (section.name != ".note.gnu.build-id") continue;
    const ByteReader note = ByteReader(elf.bytes(), elf.name()).sub_reader(section.file_offset, section.size);
    const uint32_t name_size = note.peek_at<uint32_t>(0), id_size = note.peek_at<uint32_t>(4);
    return hex(note.span_at(12 + align_up(name_size, 4), id_size));
  }
  return {};
}

void print_symbols(const std::vector<elf::Symbol>& symbols, const Arguments& a) {
  std::vector<elf::Symbol> sorted = symbols;
  std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) { return x.address < y.address; });
  fmt::print("symbols: {}\n", sorted.size());
  const size_t shown = a.all_symbols ? sorted.size() : std::min(sorted.size(), a.symbols_shown);
  for (size_t i = 0; i < shown; ++i)
    fmt::print("  {:#x} {:6} {:6} {}\n", sorted[i].address, sorted[i].is_function ? "FUNC" : "OBJECT", sorted[i].size, sorted[i].name);
  if (shown < sorted.size()) fmt::print("  ... {} more (--symbols lists all)\n", sorted.size() - shown);
}

void print_module(const nx::Module& m, uint64_t base) {
  fmt::print("format: {} (Switch {})\n", nx::format_name(m.format), m.format == nx::Format::nso ? "executable module" : "homebrew executable");
  fmt::print("build ID: {}\n", hex(m.build_id));
  fmt::print("load base: {:#x} (module offsets below)\n", base);
  fmt::print("segments:\n");
  for (const auto& s : m.segments)
    fmt::print("  {:7} {} memory {:#8x} size {:#8x}  file {:#8x} size {:#8x}{}{}\n", s.name, permissions(s.executable, s.writable),
               s.memory_offset, s.size, s.file_offset, s.file_size, s.compressed ? "  lz4" : "", s.hash_checked ? "  sha256 ok" : "");
  const auto& data = m.segments[2];
  fmt::print("  {:7} rw- memory {:#8x} size {:#8x}\n", ".bss", data.memory_offset + data.size, m.bss_size);
  if (m.mod0_offset) fmt::print("MOD0 at {:#x}, .dynamic at {:#x}\n", *m.mod0_offset, m.dynamic_offset.value_or(0));
  fmt::print("relocations: {}", m.relocations.size());
  if (m.format == nx::Format::nro) fmt::print(" ({} R_AARCH64_RELATIVE applied, {} other left as stored)", m.applied_relocations, m.unapplied_relocations.size());
  fmt::print("\n");
}

void print_elf(const elf::ElfFile& elf) {
  const std::string id = elf_build_id(elf);
  fmt::print("format: ELF (AArch64, entry {:#x})\nbuild ID: {}\nsegments:\n", elf.entry(), id.empty() ? "none" : id);
  for (const auto& s : elf.segments())
    fmt::print("  {} address {:#10x} size {:#8x}  file {:#8x} size {:#8x}\n", permissions(s.executable(), s.writable()), s.address, s.memory_size,
               s.file_offset, s.file_size);
}

uint64_t resolve(const elf::ElfFile& elf, const std::string& text, bool module_offsets) {
  for (const auto& s : elf.symbols())
    if (s.name == text) return s.address;
  size_t used = 0;
  uint64_t address = 0;
  try {
    address = std::stoull(text, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty()) throw Error(in_file(elf.name()), fmt::format("--function {}: no such symbol, and not an address", text));
  return module_offsets && address < nx::default_load_base ? address + nx::default_load_base : address;
}

void print_function(const elf::ElfFile& elf, const Arguments& a, bool module_offsets) {
  const uint64_t address = resolve(elf, a.function, module_offsets);
  const a64::Decoder decoder;
  const analysis::Program program(elf, decoder);
  const analysis::Function* function = program.function_containing(address);
  if (!function) throw Error(at_address(elf.name(), address), "no function found there by analysis");
  std::vector<std::string> guest;
  const std::vector<uint8_t> code = elf.read_memory(function->start, function->end - function->start);
  for (uint64_t at = 0; at + 4 <= code.size(); at += 4) {
    const uint32_t word = load<uint32_t>(code.data() + at, Endian::little);
    const a64::Instruction instruction = decoder.decode(word, function->start + at);
    guest.push_back(fmt::format("{:#x}  {:08x}  {}", function->start + at, word, instruction.decoded ? instruction.text : "(undecodable)"));
  }
  const std::filesystem::path executable = std::filesystem::path(a.build) / "build" / "program";
  if (!std::filesystem::exists(executable))
    throw Error(in_file(executable.string()), "no built program here: run `kiln build` on the folder `kiln recompile` wrote");
  const std::vector<uint8_t> host_bytes = read_file(executable, kiln::input::executable);
  const std::string host_name = fmt::format("g_{:x}", function->start);
  const auto host = host::find_function(host_bytes, executable.string(), host_name);
  if (!host) throw Error(in_file(executable.string()), fmt::format("no {} in its symbol table (inlined into its callers, or stripped)", host_name));
  const auto listing = host::disassemble_x86_64(host->bytes, host->address);
  const std::string name = function->name.empty() ? fmt::format("sub_{:x}", function->start) : function->name;
  fmt::print("function {} [{:#x}, {:#x}); host {} at {:#x} ({} bytes)\n", name, function->start, function->end, host->symbol, host->address,
             host->bytes.size());
  fmt::print("{:<56}| {}\n", "guest (AArch64)", "host (x86-64)");
  for (size_t i = 0; i < std::max(guest.size(), listing.size()); ++i)
    fmt::print("{:<56}| {}\n", i < guest.size() ? guest[i] : "",
               i < listing.size() ? fmt::format("{:#x}  {}", listing[i].address, listing[i].text) : "");
  fmt::print("guest: {} AArch64 instructions; host: {} x86-64 instructions ({:.2f} per guest instruction)\n", guest.size(), listing.size(),
             guest.empty() ? 0.0 : static_cast<double>(listing.size()) / static_cast<double>(guest.size()));
}

/// An ExeFS folder: the title, each module at its base, what every import resolved to, the linked symbols.
void inspect_exefs(const Arguments& a) {
  const nx::ExeFs exefs = nx::load_exefs(a.input);
  fmt::print("format: ExeFS {} (Switch title: main.npdm and NSO modules, linked and relocated as rtld would)\n",
             std::filesystem::is_directory(a.input) ? "folder" : "in a PFS0");
  fmt::print("{}", nx::describe_exefs(exefs, ""));
  for (const nx::ExeFsModule& m : exefs.modules) {
    fmt::print("module {}:\n", m.file);
    print_module(m.module, m.base);
  }
  fmt::print("imports: {}\n", exefs.imports.size());
  for (const nx::ResolvedImport& i : exefs.imports)
    fmt::print("  {:8} {} -> {}\n", i.importer, i.symbol,
               i.provider.empty() ? fmt::format("unresolved (stub {:#x})", i.address) : fmt::format("{} {:#x}", i.provider, i.address));
  const std::vector<uint8_t> linked = nx::to_elf(exefs.placed(), exefs.entry);
  const elf::ElfFile elf(linked, a.input);
  print_symbols(elf.symbols(), a);
  if (!a.function.empty()) {
    if (a.build.empty()) throw Error("--function needs --build OUTDIR (a folder `kiln recompile` wrote and `kiln build` built)");
    print_function(elf, a, false);
  }
}

void inspect(const Arguments& a) {
  if (nx::is_exefs_input(a.input)) return inspect_exefs(a);
  const std::vector<uint8_t> bytes = read_file(a.input, kiln::input::executable);
  std::vector<uint8_t> module_elf;
  const bool switch_module = nx::detect_format(bytes).has_value();
  if (switch_module) {
    const nx::Module module = nx::load_module(bytes, a.input, nx::default_load_base);
    print_module(module, nx::default_load_base);
    module_elf = nx::to_elf(module, nx::default_load_base);
  }
  const elf::ElfFile elf(switch_module ? std::span<const uint8_t>(module_elf) : std::span<const uint8_t>(bytes), a.input);
  if (!switch_module) print_elf(elf);
  print_symbols(elf.symbols(), a);
  if (!a.function.empty()) {
    if (a.build.empty()) throw Error("--function needs --build OUTDIR (a folder `kiln recompile` wrote and `kiln build` built)");
    print_function(elf, a, switch_module);
  }
}

void setup_inspect_commands(CLI::App& root) {
  static Arguments args;
  auto* command = root.add_subcommand("inspect", "show an executable's format, segments, symbols and build ID; a recompiled function's guest and host code");
  command->add_option("executable", args.input, "guest executable (AArch64 ELF, Switch NSO or NRO, or an ExeFS folder)")->required();
  command->add_flag("--symbols", args.all_symbols, "list every symbol (default: the first 10)");
  command->add_option("--function", args.function, "a function (symbol name or address; NSO/NRO: a module offset too) to show guest beside host code");
  command->add_option("--build", args.build, "the folder `kiln recompile` wrote for this executable, built with `kiln build`");
  command->callback([] { inspect(args); });
}

} // namespace

KILN_REGISTER_COMMAND("inspect", setup_inspect_commands);
