#include "recompiler/loaders/switch/exefs.h"
#include "recompiler/loaders/switch/pfs0.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <unordered_map>

#include "runtime/base/bits.h"
#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/base/log.h"

namespace kiln::nx {
namespace {

constexpr uint32_t r_aarch64_abs64 = 257, r_aarch64_glob_dat = 1025, r_aarch64_jump_slot = 1026, r_aarch64_relative = 1027;
constexpr uint8_t stb_global = 1, stb_weak = 2, stt_section = 3, stt_file = 4;
const char* const unresolved_stubs_name = "unresolved-imports";

/// Where each defined, exported symbol is, first definition in lookup order winning (as rtld's global scope).
struct Definition {
  uint64_t address;
  std::string module; ///< the defining module's file; empty for an unresolved import's stub
};
using GlobalScope = std::unordered_map<std::string, Definition>;

bool exported(const DynamicSymbol& s) {
  return s.defined && (s.binding == stb_global || s.binding == stb_weak) && s.type != stt_section && s.type != stt_file && !s.name.empty();
}

/// Lookup order: main, subsdk0..9, sdk, then rtld (its exports can be imported; it is loaded first but is not
/// part of the title's own scope).
std::vector<const ExeFsModule*> lookup_order(const std::vector<ExeFsModule>& modules) {
  std::vector<const ExeFsModule*> order;
  for (const ExeFsModule& m : modules)
    if (m.file != "rtld") order.push_back(&m);
  for (const ExeFsModule& m : modules)
    if (m.file == "rtld") order.push_back(&m);
  return order;
}

/// One stub per unresolved import, 48 bytes: OutputDebugString of a message naming it, then Break (reason 0,
/// Panic). The messages are the stubs' rodata, on the page after the code.
Module make_unresolved_stubs(std::vector<UnresolvedImport>& imports, uint64_t base) {
  constexpr uint64_t stub_size = 48;
  const uint64_t count = static_cast<uint64_t>(std::count_if(imports.begin(), imports.end(), [](const UnresolvedImport& u) { return !u.weak; }));
  const uint64_t rodata_offset = align_up(stub_size * count, 0x1000);
  Module stubs;
  stubs.name = unresolved_stubs_name;
  std::vector<uint8_t>& image = stubs.image;
  image.resize(rodata_offset, 0);
  uint64_t at = 0;
  for (UnresolvedImport& u : imports) {
    if (u.weak) continue;
    const std::string message =
        fmt::format("unresolved import '{}' called (imported by {}; no module of the ExeFS exports it)", u.symbol, fmt::join(u.importers, ", "));
    const uint64_t pc = base + at, text = base + image.size();
    const uint64_t pages = ((text >> 12) - (pc >> 12)) & 0x1fffff; // ADRP's 21-bit page distance
    const uint32_t words[12] = {
        0x90000000u | static_cast<uint32_t>(pages & 3) << 29 | static_cast<uint32_t>(pages >> 2) << 5, // adrp x0, message
        0x91000000u | static_cast<uint32_t>(text & 0xfff) << 10,                                      // add x0, x0, #:lo12:message
        0xd2800001u | static_cast<uint32_t>(std::min<size_t>(message.size(), 0xffff)) << 5,          // movz x1, #length
        0xd4000001u | 0x27u << 5,                                                                     // svc #0x27 (OutputDebugString)
        0xd2800000u,                                                                                  // movz x0, #0 (Panic)
        0xd2800001u,                                                                                  // movz x1, #0
        0xd2800002u,                                                                                  // movz x2, #0
        0xd4000001u | 0x26u << 5,                                                                     // svc #0x26 (Break)
        0x14000000u, 0x14000000u, 0x14000000u, 0x14000000u,                                           // b . (Break does not return)
    };
    for (int w = 0; w < 12; ++w) store<uint32_t>(image.data() + at + 4 * w, words[w], Endian::little);
    image.insert(image.end(), message.begin(), message.end());
    image.push_back(0);
    u.stub = pc;
    stubs.symbols.push_back(Symbol{u.symbol, at, stub_size, true});
    at += stub_size;
  }
  image.resize(align_up(image.size(), 4), 0);
  Segment text, rodata, data;
  text.name = "text";
  text.size = text.file_size = stub_size * count;
  text.executable = true;
  rodata.name = "rodata";
  rodata.memory_offset = rodata_offset;
  rodata.size = rodata.file_size = image.size() - rodata_offset;
  data.name = "data";
  data.memory_offset = image.size();
  data.writable = true;
  stubs.segments = {text, rodata, data};
  return stubs;
}

} // namespace

const char* relocation_name(uint32_t type) {
  switch (type) {
  case r_aarch64_abs64: return "R_AARCH64_ABS64";
  case r_aarch64_glob_dat: return "R_AARCH64_GLOB_DAT";
  case r_aarch64_jump_slot: return "R_AARCH64_JUMP_SLOT";
  case r_aarch64_relative: return "R_AARCH64_RELATIVE";
  default: return "unsupported";
  }
}

std::vector<std::string> exefs_load_order() {
  std::vector<std::string> order{"rtld", "main"};
  for (int i = 0; i < 10; ++i) order.push_back(fmt::format("subsdk{}", i));
  order.push_back("sdk");
  return order;
}

namespace {
/// The ExeFS's files: a folder's, or a PFS0's entries (an NSP, or a decrypted ExeFS section).
class ExeFsFiles {
public:
  explicit ExeFsFiles(const std::filesystem::path& input) : input_(input) {
    std::error_code ec;
    if (std::filesystem::is_directory(input, ec)) return;
    container_ = read_file(input, input::executable);
    pfs0_ = read_pfs0(container_, input.string());
  }
  bool has(const std::string& name) const {
    std::error_code ec;
    return pfs0_ ? pfs0_->find(name) != nullptr : std::filesystem::is_regular_file(input_ / name, ec);
  }
  std::vector<uint8_t> read(const std::string& name) const {
    if (!pfs0_) return read_file(input_ / name, input::executable);
    const Pfs0File& f = *pfs0_->find(name);
    return {container_.begin() + static_cast<std::ptrdiff_t>(f.offset), container_.begin() + static_cast<std::ptrdiff_t>(f.offset + f.size)};
  }
  /// What errors call a file: its path, or CONTAINER:NAME.
  std::string display(const std::string& name) const { return pfs0_ ? input_.string() + ":" + name : (input_ / name).string(); }
  bool container() const { return pfs0_.has_value(); }

private:
  std::filesystem::path input_;
  std::vector<uint8_t> container_;
  std::optional<Pfs0> pfs0_;
};
} // namespace

bool is_exefs(const std::filesystem::path& path) {
  std::error_code ec;
  if (is_pfs0_file(path.string())) {
    const std::vector<uint8_t> bytes = read_file(path, input::executable);
    try {
      const Pfs0 pfs0 = read_pfs0(bytes, path.string());
      const Pfs0File* main = pfs0.find("main");
      return main && detect_format(std::span<const uint8_t>(bytes).subspan(main->offset, main->size)) == Format::nso;
    } catch (const Error&) {
      return false;
    }
  }
  if (!std::filesystem::is_directory(path, ec) || !std::filesystem::is_regular_file(path / "main", ec)) return false;
  const std::vector<uint8_t> head = read_file(path / "main", input::executable);
  return detect_format(head) == Format::nso;
}

bool is_exefs_input(const std::filesystem::path& path) {
  std::error_code ec;
  // An .nca or .nsp is taken as a container too, so that one that is not a readable PFS0 gets the PFS0 reader's error.
  const std::string extension = path.extension().string();
  return std::filesystem::is_directory(path, ec) || is_pfs0_file(path.string()) ||
         (std::filesystem::is_regular_file(path, ec) && (extension == ".nca" || extension == ".nsp" || extension == ".NCA" || extension == ".NSP"));
}

std::filesystem::path exefs_title_input(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec) ? path / "main" : path;
}

const ExeFsModule* ExeFs::module(const std::string& file) const {
  for (const ExeFsModule& m : modules)
    if (m.file == file) return &m;
  return nullptr;
}

std::vector<PlacedModule> ExeFs::placed() const {
  std::vector<PlacedModule> out;
  for (const ExeFsModule& m : modules) out.push_back({&m.module, m.base});
  if (unresolved_stubs) out.push_back({&unresolved_stubs->module, unresolved_stubs->base});
  return out;
}

void require_exefs(const std::filesystem::path& folder) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(folder, ec)) { // a container: the PFS0 reader names what is wrong with it
    if (!ExeFsFiles(folder).has("main")) throw Error(in_file(folder.string()), "not an ExeFS: the PFS0 holds no `main` module");
    return;
  }
  if (!std::filesystem::is_directory(folder, ec)) throw Error(in_file(folder.string()), "not a folder");
  if (!std::filesystem::is_regular_file(folder / "main", ec))
    throw Error(in_file(folder.string()), "not an ExeFS folder: it holds no `main` module");
}

ExeFs load_exefs(const std::filesystem::path& folder) {
  std::error_code ec;
  require_exefs(folder);
  ExeFs exefs;
  exefs.folder = folder;
  const ExeFsFiles files(folder);
  if (!files.has("main.npdm")) throw Error(in_file(folder.string()), files.container() ? "the PFS0 holds no main.npdm" : "the ExeFS folder holds no main.npdm");
  exefs.npdm_bytes = files.read("main.npdm");
  exefs.npdm = read_npdm(exefs.npdm_bytes, files.display("main.npdm"));

  // Load: each module at the next aligned base after the previous one's end (.bss included).
  uint64_t next_base = default_load_base;
  for (const std::string& file : exefs_load_order()) {
    if (!files.has(file)) continue;
    const std::vector<uint8_t> bytes = files.read(file);
    const std::string path = files.display(file);
    if (detect_format(bytes) != Format::nso) throw Error(at_offset(path, 0), "an ExeFS module must be an NSO (no \"NSO0\" magic)");
    ExeFsModule m{file, load_nso(bytes, path), next_base};
    m.module.name = file;
    m.module.load_base = m.base;
    next_base = align_up(m.end(), exefs_module_alignment);
    exefs.modules.push_back(std::move(m));
  }

  // The global scope, and the imports nothing defines (each gets a stub after the last module).
  GlobalScope scope;
  for (const ExeFsModule* m : lookup_order(exefs.modules))
    for (const DynamicSymbol& s : m->module.dynamic_symbols)
      if (exported(s)) scope.emplace(s.name, Definition{m->base + s.value, m->file});
  std::map<std::string, size_t> unresolved_index;
  for (const ExeFsModule& m : exefs.modules)
    for (const Relocation& r : m.module.relocations) {
      if (r.symbol == 0 || r.type == r_aarch64_relative) continue;
      const std::string where = fmt::format("{} (loaded image)", m.module.name);
      if (r.symbol >= m.module.dynamic_symbols.size())
        throw Error(at_offset(where, r.offset), fmt::format("relocation names symbol {}, past .dynsym's {} entries", r.symbol, m.module.dynamic_symbols.size()));
      const DynamicSymbol& s = m.module.dynamic_symbols[r.symbol];
      if (scope.count(s.name) || (s.defined && s.binding != stb_global && s.binding != stb_weak)) continue;
      auto [it, added] = unresolved_index.emplace(s.name, exefs.unresolved.size());
      if (added) exefs.unresolved.push_back({s.name, {}, 0, s.binding == stb_weak});
      UnresolvedImport& u = exefs.unresolved[it->second];
      if (s.binding != stb_weak) u.weak = false;
      if (std::find(u.importers.begin(), u.importers.end(), m.file) == u.importers.end()) u.importers.push_back(m.file);
    }
  if (std::any_of(exefs.unresolved.begin(), exefs.unresolved.end(), [](const UnresolvedImport& u) { return !u.weak; })) {
    ExeFsModule stubs{unresolved_stubs_name, make_unresolved_stubs(exefs.unresolved, next_base), next_base};
    stubs.module.load_base = next_base;
    exefs.unresolved_stubs = std::move(stubs);
  }
  for (const UnresolvedImport& u : exefs.unresolved) scope.emplace(u.symbol, Definition{u.stub, ""});

  // Relocate each module in place.
  for (ExeFsModule& m : exefs.modules) {
    const std::string where = fmt::format("{} (loaded image)", files.display(m.file));
    std::vector<uint8_t>& image = m.module.image;
    for (const Relocation& r : m.module.relocations) {
      const bool known = r.type == r_aarch64_relative || r.type == r_aarch64_abs64 || r.type == r_aarch64_glob_dat || r.type == r_aarch64_jump_slot;
      if (!known) {
        exefs.skipped.push_back({m.file, r.offset, r.type});
        continue;
      }
      if (r.offset > image.size() || image.size() - r.offset < 8)
        throw Error(at_offset(where, r.offset), fmt::format("{} target {:#x} is outside the module's {:#x} loaded bytes", relocation_name(r.type), r.offset, image.size()));
      uint64_t value = 0;
      if (r.type == r_aarch64_relative) {
        value = m.base + static_cast<uint64_t>(r.addend);
      } else {
        uint64_t address = 0; // symbol 0: the addend alone
        if (r.symbol != 0) {
          const DynamicSymbol& s = m.module.dynamic_symbols.at(r.symbol); // the index was checked above
          if (s.defined && s.binding != stb_global && s.binding != stb_weak) {
            address = m.base + s.value; // a local symbol binds to its own module
          } else if (const auto found = scope.find(s.name); found != scope.end()) {
            address = found->second.address;
            if (!unresolved_index.count(s.name)) ++exefs.resolved_imports;
            if (!s.defined || found->second.module != m.file) {
              const bool listed = std::any_of(exefs.imports.begin(), exefs.imports.end(),
                                              [&](const ResolvedImport& i) { return i.importer == m.file && i.symbol == s.name; });
              if (!listed) exefs.imports.push_back({m.file, s.name, found->second.module, address});
            }
          }
        }
        value = address + static_cast<uint64_t>(r.addend);
      }
      store<uint64_t>(image.data() + r.offset, value, Endian::little);
      ++exefs.applied[r.type];
    }
  }
  for (const SkippedRelocation& s : exefs.skipped)
    log::warning("{}: relocation type {} at module offset {:#x} is not applied (kiln applies RELATIVE, GLOB_DAT, JUMP_SLOT and ABS64)",
                 files.display(s.module), s.type, s.offset);

  // Initialisers in reverse load order (the sdk first, main last), as a dependency comes before its users;
  // rtld's are not run (rtld is not entered).
  for (auto it = exefs.modules.rbegin(); it != exefs.modules.rend(); ++it) {
    const ExeFsModule& m = *it;
    if (m.file == "rtld") continue;
    const ByteReader image(m.module.image, fmt::format("{} (loaded image)", files.display(m.file)));
    auto add = [&](uint64_t address, uint64_t found_at) {
      const ExeFsModule* owner = nullptr;
      for (const ExeFsModule& o : exefs.modules)
        if (address >= o.base + o.module.text().memory_offset && address < o.base + o.module.text().memory_offset + o.module.text().size) owner = &o;
      if (!owner) image.fail_at(found_at, fmt::format("initialiser {:#x} is in no module's text", address));
      exefs.initializers.push_back(address);
    };
    if (m.module.init) add(m.base + *m.module.init, *m.module.init);
    if (m.module.init_array)
      for (uint64_t at = 0; at + 8 <= m.module.init_array_size; at += 8) {
        const uint64_t address = image.peek_at<uint64_t>(*m.module.init_array + at);
        if (address != 0 && address != ~uint64_t{0}) add(address, *m.module.init_array + at);
      }
  }
  const ExeFsModule* main = exefs.module("main");
  exefs.entry = main->base + main->module.text().memory_offset;
  return exefs;
}

std::string title_access_source(const Npdm& npdm) {
  return fmt::format("// Written by kiln recompile from main.npdm (runtime/platform/switch/title_access.h).\n"
                     "#include \"runtime/platform/switch/title_access.h\"\n\n"
                     "const kiln::hos::TitleAccess kiln::hos::kiln_switch_title_access = {{\n"
                     "    {:#018x}ull, // FS permissions: ACI0 {:#x} & ACID {:#x}\n"
                     "    {:#x}u,      // system resource size\n}};\n",
                     npdm.fs_permissions(), npdm.fs_access_flags, npdm.acid_fs_access_flags, npdm.system_resource_size);
}

std::string describe_exefs(const ExeFs& exefs, const std::string& indent) {
  const Npdm& n = exefs.npdm;
  std::string out = fmt::format("{}ExeFS: title {:016x} \"{}\", main thread priority {}, stack {:#x}, {} service access entries ({})\n", indent,
                                n.program_id, n.name, n.main_thread_priority, n.main_thread_stack_size, n.services.size(),
                                n.services.empty() ? std::string("none") : [&] {
                                  std::string names;
                                  for (const ServiceAccess& s : n.services) names += (names.empty() ? "" : " ") + s.name + (s.server ? " (server)" : "");
                                  return names;
                                }());
  out += fmt::format("{}  FS permissions {:#x} (ACI0 {:#x} & ACID {:#x}); system resource size {:#x}\n", indent, n.fs_permissions(),
                     n.fs_access_flags, n.acid_fs_access_flags, n.system_resource_size);
  for (const ExeFsModule& m : exefs.modules) {
    size_t exported_symbols = 0;
    for (const DynamicSymbol& s : m.module.dynamic_symbols) exported_symbols += exported(s);
    out += fmt::format("{}  module {:<8} base {:#x} end {:#x}: {} exported symbols, {} relocations{}\n", indent, m.file, m.base, m.end(), exported_symbols,
                       m.module.relocations.size(), m.file == "rtld" ? " (loaded, not entered: kiln does its work)" : "");
  }
  std::string applied;
  for (const auto& [type, count] : exefs.applied) applied += fmt::format("{}{} {}", applied.empty() ? "" : ", ", relocation_name(type), count);
  out += fmt::format("{}  relocations applied: {}; imports resolved: {}; unresolved: {}; initialisers: {}; entry {:#x} (main)\n", indent,
                     applied.empty() ? std::string("none") : applied, exefs.resolved_imports, exefs.unresolved.size(), exefs.initializers.size(), exefs.entry);
  for (const UnresolvedImport& u : exefs.unresolved)
    out += u.weak ? fmt::format("{}  unresolved import {} (weak, imported by {}): left 0\n", indent, u.symbol, fmt::join(u.importers, ", "))
                  : fmt::format("{}  unresolved import {} (imported by {}): its stub at {:#x} stops the program naming it\n", indent, u.symbol,
                                fmt::join(u.importers, ", "), u.stub);
  for (const SkippedRelocation& s : exefs.skipped)
    out += fmt::format("{}  relocation not applied: {} module offset {:#x}, type {}\n", indent, s.module, s.offset, s.type);
  return out;
}

} // namespace kiln::nx
