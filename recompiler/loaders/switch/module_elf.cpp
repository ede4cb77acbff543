// Loaded Switch modules rewritten as the static AArch64 ELF the analysis and emitter read: each module's image at
// a file offset of its own, one PT_LOAD per segment, section headers for the segments and a .symtab with the
// modules' symbols.
#include <algorithm>
#include <string>

#include "recompiler/loaders/switch/switch_module.h"
#include "runtime/base/bits.h"

namespace kiln::nx {
namespace {

class Writer {
public:
  std::vector<uint8_t> bytes;
  template <typename T>
  void put(T value) {
    const size_t at = bytes.size();
    bytes.resize(at + sizeof(T));
    store<T>(bytes.data() + at, value, Endian::little);
  }
  void pad_to(size_t size) { bytes.resize(std::max(bytes.size(), size), 0); }
};

struct SectionHeader {
  uint32_t name, type;
  uint64_t flags, address, offset, size;
  uint32_t link = 0;
  uint64_t entry_size = 0;
};

} // namespace

std::vector<uint8_t> to_elf(const Module& module, uint64_t load_base) {
  const PlacedModule placed{&module, load_base};
  return to_elf(std::span<const PlacedModule>(&placed, 1), load_base + module.text().memory_offset);
}

std::vector<uint8_t> to_elf(std::span<const PlacedModule> modules, uint64_t entry) {
  constexpr uint64_t image_offset = 0x1000;
  // Each module's image goes at its own file offset (page-aligned, after the previous one).
  struct Loaded {
    const Module* module;
    const Segment* segment;
    uint64_t base, file_offset; ///< of the module's image
  };
  std::vector<Loaded> loaded;
  std::vector<uint64_t> image_offsets;
  uint64_t file_end = image_offset;
  for (const PlacedModule& m : modules) {
    image_offsets.push_back(file_end);
    for (const Segment& s : m.module->segments)
      if (s.size != 0 || (s.writable && m.module->bss_size != 0)) loaded.push_back({m.module, &s, m.base, file_end});
    file_end = align_up(file_end + m.module->image.size(), 0x1000);
  }

  // Names, symbols and section headers go after the image.
  std::string section_names(1, '\0');
  auto add_name = [&](const std::string& name) {
    const auto at = static_cast<uint32_t>(section_names.size());
    section_names += name + '\0';
    return at;
  };
  std::string symbol_names(1, '\0');
  Writer symbols;
  symbols.pad_to(24); // symbol 0 is null
  for (const PlacedModule& m : modules)
    for (const Symbol& s : m.module->symbols) {
      symbols.put<uint32_t>(static_cast<uint32_t>(symbol_names.size()));
      symbol_names += s.name + '\0';
      symbols.put<uint8_t>(static_cast<uint8_t>(1 << 4 | (s.is_function ? 2 : 1))); // GLOBAL FUNC / OBJECT
      symbols.put<uint8_t>(0);
      symbols.put<uint16_t>(1);
      symbols.put<uint64_t>(m.base + s.offset);
      symbols.put<uint64_t>(s.size);
    }

  std::vector<SectionHeader> sections{{0, 0, 0, 0, 0, 0}};
  for (size_t i = 0; i < modules.size(); ++i) {
    const Module& module = *modules[i].module;
    const uint64_t base = modules[i].base;
    const std::string prefix = modules.size() > 1 ? module.name : "";
    for (const Segment& s : module.segments) {
      const uint64_t flags = 2 | (s.executable ? 4 : 0) | (s.writable ? 1 : 0); // SHF_ALLOC | EXECINSTR | WRITE
      sections.push_back({add_name(prefix + "." + s.name), 1, flags, base + s.memory_offset, image_offsets[i] + s.memory_offset, s.size});
    }
    const Segment& data = module.segments[2];
    if (module.bss_size) sections.push_back({add_name(prefix + ".bss"), 8, 3, base + data.memory_offset + data.size, 0, module.bss_size});
  }

  Writer out;
  const uint64_t tables_offset = file_end;
  const uint64_t symtab_offset = tables_offset, strtab_offset = symtab_offset + symbols.bytes.size();
  const auto symtab_index = static_cast<uint32_t>(sections.size());
  sections.push_back({add_name(".symtab"), 2, 0, 0, symtab_offset, symbols.bytes.size(), symtab_index + 1, 24});
  sections.push_back({add_name(".strtab"), 3, 0, 0, strtab_offset, symbol_names.size()});
  const uint64_t shstrtab_offset = strtab_offset + symbol_names.size();
  const auto shstrtab_index = static_cast<uint16_t>(sections.size());
  sections.push_back({add_name(".shstrtab"), 3, 0, 0, shstrtab_offset, 0});
  sections.back().size = section_names.size();
  const uint64_t section_headers_offset = align_up(shstrtab_offset + section_names.size(), 8);

  // ELF header: ELFCLASS64, little-endian, ET_EXEC, EM_AARCH64, entry at the start of text.
  for (int b : {0x7f, int{'E'}, int{'L'}, int{'F'}, 2, 1, 1, 0}) out.put<uint8_t>(static_cast<uint8_t>(b));
  out.pad_to(16);
  out.put<uint16_t>(2);
  out.put<uint16_t>(183);
  out.put<uint32_t>(1);
  out.put<uint64_t>(entry);
  out.put<uint64_t>(64);
  out.put<uint64_t>(section_headers_offset);
  out.put<uint32_t>(0);
  out.put<uint16_t>(64);
  out.put<uint16_t>(56);
  out.put<uint16_t>(static_cast<uint16_t>(loaded.size()));
  out.put<uint16_t>(64);
  out.put<uint16_t>(static_cast<uint16_t>(sections.size()));
  out.put<uint16_t>(shstrtab_index);
  for (const Loaded& l : loaded) {
    const Segment* s = l.segment;
    out.put<uint32_t>(1); // PT_LOAD
    out.put<uint32_t>(4 | (s->executable ? 1 : 0) | (s->writable ? 2 : 0));
    out.put<uint64_t>(l.file_offset + s->memory_offset);
    out.put<uint64_t>(l.base + s->memory_offset);
    out.put<uint64_t>(l.base + s->memory_offset);
    out.put<uint64_t>(s->size);
    out.put<uint64_t>(s->size + (s->writable ? l.module->bss_size : 0));
    out.put<uint64_t>(0x1000);
  }
  for (size_t i = 0; i < modules.size(); ++i) {
    out.pad_to(image_offsets[i]);
    out.bytes.insert(out.bytes.end(), modules[i].module->image.begin(), modules[i].module->image.end());
  }
  out.pad_to(file_end);
  out.bytes.insert(out.bytes.end(), symbols.bytes.begin(), symbols.bytes.end());
  out.bytes.insert(out.bytes.end(), symbol_names.begin(), symbol_names.end());
  out.bytes.insert(out.bytes.end(), section_names.begin(), section_names.end());
  out.pad_to(section_headers_offset);
  for (const SectionHeader& h : sections) {
    out.put<uint32_t>(h.name);
    out.put<uint32_t>(h.type);
    out.put<uint64_t>(h.flags);
    out.put<uint64_t>(h.address);
    out.put<uint64_t>(h.offset);
    out.put<uint64_t>(h.size);
    out.put<uint32_t>(h.link);
    out.put<uint32_t>(0);
    out.put<uint64_t>(h.type == 2 || h.type == 1 ? 8 : 1);
    out.put<uint64_t>(h.entry_size);
  }
  return out.bytes;
}

} // namespace kiln::nx
