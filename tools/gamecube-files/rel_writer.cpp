#include "tools/gamecube-files/rel_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "recompiler/loaders/dol/rel.h"
#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "tools/gamecube-files/ppc_elf.h"

namespace kiln::gamecube::writer {
namespace {

/// Where a symbol resolves: a module's section plus an offset, or (module 0) an absolute address.
struct Definition {
  uint32_t module = 0;
  uint8_t section = 0;
  uint32_t value = 0;
  std::string where; ///< for messages
};

struct Relocation {
  uint32_t module = 0; ///< whose import stream
  uint8_t section = 0;
  uint32_t offset = 0;
  uint8_t type = 0;
  uint8_t target_section = 0;
  uint32_t addend = 0;
};

/// Global and weak definitions of a linked executable, as module-0 definitions (absolute addresses).
std::map<std::string, Definition> dol_exports(const PpcElf& dol) {
  std::map<std::string, Definition> out;
  for (const elf::SymbolEntry& s : dol.symbols)
    if (!s.name.empty() && s.section != elf::shn_undef && s.binding() != elf::stb_local)
      out.emplace(s.name, Definition{0, 0, static_cast<uint32_t>(s.value), dol.name()});
  return out;
}

void check_section_index(const PpcElf& elf, const elf::SectionHeader& s, size_t index) {
  if (index > 0xff)
    throw Error(at_offset(elf.name(), s.header_offset),
                fmt::format("loaded section {} has index {}: a REL names sections in one byte", s.name, index));
}

/// A module's definitions other modules can import: its global and weak symbols in loaded sections.
std::map<std::string, Definition> module_exports(const PpcElf& elf, uint32_t id) {
  std::map<std::string, Definition> out;
  for (const elf::SymbolEntry& s : elf.symbols) {
    if (s.name.empty() || s.binding() == elf::stb_local) continue;
    if (s.section == elf::shn_abs) out.emplace(s.name, Definition{0, 0, static_cast<uint32_t>(s.value), elf.name()});
    else if (s.section != elf::shn_undef && s.section < elf.sections.size() && is_loaded(elf.sections[s.section]))
      out.emplace(s.name, Definition{id, static_cast<uint8_t>(s.section), static_cast<uint32_t>(s.value), elf.name()});
  }
  return out;
}

struct Layout {
  std::vector<std::pair<uint32_t, uint32_t>> table; ///< (offset | executable, size) per section index
  std::optional<size_t> bss;
  uint32_t align = 1, bss_align = 1;
  std::vector<uint8_t> file;                        ///< header space, table space, section bytes
};

Layout lay_out(const PpcElf& elf, uint32_t version) {
  Layout l;
  const uint32_t header = rel_layout::header_size(version);
  l.file.resize(header + elf.sections.size() * rel_layout::section_entry_size, 0);
  for (size_t i = 0; i < elf.sections.size(); ++i) {
    const elf::SectionHeader& s = elf.sections[i];
    if (!is_loaded(s)) {
      l.table.emplace_back(0, 0);
      continue;
    }
    check_section_index(elf, s, i);
    const uint32_t alignment = static_cast<uint32_t>(std::max<uint64_t>(1, s.alignment));
    if (!is_power_of_two(alignment))
      throw Error(at_offset(elf.name(), s.header_offset), fmt::format("section {} has alignment {}, not a power of two", s.name, alignment));
    if (s.type == elf::sht_nobits) {
      if (l.bss)
        throw Error(at_offset(elf.name(), s.header_offset),
                    fmt::format("a REL has one .bss, but {} and {} both take no file space: merge them (ld -r with a script, or -G 0 for .sbss)",
                                elf.sections[*l.bss].name, s.name));
      l.bss = i;
      l.bss_align = alignment;
      l.table.emplace_back(0, static_cast<uint32_t>(s.size));
      continue;
    }
    l.align = std::max(l.align, alignment);
    l.file.resize(align_up(l.file.size(), alignment), 0);
    l.table.emplace_back(static_cast<uint32_t>(l.file.size()) | (s.executable() ? rel_layout::executable_flag : 0),
                         static_cast<uint32_t>(s.size));
    const auto bytes = elf.bytes_of(s);
    l.file.insert(l.file.end(), bytes.begin(), bytes.end());
  }
  return l;
}

std::vector<Relocation> relocations_of(const PpcElf& elf, uint32_t id, const std::vector<std::map<std::string, Definition>>& others,
                                       const std::map<std::string, Definition>& dol) {
  std::vector<Relocation> out;
  for (const elf::SectionHeader& rela : elf.sections) {
    if (rela.type != elf::sht_rela && rela.type != elf::sht_rel) continue;
    if (rela.info >= elf.sections.size() || !is_loaded(elf.sections[rela.info])) continue; // debug info and the like
    const elf::SectionHeader& patched = elf.sections[rela.info];
    if (patched.type == elf::sht_nobits) continue;
    if (rela.type == elf::sht_rel) // the addend would be in the place, which PowerPC objects never do
      throw Error(at_offset(elf.name(), rela.header_offset), fmt::format("{} is SHT_REL; PowerPC objects carry SHT_RELA", rela.name));
    for (const elf::RelocationEntry& e : elf.container.relocations(rela)) {
      const auto fail = [&](const std::string& message) {
        throw Error(at_offset(elf.name(), e.entry_offset), fmt::format("relocation at {}+{:#x}: {}", patched.name, e.offset, message));
      };
      if (e.type == rel_type::ppc_none) continue;
      if (e.type > rel_type::ppc_rel14_brntaken)
        fail(fmt::format("type {} is not one a REL carries (R_PPC_ADDR32 to R_PPC_REL14_BRNTAKEN); build with -G 0 -fno-pic "
                         "-fno-asynchronous-unwind-tables", e.type));
      if (e.symbol >= elf.symbols.size()) fail(fmt::format("symbol {} is outside the symbol table", e.symbol));
      const elf::SymbolEntry& sym = elf.symbols[e.symbol];
      Definition def;
      if (sym.section == elf::shn_common) {
        fail(fmt::format("'{}' is a common symbol: build with -fno-common", sym.name));
      } else if (sym.section == elf::shn_abs) {
        def = {0, 0, static_cast<uint32_t>(sym.value), elf.name()};
      } else if (sym.section != elf::shn_undef) {
        if (sym.section >= elf.sections.size() || !is_loaded(elf.sections[sym.section]))
          fail(fmt::format("'{}' is in section {}, which is not loaded", sym.name, sym.section));
        def = {id, static_cast<uint8_t>(sym.section), static_cast<uint32_t>(sym.value), elf.name()};
      } else {
        std::vector<const Definition*> found;
        for (const auto& exports : others)
          if (auto it = exports.find(sym.name); it != exports.end()) found.push_back(&it->second);
        if (auto it = dol.find(sym.name); it != dol.end()) found.push_back(&it->second);
        if (found.size() > 1)
          fail(fmt::format("'{}' is defined in both {} and {}", sym.name, found[0]->where, found[1]->where));
        if (found.empty()) {
          if (sym.binding() != elf::stb_weak) fail(fmt::format("'{}' is defined neither in the DOL nor in another module", sym.name));
          def = {0, 0, 0, "nowhere (weak)"}; // an undefined weak symbol is 0, as ld makes it
        } else {
          def = *found[0];
        }
      }
      if (e.offset + rel_type::width(e.type) > patched.size) fail("the place is past the end of the section");
      out.push_back({def.module, static_cast<uint8_t>(rela.info), static_cast<uint32_t>(e.offset), static_cast<uint8_t>(e.type),
                     def.section, def.value + static_cast<uint32_t>(e.addend)});
    }
  }
  return out;
}

/// Imports in file order: version 3 puts this module's own and then the DOL's last (see the header comment).
int import_rank(uint32_t module, uint32_t self, uint32_t version) {
  if (version < 3) return 0;
  return module == 0 ? 2 : module == self ? 1 : 0;
}

void put_entry(std::vector<uint8_t>& out, uint16_t distance, uint8_t type, uint8_t section, uint32_t addend) {
  const size_t at = out.size();
  out.resize(at + rel_layout::relocation_entry_size);
  store<uint16_t>(out.data() + at, distance, Endian::big);
  out[at + 2] = type;
  out[at + 3] = section;
  store<uint32_t>(out.data() + at + 4, addend, Endian::big);
}

std::vector<uint8_t> write_one(const PpcElf& elf, uint32_t id, uint32_t version, std::vector<Relocation> relocations) {
  Layout l = lay_out(elf, version);
  std::stable_sort(relocations.begin(), relocations.end(), [&](const Relocation& a, const Relocation& b) {
    const auto key = [&](const Relocation& r) { return std::make_tuple(import_rank(r.module, id, version), r.module, r.section, r.offset); };
    return key(a) < key(b);
  });
  std::vector<uint32_t> modules; // import order
  for (const Relocation& r : relocations)
    if (modules.empty() || modules.back() != r.module) modules.push_back(r.module);

  std::vector<uint8_t>& out = l.file;
  uint32_t relocations_offset = 0, imports_offset = 0, fix_size = 0;
  std::vector<uint32_t> stream_offsets;
  const auto write_streams = [&] {
    relocations_offset = static_cast<uint32_t>(out.size());
    size_t next = 0;
    for (const uint32_t module : modules) {
      stream_offsets.push_back(static_cast<uint32_t>(out.size()));
      if (version >= 3 && fix_size == 0 && (module == 0 || module == id)) fix_size = static_cast<uint32_t>(out.size());
      std::optional<uint8_t> section;
      uint32_t position = 0;
      for (; next < relocations.size() && relocations[next].module == module; ++next) {
        const Relocation& r = relocations[next];
        if (section != r.section) {
          put_entry(out, 0, rel_type::dolphin_section, r.section, 0);
          section = r.section;
          position = 0;
        }
        uint32_t distance = r.offset - position;
        for (; distance > 0xffff; distance -= 0xffff) put_entry(out, 0xffff, rel_type::dolphin_nop, 0, 0);
        put_entry(out, static_cast<uint16_t>(distance), r.type, r.target_section, r.addend);
        position = r.offset;
      }
      put_entry(out, 0, rel_type::dolphin_end, 0, 0);
    }
  };
  const auto write_imports = [&] {
    imports_offset = static_cast<uint32_t>(out.size());
    out.resize(out.size() + modules.size() * rel_layout::import_entry_size, 0);
  };
  if (version >= 3) {
    out.resize(align_up(out.size(), 4), 0);
    write_imports();
    write_streams();
    if (fix_size == 0) fix_size = static_cast<uint32_t>(out.size());
  } else {
    write_streams();
    write_imports();
  }
  for (size_t i = 0; i < modules.size(); ++i) {
    store<uint32_t>(out.data() + imports_offset + i * rel_layout::import_entry_size, modules[i], Endian::big);
    store<uint32_t>(out.data() + imports_offset + i * rel_layout::import_entry_size + 4, stream_offsets[i], Endian::big);
  }

  const auto put = [&](uint32_t at, uint32_t value) { store<uint32_t>(out.data() + at, value, Endian::big); };
  const uint32_t table_at = rel_layout::header_size(version);
  put(0x00, id);
  put(0x0c, static_cast<uint32_t>(l.table.size()));
  put(0x10, table_at);
  put(0x1c, version);
  put(0x20, l.bss ? l.table[*l.bss].second : 0);
  put(0x24, relocations_offset);
  put(0x28, imports_offset);
  put(0x2c, static_cast<uint32_t>(modules.size() * rel_layout::import_entry_size));
  for (const elf::SymbolEntry& s : elf.symbols) {
    const int slot = s.name == "_prolog" ? 0 : s.name == "_epilog" ? 1 : s.name == "_unresolved" ? 2 : -1;
    if (slot < 0 || s.section == elf::shn_undef || s.section >= elf.sections.size()) continue;
    out[0x30 + slot] = static_cast<uint8_t>(s.section);
    put(0x34 + 4 * slot, static_cast<uint32_t>(s.value));
  }
  if (version >= 2) {
    put(0x40, l.align);
    put(0x44, l.bss_align);
  }
  if (version >= 3) put(0x48, fix_size);
  for (size_t i = 0; i < l.table.size(); ++i) {
    put(static_cast<uint32_t>(table_at + i * rel_layout::section_entry_size), l.table[i].first);
    put(static_cast<uint32_t>(table_at + i * rel_layout::section_entry_size + 4), l.table[i].second);
  }
  (void)parse_rel(out, elf.name() + " (the REL being written)"); // what the loader would refuse is refused here
  return std::move(l.file);
}

} // namespace

std::vector<std::vector<uint8_t>> write_rels(std::span<const uint8_t> dol_elf, const std::string& dol_name,
                                             std::span<const RelObject> objects, uint32_t version) {
  if (version < 1 || version > 3) throw Error(fmt::format("REL version {}: versions 1 to 3 exist", version));
  const PpcElf dol(dol_elf, dol_name, elf::et_exec);
  const auto dol_symbols = dol_exports(dol);
  std::vector<PpcElf> elves;
  std::vector<std::map<std::string, Definition>> exports;
  for (const RelObject& o : objects) {
    if (o.id == 0) throw Error(in_file(o.name), "module id 0 is the DOL's");
    for (size_t i = 0; i < elves.size(); ++i)
      if (objects[i].id == o.id) throw Error(in_file(o.name), fmt::format("module id {} is also {}'s", o.id, objects[i].name));
    elves.emplace_back(o.elf, o.name, elf::et_rel);
    exports.push_back(module_exports(elves.back(), o.id));
  }
  std::vector<std::vector<uint8_t>> out;
  for (size_t i = 0; i < objects.size(); ++i) {
    std::vector<std::map<std::string, Definition>> others;
    for (size_t j = 0; j < objects.size(); ++j)
      if (j != i) others.push_back(exports[j]);
    out.push_back(write_one(elves[i], objects[i].id, version, relocations_of(elves[i], objects[i].id, others, dol_symbols)));
  }
  return out;
}

} // namespace kiln::gamecube::writer
