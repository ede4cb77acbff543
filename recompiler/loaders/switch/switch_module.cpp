#include "recompiler/loaders/switch/switch_module.h"

#include <fmt/format.h>
#include <lz4.h>

#include <algorithm>

#include "recompiler/loaders/switch/sha256.h"
#include "runtime/base/byte_reader.h"
#include "runtime/base/log.h"

namespace kiln::nx {
namespace {

constexpr uint32_t magic_nso = 0x304f534e, magic_nro = 0x304f524e, magic_mod0 = 0x30444f4d; // "NSO0" "NRO0" "MOD0"
constexpr uint64_t max_image_size = uint64_t{512} << 20; // far above any real module; keeps hostile sizes from allocating
constexpr uint64_t max_bss_size = uint64_t{4} << 30;      // .bss is not allocated: only its size is kept
constexpr uint64_t lz4_max_ratio = 255;                   // an LZ4 block cannot expand further
constexpr uint64_t dt_null = 0, dt_pltrelsz = 2, dt_strtab = 5, dt_symtab = 6, dt_rela = 7, dt_relasz = 8, dt_strsz = 10,
                   dt_init = 12, dt_jmprel = 23, dt_init_array = 25, dt_init_arraysz = 27;
constexpr uint32_t r_aarch64_relative = 1027;
const char* const segment_names[3] = {"text", "rodata", "data"};

/// Places the segments in one image, checking order, overlap and size; returns the image (zero-filled).
std::vector<uint8_t> allocate_image(Module& module, const ByteReader& file, uint64_t header_offset, uint64_t entry_size) {
  uint64_t end = 0;
  for (size_t i = 0; i < module.segments.size(); ++i) {
    const Segment& s = module.segments[i];
    const uint64_t at = header_offset + i * entry_size;
    if (s.memory_offset < end)
      file.fail_at(at, fmt::format("{} segment at memory offset {:#x} overlaps the previous segment (ends at {:#x})", s.name, s.memory_offset, end));
    end = s.memory_offset + s.size;
    if (end > max_image_size) file.fail_at(at, fmt::format("{} segment ends at {:#x}, beyond the {:#x}-byte limit", s.name, end, max_image_size));
  }
  if (end + module.bss_size > max_bss_size) file.fail(fmt::format(".bss size {:#x} puts the module beyond the size limit", module.bss_size));
  return std::vector<uint8_t>(end, 0);
}

void check_file_range(const ByteReader& file, uint64_t header_at, const Segment& s) {
  if (s.file_offset > file.size() || s.file_size > file.size() - s.file_offset)
    file.fail_at(header_at, fmt::format("{} segment file range {:#x}+{:#x} is outside the file ({:#x} bytes)", s.name, s.file_offset,
                                        s.file_size, file.size()));
}

/// MOD0 -> .dynamic -> symbols and relocations. `dynsym_size` is the size the header gives (0: unknown).
void parse_dynamic(Module& module, uint64_t dynsym_size) {
  ByteReader image(module.image, module.name + " (loaded image)");
  if (module.text().size < 8) return;
  const uint64_t mod0 = image.peek_at<uint32_t>(4);
  if (mod0 + 8 > module.image.size()) image.fail_at(4, fmt::format("MOD0 offset {:#x} is outside the module ({:#x} bytes)", mod0, module.image.size()));
  if (image.peek_at<uint32_t>(mod0) != magic_mod0) image.fail_at(mod0, "no MOD0 header at the offset text word 4 gives");
  module.mod0_offset = mod0;
  const int64_t dynamic_relative = static_cast<int32_t>(image.peek_at<uint32_t>(mod0 + 4));
  const uint64_t dynamic = mod0 + static_cast<uint64_t>(dynamic_relative);
  if (dynamic >= module.image.size()) image.fail_at(mod0 + 4, fmt::format(".dynamic offset {:#x} is outside the module", dynamic));
  module.dynamic_offset = dynamic;
  std::optional<uint64_t> symtab, strtab, rela, jmprel;
  uint64_t strsz = 0, relasz = 0, pltrelsz = 0;
  for (uint64_t at = dynamic;; at += 16) {
    if (at + 16 > module.image.size()) image.fail_at(at, ".dynamic runs past the end of the module without DT_NULL");
    const uint64_t tag = image.peek_at<uint64_t>(at), value = image.peek_at<uint64_t>(at + 8);
    if (tag == dt_null) break;
    if (tag == dt_symtab) symtab = value;
    else if (tag == dt_strtab) strtab = value;
    else if (tag == dt_strsz) strsz = value;
    else if (tag == dt_rela) rela = value;
    else if (tag == dt_relasz) relasz = value;
    else if (tag == dt_jmprel) jmprel = value;
    else if (tag == dt_pltrelsz) pltrelsz = value;
    else if (tag == dt_init) module.init = value;
    else if (tag == dt_init_array) module.init_array = value;
    else if (tag == dt_init_arraysz) module.init_array_size = value;
  }
  if (symtab && strtab) {
    if (dynsym_size == 0 && *strtab > *symtab) dynsym_size = *strtab - *symtab; // .dynstr usually follows .dynsym
    const ByteReader symbols = image.sub_reader(*symtab, dynsym_size);
    const ByteReader strings = image.sub_reader(*strtab, strsz);
    for (uint64_t at = 0; at + 24 <= dynsym_size; at += 24) {
      const uint32_t name = symbols.peek_at<uint32_t>(at);
      const uint8_t info = symbols.peek_at<uint8_t>(at + 4), type = info & 0xf;
      const uint16_t section = symbols.peek_at<uint16_t>(at + 6);
      if (name >= strings.size()) strings.fail_at(0, fmt::format("symbol name offset {:#x} is outside .dynstr ({:#x} bytes)", name, strings.size()));
      ByteReader name_reader = strings;
      name_reader.seek(name);
      const DynamicSymbol symbol{std::string(name_reader.c_string()), symbols.peek_at<uint64_t>(at + 8), symbols.peek_at<uint64_t>(at + 16), type,
                                 static_cast<uint8_t>(info >> 4), section != 0};
      module.dynamic_symbols.push_back(symbol);
      if (section == 0 || (type != 1 && type != 2)) continue; // defined OBJECT and FUNC only
      module.symbols.push_back(Symbol{symbol.name, symbol.value, symbol.size, type == 2});
    }
  }
  for (const auto& [table, size] : {std::pair{rela, relasz}, std::pair{jmprel, pltrelsz}}) {
    if (!table) continue;
    const ByteReader entries = image.sub_reader(*table, size);
    for (uint64_t at = 0; at + 24 <= size; at += 24) {
      const uint64_t info = entries.peek_at<uint64_t>(at + 8);
      module.relocations.push_back(Relocation{entries.peek_at<uint64_t>(at), static_cast<uint32_t>(info), static_cast<uint32_t>(info >> 32),
                                              static_cast<int64_t>(entries.peek_at<uint64_t>(at + 16))});
    }
  }
}

} // namespace

const char* format_name(Format format) { return format == Format::nso ? "NSO" : "NRO"; }

std::span<const uint8_t> Module::segment_bytes(const Segment& segment) const {
  return std::span<const uint8_t>(image).subspan(segment.memory_offset, segment.size);
}

std::optional<Format> detect_format(std::span<const uint8_t> bytes) {
  if (bytes.size() >= 4 && load<uint32_t>(bytes.data(), Endian::little) == magic_nso) return Format::nso;
  if (bytes.size() >= 0x14 && load<uint32_t>(bytes.data() + 0x10, Endian::little) == magic_nro) return Format::nro;
  return std::nullopt;
}

Module load_nso(std::span<const uint8_t> bytes, const std::string& name) {
  ByteReader file(bytes, name);
  if (file.size() < 4 || file.peek_at<uint32_t>(0) != magic_nso) file.fail_at(0, "not an NSO (no \"NSO0\" magic)");
  if (file.size() < 0x100) file.fail_at(0, fmt::format("NSO header truncated: file has {:#x} bytes, header needs 0x100", file.size()));
  Module module;
  module.format = Format::nso;
  module.name = name;
  const uint32_t flags = file.peek_at<uint32_t>(0xc);
  for (int i = 0; i < 3; ++i) {
    Segment s;
    s.name = segment_names[i];
    s.file_offset = file.peek_at<uint32_t>(0x10 + 0x10 * i);
    s.memory_offset = file.peek_at<uint32_t>(0x14 + 0x10 * i);
    s.size = file.peek_at<uint32_t>(0x18 + 0x10 * i);
    s.file_size = file.peek_at<uint32_t>(0x60 + 4 * i);
    s.compressed = flags >> i & 1;
    s.hash_checked = flags >> (3 + i) & 1;
    s.executable = i == 0;
    s.writable = i == 2;
    if (!s.compressed && s.file_size != s.size)
      file.fail_at(0x60 + 4 * i, fmt::format("{} segment is uncompressed but its file size {:#x} differs from its size {:#x}", s.name, s.file_size, s.size));
    if (s.compressed && s.size > s.file_size * lz4_max_ratio + 16)
      file.fail_at(0x18 + 0x10 * i, fmt::format("{} segment size {:#x} is more than LZ4 can expand {:#x} compressed bytes to", s.name, s.size, s.file_size));
    check_file_range(file, 0x10 + 0x10 * i, s);
    module.segments.push_back(s);
  }
  module.bss_size = file.peek_at<uint32_t>(0x3c);
  std::copy_n(file.span_at(0x40, 32).begin(), 32, module.build_id.begin());
  module.image = allocate_image(module, file, 0x10, 0x10);
  for (int i = 0; i < 3; ++i) {
    const Segment& s = module.segments[i];
    const std::span<const uint8_t> stored = file.span_at(s.file_offset, s.file_size);
    uint8_t* target = module.image.data() + s.memory_offset;
    if (s.compressed) {
      const int produced = LZ4_decompress_safe(reinterpret_cast<const char*>(stored.data()), reinterpret_cast<char*>(target),
                                               static_cast<int>(s.file_size), static_cast<int>(s.size));
      if (produced < 0) file.fail_at(s.file_offset, fmt::format("{} segment: LZ4 data is corrupt", s.name));
      if (static_cast<uint64_t>(produced) != s.size)
        file.fail_at(s.file_offset, fmt::format("{} segment decompresses to {:#x} bytes, header says {:#x}", s.name, produced, s.size));
    } else {
      std::copy(stored.begin(), stored.end(), target);
    }
    if (s.hash_checked) {
      const Sha256Digest digest = sha256(module.segment_bytes(s));
      const std::span<const uint8_t> expected = file.span_at(0xa0 + 0x20 * i, 32);
      if (!std::equal(digest.begin(), digest.end(), expected.begin()))
        file.fail_at(0xa0 + 0x20 * i, fmt::format("{} segment SHA-256 does not match the header", s.name));
    }
  }
  parse_dynamic(module, file.peek_at<uint32_t>(0x9c));
  return module;
}

Module load_nro(std::span<const uint8_t> bytes, const std::string& name, uint64_t load_base) {
  ByteReader file(bytes, name);
  if (file.size() < 0x14 || file.peek_at<uint32_t>(0x10) != magic_nro) file.fail_at(0x10, "not an NRO (no \"NRO0\" magic at 0x10)");
  if (file.size() < 0x80) file.fail_at(0, fmt::format("NRO header truncated: file has {:#x} bytes, header needs 0x80", file.size()));
  const uint32_t total_size = file.peek_at<uint32_t>(0x18);
  if (total_size > file.size()) file.fail_at(0x18, fmt::format("NRO size {:#x} is larger than the file ({:#x} bytes)", total_size, file.size()));
  Module module;
  module.format = Format::nro;
  module.name = name;
  module.load_base = load_base;
  for (int i = 0; i < 3; ++i) {
    Segment s;
    s.name = segment_names[i];
    s.memory_offset = s.file_offset = file.peek_at<uint32_t>(0x20 + 8 * i); // an NRO is its own memory image
    s.size = s.file_size = file.peek_at<uint32_t>(0x24 + 8 * i);
    s.executable = i == 0;
    s.writable = i == 2;
    check_file_range(file, 0x20 + 8 * i, s);
    module.segments.push_back(s);
  }
  if (module.text().memory_offset != 0) file.fail_at(0x20, fmt::format("text segment starts at {:#x}, not 0", module.text().memory_offset));
  module.bss_size = file.peek_at<uint32_t>(0x38);
  std::copy_n(file.span_at(0x40, 32).begin(), 32, module.build_id.begin());
  module.image = allocate_image(module, file, 0x20, 8);
  for (const Segment& s : module.segments) {
    const std::span<const uint8_t> stored = file.span_at(s.file_offset, s.file_size);
    std::copy(stored.begin(), stored.end(), module.image.begin() + static_cast<std::ptrdiff_t>(s.memory_offset));
  }
  parse_dynamic(module, file.peek_at<uint32_t>(0x7c));
  ByteReader image(module.image, name + " (loaded image)");
  for (const Relocation& r : module.relocations) {
    if (r.type != r_aarch64_relative) {
      module.unapplied_relocations.push_back(r);
      continue;
    }
    if (r.offset > module.image.size() || module.image.size() - r.offset < 8)
      image.fail_at(module.dynamic_offset.value_or(0), fmt::format("R_AARCH64_RELATIVE target {:#x} is outside the module", r.offset));
    store<uint64_t>(module.image.data() + r.offset, load_base + static_cast<uint64_t>(r.addend), Endian::little);
    ++module.applied_relocations;
  }
  if (!module.unapplied_relocations.empty()) {
    const Relocation& first = module.unapplied_relocations.front();
    log::warning("{}: {} relocations of types other than R_AARCH64_RELATIVE left as stored (first: type {} at offset {:#x})", name,
                 module.unapplied_relocations.size(), first.type, first.offset);
  }
  return module;
}

Module load_module(std::span<const uint8_t> bytes, const std::string& name, uint64_t load_base) {
  const std::optional<Format> format = detect_format(bytes);
  if (!format) throw Error(at_offset(name, 0), "not a Switch executable (no \"NSO0\" at 0 or \"NRO0\" at 0x10)");
  return *format == Format::nso ? load_nso(bytes, name) : load_nro(bytes, name, load_base);
}

} // namespace kiln::nx
