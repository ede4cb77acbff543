#pragma once
// PFS0, the Switch's flat file container (switchbrew "PFS0"): an NSP is one, and so is the ExeFS section of a
// program NCA once decrypted. kiln reads a PFS0 holding an ExeFS (main.npdm and the NSO modules) as it reads
// the unpacked folder. NCAs are encrypted: kiln does not read them (the error says so).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kiln::nx {

/// Layout (little-endian): "PFS0", u32 file count, u32 string table size, u32 reserved; then per file 0x18
/// bytes {u64 data offset (from the data start), u64 size, u32 name offset (in the string table), u32
/// reserved}; then the string table (NUL-terminated names); the data starts right after it.
namespace pfs0_layout {
constexpr uint32_t magic = 0x30534650; // "PFS0"
constexpr uint64_t header_size = 0x10, entry_size = 0x18;
} // namespace pfs0_layout

struct Pfs0File {
  std::string name;
  uint64_t offset = 0; ///< in the container (data start included)
  uint64_t size = 0;
};

struct Pfs0 {
  std::vector<Pfs0File> files;
  const Pfs0File* find(const std::string& name) const;
};

/// Whether the bytes start with the PFS0 magic.
bool is_pfs0(std::span<const uint8_t> bytes);
/// Whether `path` is a regular file holding a PFS0.
bool is_pfs0_file(const std::string& path);
/// Reads the container's file table. Every entry must lie inside the container and every name inside the string
/// table; errors are kiln::Errors naming `name` and the offset. An NCA (encrypted, or a decrypted one with its
/// "NCA3" magic at 0x200) is refused with a message saying kiln reads no NCA.
Pfs0 read_pfs0(std::span<const uint8_t> bytes, const std::string& name);

} // namespace kiln::nx
