#pragma once
// PS-X EXE: the PlayStation executable format (psx-spx "CDROM File Formats"): a 2 KiB header naming the entry
// point, GP, where the text goes in RAM and how big it is, optional BSS fill and the initial stack, followed by
// the text itself. Every field is checked against the file and the PS1 memory map.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace kiln::psx {

struct PsxExe {
  std::string name;            ///< the file (for messages)
  uint32_t pc0 = 0;            ///< entry point
  uint32_t gp0 = 0;            ///< initial $gp
  uint32_t text_address = 0;   ///< t_addr: where the text is copied in RAM
  uint32_t bss_address = 0;    ///< b_addr / b_size: zero-filled at load (0 size: none)
  uint32_t bss_size = 0;
  uint32_t stack_base = 0;     ///< s_addr (0: the BIOS default stack is kept)
  uint32_t stack_offset = 0;   ///< s_size, added to s_addr for the initial $sp/$fp
  std::string region;          ///< the ASCII marker at 4Ch ("Sony Computer Entertainment Inc. for ..."), trimmed
  std::vector<uint8_t> text;   ///< t_size bytes from file offset 800h

  static constexpr uint32_t header_size = 0x800;

  uint32_t text_end() const { return text_address + static_cast<uint32_t>(text.size()); }
  bool has_stack() const { return stack_base != 0; }
  uint32_t initial_sp() const { return stack_base + stack_offset; }
};

/// Parses a PS-X EXE image; throws kiln::Error naming `name` and the offset of the offending field.
PsxExe parse_psx_exe(std::span<const uint8_t> bytes, std::string name);
/// Reads and parses a file.
PsxExe load_psx_exe(const std::filesystem::path& path);

} // namespace kiln::psx
