#include "tools/gamecube-files/dol_writer.h"

#include <fmt/format.h>

#include <algorithm>

#include "recompiler/loaders/dol/dol.h"
#include "recompiler/loaders/dol/memory_map.h"
#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "tools/gamecube-files/ppc_elf.h"

namespace kiln::gamecube::writer {
namespace {

constexpr uint32_t merge_gap = 32, file_alignment = 32;

struct Range {
  std::string from;
  uint32_t address;
  std::vector<uint8_t> bytes;
  uint64_t end() const { return uint64_t{address} + bytes.size(); }
};

std::vector<DolSectionInput> to_sections(std::vector<Range> ranges, unsigned limit, const char* kind, const std::string& name) {
  std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.address < b.address; });
  std::vector<Range> merged;
  for (Range& r : ranges) {
    if (!merged.empty() && r.address >= merged.back().end() && r.address - merged.back().end() <= merge_gap) {
      Range& last = merged.back();
      last.bytes.resize(r.address - last.address, 0);
      last.bytes.insert(last.bytes.end(), r.bytes.begin(), r.bytes.end());
      last.from += "+" + r.from;
    } else {
      merged.push_back(std::move(r));
    }
  }
  if (merged.size() > limit) {
    std::string list;
    for (const Range& r : merged) list += fmt::format(" {}@{:#x}", r.from, r.address);
    throw Error(in_file(name), fmt::format("a DOL holds at most {} {} sections, but the ELF's {} sections form {} ranges:{}; "
                                           "place them next to each other in the linker script",
                                           limit, kind, kind, merged.size(), list));
  }
  std::vector<DolSectionInput> out;
  for (Range& r : merged) {
    if (r.address % dol_layout::section_alignment)
      throw Error(in_file(name), fmt::format("{} starts at {:#x}, not a multiple of {}: align it in the linker script", r.from, r.address,
                                             dol_layout::section_alignment));
    r.bytes.resize(align_up(r.bytes.size(), dol_layout::section_alignment), 0);
    if (!mem1_offset(r.address, r.bytes.size()))
      throw Error(in_file(name), fmt::format("{} at {:#x} (size {:#x}) is outside MEM1, which is {}", r.from, r.address, r.bytes.size(),
                                             mem1_ranges_text()));
    out.push_back({std::move(r.from), r.address, std::move(r.bytes)});
  }
  return out;
}

} // namespace

DolInput dol_input_from_elf(std::span<const uint8_t> elf_bytes, const std::string& name) {
  const PpcElf elf(elf_bytes, name, elf::et_exec);
  std::vector<Range> text, data;
  uint64_t bss_begin = UINT64_MAX, bss_end = 0;
  for (const elf::SectionHeader& s : elf.sections) {
    if (!is_loaded(s)) continue;
    if (s.address > 0xffffffffu || s.address + s.size > 0x100000000u)
      throw Error(at_offset(name, s.header_offset), fmt::format("section {} lies beyond 32-bit addresses", s.name));
    if (s.type == elf::sht_nobits) {
      bss_begin = std::min(bss_begin, s.address);
      bss_end = std::max(bss_end, s.address + s.size);
      continue;
    }
    const auto bytes = elf.bytes_of(s);
    (s.executable() ? text : data).push_back({s.name, static_cast<uint32_t>(s.address), {bytes.begin(), bytes.end()}});
  }
  DolInput input;
  input.text = to_sections(std::move(text), dol_layout::text_count, "text", name);
  input.data = to_sections(std::move(data), dol_layout::data_count, "data", name);
  if (bss_end != 0) {
    input.bss_address = static_cast<uint32_t>(bss_begin);
    input.bss_size = static_cast<uint32_t>(bss_end - bss_begin);
  }
  input.entry = static_cast<uint32_t>(elf.container.header().entry);
  return input;
}

std::vector<uint8_t> write_dol(const DolInput& input) {
  if (input.text.size() > dol_layout::text_count || input.data.size() > dol_layout::data_count)
    throw Error(fmt::format("a DOL holds {} text and {} data sections, not {} and {}", dol_layout::text_count, dol_layout::data_count,
                            input.text.size(), input.data.size()));
  std::vector<uint8_t> out(dol_layout::header_size, 0);
  const auto put = [&](uint32_t at, uint32_t value) { store<uint32_t>(out.data() + at, value, Endian::big); };
  const auto add = [&](const DolSectionInput& s, unsigned slot) {
    out.resize(align_up(out.size(), file_alignment), 0);
    put(dol_layout::offsets_at + 4 * slot, static_cast<uint32_t>(out.size()));
    put(dol_layout::addresses_at + 4 * slot, s.address);
    put(dol_layout::sizes_at + 4 * slot, static_cast<uint32_t>(s.bytes.size()));
    out.insert(out.end(), s.bytes.begin(), s.bytes.end());
  };
  for (size_t i = 0; i < input.text.size(); ++i) add(input.text[i], static_cast<unsigned>(i));
  for (size_t i = 0; i < input.data.size(); ++i) add(input.data[i], dol_layout::text_count + static_cast<unsigned>(i));
  put(dol_layout::bss_address_at, input.bss_address);
  put(dol_layout::bss_size_at, input.bss_size);
  put(dol_layout::entry_at, input.entry);
  (void)parse_dol(out, "the DOL being written"); // what the loader would refuse is refused here
  return out;
}

std::string dolphin_map_from_elf(std::span<const uint8_t> elf_bytes, const std::string& name) {
  const PpcElf elf(elf_bytes, name, elf::et_exec);
  std::string code, data;
  for (const elf::SymbolEntry& sym : elf.symbols) {
    if (sym.name.empty() || sym.section == elf::shn_undef || sym.section >= elf.sections.size()) continue;
    if (sym.type() != elf::stt_func && sym.type() != elf::stt_object) continue;
    const elf::SectionHeader& s = elf.sections[sym.section];
    if (!is_loaded(s)) continue;
    (s.executable() ? code : data) += fmt::format("{:08x} {:06x} {:08x} 0 {}\n", sym.value, sym.size, sym.value, sym.name);
  }
  return ".text section layout\n" + code + "\n.data section layout\n" + data;
}

} // namespace kiln::gamecube::writer
