#include "recompiler/loaders/dol/module_link.h"

#include <fmt/format.h>

#include <algorithm>

#include "recompiler/loaders/dol/memory_map.h"
#include "runtime/base/bits.h"
#include "runtime/base/error.h"

namespace kiln::gamecube {
namespace {

constexpr uint32_t default_alignment = 32;

bool fits_signed(int64_t value, unsigned bits) { return value >= -(int64_t{1} << (bits - 1)) && value < (int64_t{1} << (bits - 1)); }

void patch_word(std::span<uint8_t> place, uint32_t mask, uint32_t value) {
  const uint32_t word = load<uint32_t>(place.data(), Endian::big);
  store<uint32_t>(place.data(), (word & ~mask) | (value & mask), Endian::big);
}

std::optional<std::string> branch_problem(int64_t value, unsigned bits, const char* what) {
  if (!fits_signed(value, bits))
    return fmt::format("{} {:#x} does not fit the branch's {}-bit signed field", what, value, bits);
  if (value & 3) return fmt::format("{} {:#x} is not a multiple of 4", what, value);
  return std::nullopt;
}

std::optional<uint32_t> section_address(const PlacedModule& placed, const RelSection& s) {
  if (s.is_bss()) return placed.bss_address;
  if (!s.used()) return std::nullopt;
  return placed.load_address + s.file_offset;
}

} // namespace

std::optional<std::string> apply_relocation(uint8_t type, std::span<uint8_t> place, uint32_t address, uint32_t target) {
  using namespace rel_type;
  const int64_t relative = static_cast<int64_t>(target) - static_cast<int64_t>(address);
  // Absolute branch targets are read as signed 32-bit addresses: `ba` reaches the lowest and the highest 32 MiB.
  const int64_t absolute = static_cast<int32_t>(target);
  switch (type) {
  case ppc_addr32: store<uint32_t>(place.data(), target, Endian::big); return std::nullopt;
  case ppc_addr16:
    if (target > 0xffffu && target < 0xffff8000u) return fmt::format("value {:#x} does not fit 16 bits", target);
    store<uint16_t>(place.data(), static_cast<uint16_t>(target), Endian::big);
    return std::nullopt;
  case ppc_addr16_lo: store<uint16_t>(place.data(), static_cast<uint16_t>(target), Endian::big); return std::nullopt;
  case ppc_addr16_hi: store<uint16_t>(place.data(), static_cast<uint16_t>(target >> 16), Endian::big); return std::nullopt;
  case ppc_addr16_ha: // the high half adjusted for the sign of the low half an addi/lwz will add
    store<uint16_t>(place.data(), static_cast<uint16_t>((target + 0x8000u) >> 16), Endian::big);
    return std::nullopt;
  case ppc_addr24:
    if (auto problem = branch_problem(absolute, 26, "target")) return problem;
    patch_word(place, 0x03fffffcu, target);
    return std::nullopt;
  case ppc_addr14: case ppc_addr14_brtaken: case ppc_addr14_brntaken:
    if (auto problem = branch_problem(absolute, 16, "target")) return problem;
    patch_word(place, 0x0000fffcu, target);
    return std::nullopt;
  case ppc_rel24:
    if (auto problem = branch_problem(relative, 26, "displacement")) return problem;
    patch_word(place, 0x03fffffcu, static_cast<uint32_t>(relative));
    return std::nullopt;
  case ppc_rel14: case ppc_rel14_brtaken: case ppc_rel14_brntaken:
    if (auto problem = branch_problem(relative, 16, "displacement")) return problem;
    patch_word(place, 0x0000fffcu, static_cast<uint32_t>(relative));
    return std::nullopt;
  default: return fmt::format("relocation type {} is not one kiln applies", type);
  }
}

std::vector<PlacedModule> place_after_dol(const Dol& dol, std::span<const RelModule> modules) {
  uint64_t next = 0;
  for (const ImageSegment& s : dol.image.segments) next = std::max(next, s.end());
  std::vector<PlacedModule> placed;
  for (const RelModule& m : modules) {
    PlacedModule p{.module = &m};
    next = align_up(next, std::max(m.align, default_alignment));
    p.load_address = static_cast<uint32_t>(next);
    next += m.file_size();
    if (m.bss_size != 0) {
      next = align_up(next, std::max(m.bss_align, default_alignment));
      p.bss_address = static_cast<uint32_t>(next);
      next += m.bss_size;
    }
    if (next > 0xffffffffu) throw Error(in_file(m.name), "the modules do not fit in the address space after the DOL");
    placed.push_back(p);
  }
  return placed;
}

LinkedProgram link_modules(const Dol& dol, std::span<const PlacedModule> modules) {
  LinkedProgram program;
  program.image = dol.image;
  for (size_t i = 0; i < modules.size(); ++i) {
    const PlacedModule& p = modules[i];
    const RelModule& m = *p.module;
    for (size_t j = 0; j < i; ++j)
      if (modules[j].module->id == m.id)
        throw Error(at_offset(m.name, 0), fmt::format("module id {} is also the id of {}", m.id, modules[j].module->name));
    if (m.align != 0 && p.load_address % m.align)
      throw Error(at_offset(m.name, 0x40), fmt::format("load address {:#x} is not a multiple of the module's align {:#x}", p.load_address, m.align));
    if (m.bss_size != 0 && m.bss_align != 0 && p.bss_address % m.bss_align)
      throw Error(at_offset(m.name, 0x44), fmt::format(".bss address {:#x} is not a multiple of the module's bssAlign {:#x}", p.bss_address, m.bss_align));
    if (!mem1_offset(p.load_address, m.file_size()))
      throw Error(at_offset(m.name, 0), fmt::format("load address {:#x} (file size {:#x}) is outside MEM1, which is {}", p.load_address,
                                                    m.file_size(), mem1_ranges_text()));
    LinkedModule linked{.id = m.id, .name = m.name, .load_address = p.load_address, .bss_address = p.bss_address};
    for (const RelSection& s : m.sections) {
      linked.section_addresses.push_back(section_address(p, s));
      if (!s.used()) continue;
      ImageSegment segment{.name = fmt::format("rel{}.section{}", m.id, s.index), .address = *section_address(p, s), .size = s.size,
                           .executable = s.executable, .writable = !s.executable, .source = s.is_bss() ? "" : m.name,
                           .file_offset = s.file_offset};
      const auto bytes = m.section_bytes(s);
      segment.bytes.assign(bytes.begin(), bytes.end());
      try {
        program.image.add_segment(std::move(segment));
      } catch (const Error& e) {
        throw Error(at_offset(m.name, s.entry_offset), e.message());
      }
    }
    const auto entry = [&](const RelEntryPoint& e) -> std::optional<uint32_t> {
      if (!e.present()) return std::nullopt;
      return *linked.section_addresses[e.section] + e.offset;
    };
    linked.prolog = entry(m.prolog);
    linked.epilog = entry(m.epilog);
    linked.unresolved = entry(m.unresolved);
    const std::string stem = fmt::format("rel{}", m.id);
    if (linked.prolog) program.image.symbols.push_back({stem + "._prolog", *linked.prolog, 0, true});
    if (linked.epilog) program.image.symbols.push_back({stem + "._epilog", *linked.epilog, 0, true});
    if (linked.unresolved) program.image.symbols.push_back({stem + "._unresolved", *linked.unresolved, 0, true});
    program.modules.push_back(std::move(linked));
  }

  for (size_t i = 0; i < modules.size(); ++i) {
    const RelModule& m = *modules[i].module;
    LinkedModule& linked = program.modules[i];
    for (const RelImport& import : m.imports) {
      const PlacedModule* target = nullptr;
      for (const PlacedModule& other : modules)
        if (other.module->id == import.module_id) target = &other;
      if (import.module_id != 0 && !target) {
        std::string ids = "0 (the DOL)";
        for (const PlacedModule& other : modules) ids += fmt::format(", {}", other.module->id);
        throw Error(at_offset(m.name, import.entry_offset),
                    fmt::format("imports from module {}, which is not among the linked modules ({})", import.module_id, ids));
      }
      for (const RelRelocation& r : import.relocations) {
        uint32_t value = r.addend; // module 0: an absolute address
        if (target) {
          const RelModule& t = *target->module;
          if (r.target_section >= t.sections.size() || !t.sections[r.target_section].used())
            throw Error(at_offset(m.name, r.entry_offset + 3),
                        fmt::format("{} against section {} of module {} ({}), which has no such section", rel_type::name(r.type),
                                    r.target_section, t.id, t.name));
          value += *section_address(*target, t.sections[r.target_section]);
        }
        const uint32_t address = *linked.section_addresses[r.section] + r.offset;
        ImageSegment* segment = program.image.segment_at(address);
        const auto place = std::span<uint8_t>(segment->bytes).subspan(address - segment->address, rel_type::width(r.type));
        if (const auto problem = apply_relocation(r.type, place, address, value))
          throw Error(at_offset(m.name, r.entry_offset),
                      fmt::format("{} at {:#x} (section {} offset {:#x}) against {:#x}: {}", rel_type::name(r.type), address, r.section,
                                  r.offset, value, *problem));
        ++linked.relocations_applied;
      }
    }
  }
  return program;
}

} // namespace kiln::gamecube
