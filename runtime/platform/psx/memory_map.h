#pragma once
// The PS1 address map as the CPU sees it (psx-spx "Memory Map"): KUSEG/KSEG0/KSEG1 mirror one physical space;
// 2 MiB of main RAM repeats four times over its first 8 MiB; the 1 KiB scratchpad (D-cache) sits at 1F800000h.
#include <cstdint>
#include <optional>

namespace kiln::psx {

constexpr uint32_t ram_size = 2u << 20;
constexpr uint32_t ram_mirror_span = 8u << 20; ///< RAM mirrors cover physical 0..7FFFFFh
constexpr uint32_t scratchpad_base = 0x1F800000u;
constexpr uint32_t scratchpad_size = 0x400u;
constexpr uint32_t io_base = 0x1F801000u;
constexpr uint32_t io_size = 0x2000u;
constexpr uint32_t bios_base = 0x1FC00000u;
constexpr uint32_t bios_size = 512u << 10;
constexpr uint32_t kseg2_base = 0xC0000000u; ///< cache control (FFFE0130h), not mirrored

/// The physical address of a KUSEG/KSEG0/KSEG1 address (KSEG2 is returned unchanged).
constexpr uint32_t physical_address(uint32_t address) { return address >= kseg2_base ? address : address & 0x1FFFFFFFu; }

/// Offset into main RAM, mirrors folded, or nothing when `address` is not RAM.
constexpr std::optional<uint32_t> ram_offset(uint32_t address) {
  const uint32_t physical = physical_address(address);
  if (physical >= ram_mirror_span) return std::nullopt;
  return physical & (ram_size - 1);
}

/// Offset into the scratchpad (KUSEG/KSEG0 only: it is not reachable through KSEG1), or nothing.
constexpr std::optional<uint32_t> scratchpad_offset(uint32_t address) {
  if (address >= 0xA0000000u && address < kseg2_base) return std::nullopt;
  const uint32_t physical = physical_address(address);
  if (physical < scratchpad_base || physical >= scratchpad_base + scratchpad_size) return std::nullopt;
  return physical - scratchpad_base;
}

} // namespace kiln::psx
