#pragma once
// Where GameCube code and data can live: the 24 MiB of MEM1, seen by the CPU through two mirrors, the cached one
// at 0x80000000 and the uncached one at 0xC0000000 (the BATs Dolphin OS sets up). Loaders place every section here
// and compare sections by physical address, so a section in one mirror overlapping another in the other is seen.
#include <cstdint>
#include <optional>
#include <string>

namespace kiln::gamecube {

constexpr uint32_t mem1_size = 24u << 20;
constexpr uint32_t cached_base = 0x80000000u, uncached_base = 0xC0000000u;

/// The physical MEM1 offset of [address, address + size) when the whole range lies in one mirror, else nothing.
constexpr std::optional<uint32_t> mem1_offset(uint32_t address, uint64_t size) {
  for (const uint32_t base : {cached_base, uncached_base})
    if (address >= base && address - base < mem1_size && size <= mem1_size - (address - base)) return address - base;
  return std::nullopt;
}

/// "0x80000000-0x817fffff (cached) or 0xc0000000-0xc17fffff (uncached)", for messages.
std::string mem1_ranges_text();

} // namespace kiln::gamecube
