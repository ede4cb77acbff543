#pragma once
// A 64-bit little-endian AArch64 ELF executable as the recompiler sees it: loadable segments, entry point,
// symbols (when present), .init_array/.fini_array and the TLS template, read through the shared ELF container
// (elf_container.h), so a truncated or inconsistent file is a kiln::Error naming the file and offset.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kiln::elf {

class Container;
struct SectionHeader;

struct Segment {
  uint64_t address = 0;     ///< p_vaddr
  uint64_t file_offset = 0; ///< p_offset
  uint64_t file_size = 0;   ///< bytes present in the file
  uint64_t memory_size = 0; ///< bytes in memory (the rest is zero: .bss)
  uint32_t flags = 0;       ///< PF_R | PF_W | PF_X
  bool executable() const { return flags & 1; }
  bool writable() const { return flags & 2; }
  bool contains(uint64_t a) const { return a >= address && a - address < memory_size; }
};

struct Symbol {
  std::string name;
  uint64_t address = 0;
  uint64_t size = 0;
  bool is_function = false;
};

struct Section {
  std::string name;
  uint64_t address = 0;
  uint64_t file_offset = 0;
  uint64_t size = 0;
  uint32_t type = 0;
  uint64_t flags = 0; ///< SHF_* (SHF_EXECINSTR = 4)
  bool executable() const { return flags & 4; }
};

struct TlsTemplate {
  uint64_t address = 0, file_size = 0, memory_size = 0, alignment = 1;
};

class ElfFile {
public:
  /// Parses `bytes` (kept by reference: they must outlive the object). `name` is used in errors.
  ElfFile(std::span<const uint8_t> bytes, std::string name);

  const std::string& name() const { return name_; }
  uint64_t entry() const { return entry_; }
  const std::vector<Segment>& segments() const { return segments_; }
  const std::vector<Symbol>& symbols() const { return symbols_; }
  const std::vector<Section>& sections() const { return sections_; }
  const std::optional<TlsTemplate>& tls() const { return tls_; }
  /// Program header table as loaded in memory (for AT_PHDR), its entry size and count.
  uint64_t program_headers_address() const { return phdr_address_; }
  uint16_t program_header_count() const { return phnum_; }
  uint16_t program_header_size() const { return phentsize_; }
  /// Function pointers listed in .init_array / .fini_array (and .preinit_array).
  const std::vector<uint64_t>& init_functions() const { return init_functions_; }
  const std::vector<uint64_t>& fini_functions() const { return fini_functions_; }

  /// The segment holding `address`, or nullptr.
  const Segment* segment_at(uint64_t address) const;
  /// Reads `size` bytes of loaded memory at `address` (zero beyond the file part); throws if unmapped.
  std::vector<uint8_t> read_memory(uint64_t address, uint64_t size) const;
  /// The file bytes of a segment (file_size of them).
  std::span<const uint8_t> segment_bytes(const Segment& segment) const;
  std::span<const uint8_t> bytes() const { return bytes_; }

private:
  void parse_program_headers(const Container& container);
  void parse_sections(const Container& container);
  std::vector<uint64_t> read_pointer_array(const SectionHeader& section) const;

  std::span<const uint8_t> bytes_;
  std::string name_;
  uint64_t entry_ = 0;
  uint64_t phdr_address_ = 0;
  uint16_t phnum_ = 0, phentsize_ = 0;
  std::vector<Segment> segments_;
  std::vector<Section> sections_;
  std::vector<Symbol> symbols_;
  std::optional<TlsTemplate> tls_;
  std::vector<uint64_t> init_functions_, fini_functions_;
};

} // namespace kiln::elf
