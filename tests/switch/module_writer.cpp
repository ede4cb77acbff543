#include "tests/switch/module_writer.h"

#include <lz4.h>

#include <algorithm>
#include <string>

#include "runtime/base/elf_container.h"
#include "recompiler/loaders/switch/sha256.h"
#include "runtime/base/bits.h"
#include "runtime/base/error.h"

namespace kiln::nx::testing {
namespace {

template <typename T>
void put(std::vector<uint8_t>& out, T value) {
  const size_t at = out.size();
  out.resize(at + sizeof(T));
  store<T>(out.data() + at, value, Endian::little);
}
template <typename T>
void put_at(std::vector<uint8_t>& out, size_t at, T value) {
  store<T>(out.data() + at, value, Endian::little);
}

constexpr uint64_t dt_strtab = 5, dt_symtab = 6, dt_rela = 7, dt_relasz = 8, dt_relaent = 9, dt_strsz = 10, dt_syment = 11;

std::array<uint8_t, 32> build_id_of(std::span<const uint8_t> elf_bytes) {
  const Sha256Digest digest = sha256(elf_bytes);
  std::array<uint8_t, 32> id{};
  std::copy_n(digest.begin(), 20, id.begin()); // GNU build IDs are 20 bytes; the rest of the field is zero
  return id;
}

} // namespace

ModuleLayout lay_out(const elf::ElfFile& elf) {
  const auto& segments = elf.segments();
  if (segments.size() != 3 || !segments[0].executable() || segments[1].writable() || segments[1].executable() || !segments[2].writable())
    throw Error(in_file(elf.name()), "make_nso needs three PT_LOADs: text (RX), rodata (R), data (RW)");
  ModuleLayout layout;
  layout.base = segments[0].address;
  auto bytes_of = [&](const elf::Segment& s) {
    const auto span = elf.segment_bytes(s);
    return std::vector<uint8_t>(span.begin(), span.end());
  };
  layout.text = bytes_of(segments[0]);
  layout.rodata = bytes_of(segments[1]);
  layout.data = bytes_of(segments[2]);
  layout.rodata_offset = segments[1].address - layout.base;
  layout.data_offset = segments[2].address - layout.base;
  layout.bss_size = segments[2].memory_size - segments[2].file_size;
  const uint64_t module_end = layout.data_offset + segments[2].memory_size;
  for (uint64_t at = 0; at + 8 <= layout.data.size(); at += 8) {
    const uint64_t value = load<uint64_t>(layout.data.data() + at, Endian::little);
    if (value >= layout.base && value - layout.base < module_end) layout.relative_relocations.push_back(layout.data_offset + at);
  }

  // Appended at the end of rodata (8-aligned: where the fixture's MOD0 says .dynamic is).
  std::vector<uint8_t>& ro = layout.rodata;
  ro.resize(align_up(ro.size(), 8), 0);
  std::vector<uint8_t> dynsym(24, 0), rela;
  std::string dynstr(1, '\0');
  for (const elf::Symbol& s : elf.symbols()) {
    put<uint32_t>(dynsym, static_cast<uint32_t>(dynstr.size()));
    dynstr += s.name + '\0';
    put<uint8_t>(dynsym, static_cast<uint8_t>(1 << 4 | (s.is_function ? 2 : 1)));
    put<uint8_t>(dynsym, 0);
    put<uint16_t>(dynsym, 1);
    put<uint64_t>(dynsym, s.address - layout.base);
    put<uint64_t>(dynsym, s.size);
  }
  for (uint64_t offset : layout.relative_relocations) {
    put<uint64_t>(rela, offset);
    put<uint64_t>(rela, 1027); // R_AARCH64_RELATIVE, no symbol
    put<uint64_t>(rela, load<uint64_t>(layout.data.data() + (offset - layout.data_offset), Endian::little) - layout.base);
  }
  const uint64_t dynamic_offset = layout.rodata_offset + ro.size();
  const uint64_t dynamic_size = 16 * 8;
  layout.dynsym_offset = dynamic_offset + dynamic_size;
  layout.dynsym_size = dynsym.size();
  layout.dynstr_offset = layout.dynsym_offset + dynsym.size();
  layout.dynstr_size = dynstr.size();
  const uint64_t rela_offset = align_up(layout.dynstr_offset + dynstr.size(), 8);
  for (auto [tag, value] : {std::pair{dt_symtab, layout.dynsym_offset}, {dt_syment, 24}, {dt_strtab, layout.dynstr_offset},
                            {dt_strsz, layout.dynstr_size}, {dt_rela, rela_offset}, {dt_relasz, rela.size()}, {dt_relaent, 24}, {0, 0}}) {
    put<uint64_t>(ro, tag);
    put<uint64_t>(ro, value);
  }
  ro.insert(ro.end(), dynsym.begin(), dynsym.end());
  ro.insert(ro.end(), dynstr.begin(), dynstr.end());
  ro.resize(rela_offset - layout.rodata_offset, 0);
  ro.insert(ro.end(), rela.begin(), rela.end());
  if (layout.rodata_offset + ro.size() > layout.data_offset) throw Error(in_file(elf.name()), "the dynamic tables do not fit before the data segment");
  return layout;
}

namespace {
std::vector<uint8_t> write_nso(const ModuleLayout& layout, const std::array<uint8_t, 32>& id) {
  std::vector<uint8_t> out(0x100, 0);
  put_at<uint32_t>(out, 0, 0x304f534e); // "NSO0"
  put_at<uint32_t>(out, 0xc, 0x3f);     // all three segments compressed and hash-checked
  const std::vector<uint8_t>* segments[3] = {&layout.text, &layout.rodata, &layout.data};
  const uint64_t memory_offsets[3] = {0, layout.rodata_offset, layout.data_offset};
  for (int i = 0; i < 3; ++i) {
    const std::vector<uint8_t>& plain = *segments[i];
    std::vector<uint8_t> packed(static_cast<size_t>(LZ4_compressBound(static_cast<int>(plain.size()))));
    const int packed_size = LZ4_compress_default(reinterpret_cast<const char*>(plain.data()), reinterpret_cast<char*>(packed.data()),
                                                 static_cast<int>(plain.size()), static_cast<int>(packed.size()));
    if (packed_size <= 0) throw Error("LZ4 compression failed");
    put_at<uint32_t>(out, 0x10 + 0x10 * i, static_cast<uint32_t>(out.size()));
    put_at<uint32_t>(out, 0x14 + 0x10 * i, static_cast<uint32_t>(memory_offsets[i]));
    put_at<uint32_t>(out, 0x18 + 0x10 * i, static_cast<uint32_t>(plain.size()));
    put_at<uint32_t>(out, 0x60 + 4 * i, static_cast<uint32_t>(packed_size));
    const Sha256Digest digest = sha256(plain);
    std::copy(digest.begin(), digest.end(), out.begin() + 0xa0 + 0x20 * i);
    out.insert(out.end(), packed.begin(), packed.begin() + packed_size);
  }
  put_at<uint32_t>(out, 0x3c, static_cast<uint32_t>(layout.bss_size));
  std::copy(id.begin(), id.end(), out.begin() + 0x40);
  put_at<uint32_t>(out, 0x90, static_cast<uint32_t>(layout.dynstr_offset - layout.rodata_offset)); // relative to rodata
  put_at<uint32_t>(out, 0x94, static_cast<uint32_t>(layout.dynstr_size));
  put_at<uint32_t>(out, 0x98, static_cast<uint32_t>(layout.dynsym_offset - layout.rodata_offset));
  put_at<uint32_t>(out, 0x9c, static_cast<uint32_t>(layout.dynsym_size));
  return out;
}
} // namespace

std::vector<uint8_t> write_nso(const elf::ElfFile& elf) { return write_nso(lay_out(elf), build_id_of(elf.bytes())); }

bool is_shared_object(std::span<const uint8_t> bytes) {
  return elf::is_elf(bytes, true, elf::em_aarch64) && elf::Container(bytes, "").header().type == elf::et_dyn;
}

ModuleLayout lay_out_shared_object(std::span<const uint8_t> bytes, const std::string& name) {
  const elf::Container container(bytes, name);
  std::vector<elf::ProgramHeader> loads;
  for (const elf::ProgramHeader& p : container.program_headers())
    if (p.type == elf::pt_load) loads.push_back(p);
  if (loads.size() != 3 || loads[0].flags != 5 || loads[1].flags != 4 || loads[2].flags != 6 || loads[0].address != 0)
    throw Error(in_file(name), "make_nso needs three PT_LOADs from address 0: text (RX), rodata (R), data (RW)");
  ModuleLayout layout;
  auto bytes_of = [&](const elf::ProgramHeader& p) {
    const auto span = container.reader().span_at(p.file_offset, p.file_size);
    return std::vector<uint8_t>(span.begin(), span.end());
  };
  layout.text = bytes_of(loads[0]);
  layout.rodata = bytes_of(loads[1]);
  layout.data = bytes_of(loads[2]);
  layout.rodata_offset = loads[1].address;
  layout.data_offset = loads[2].address;
  layout.bss_size = loads[2].memory_size - loads[2].file_size;
  for (const elf::SectionHeader& h : container.section_headers()) {
    if (h.name == ".dynsym") layout.dynsym_offset = h.address, layout.dynsym_size = h.size;
    if (h.name == ".dynstr") layout.dynstr_offset = h.address, layout.dynstr_size = h.size;
  }
  if (layout.dynsym_size == 0 || layout.dynstr_size == 0) throw Error(in_file(name), "the shared object has no .dynsym/.dynstr");
  return layout;
}

std::vector<uint8_t> write_nso_from_shared_object(std::span<const uint8_t> bytes, const std::string& name) {
  return write_nso(lay_out_shared_object(bytes, name), build_id_of(bytes));
}

std::vector<uint8_t> write_nro(const elf::ElfFile& elf) {
  const ModuleLayout layout = lay_out(elf);
  std::vector<uint8_t> out(layout.data_offset + layout.data.size(), 0);
  std::copy(layout.text.begin(), layout.text.end(), out.begin());
  std::copy(layout.rodata.begin(), layout.rodata.end(), out.begin() + static_cast<std::ptrdiff_t>(layout.rodata_offset));
  std::copy(layout.data.begin(), layout.data.end(), out.begin() + static_cast<std::ptrdiff_t>(layout.data_offset));
  for (uint64_t offset : layout.relative_relocations) put_at<uint64_t>(out, offset, 0);
  for (size_t at = 0x10; at < 0x80; ++at)
    if (out[at] != 0) throw Error(at_offset(elf.name(), at), "text bytes 0x10..0x80 must be left free for the NRO header");
  put_at<uint32_t>(out, 0x10, 0x304f524e); // "NRO0"
  put_at<uint32_t>(out, 0x18, static_cast<uint32_t>(out.size()));
  const uint64_t offsets[3] = {0, layout.rodata_offset, layout.data_offset};
  const uint64_t sizes[3] = {layout.text.size(), layout.rodata.size(), layout.data.size()};
  for (int i = 0; i < 3; ++i) {
    put_at<uint32_t>(out, 0x20 + 8 * i, static_cast<uint32_t>(offsets[i]));
    put_at<uint32_t>(out, 0x24 + 8 * i, static_cast<uint32_t>(sizes[i]));
  }
  put_at<uint32_t>(out, 0x38, static_cast<uint32_t>(layout.bss_size));
  const auto id = build_id_of(elf.bytes());
  std::copy(id.begin(), id.end(), out.begin() + 0x40);
  put_at<uint32_t>(out, 0x70, static_cast<uint32_t>(layout.dynstr_offset - layout.rodata_offset));
  put_at<uint32_t>(out, 0x74, static_cast<uint32_t>(layout.dynstr_size));
  put_at<uint32_t>(out, 0x78, static_cast<uint32_t>(layout.dynsym_offset - layout.rodata_offset));
  put_at<uint32_t>(out, 0x7c, static_cast<uint32_t>(layout.dynsym_size));
  return out;
}

} // namespace kiln::nx::testing
