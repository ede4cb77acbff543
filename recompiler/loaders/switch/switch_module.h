#pragma once
// Switch executables: NSO (system modules and titles: three optionally LZ4-compressed segments with SHA-256
// hashes) and NRO (homebrew: uncompressed, relocatable). Both load into one module image starting at offset 0
// (text, then rodata, then data and .bss); the MOD0 header, found through the word at text offset 4, locates
// .dynamic, whose DT_SYMTAB/DT_STRTAB give the symbols. Every byte is read through kiln::ByteReader: malformed
// input is a kiln::Error naming the file and offset.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kiln::nx {

enum class Format { nso, nro };
const char* format_name(Format format);

struct Segment {
  std::string name;          ///< "text", "rodata", "data"
  uint64_t memory_offset = 0; ///< from the module base
  uint64_t size = 0;          ///< bytes in memory (decompressed)
  uint64_t file_offset = 0;
  uint64_t file_size = 0;     ///< bytes in the file (compressed size when compressed)
  bool compressed = false;    ///< NSO: LZ4 block
  bool hash_checked = false;  ///< NSO: the header's SHA-256 was checked against the decompressed bytes
  bool executable = false, writable = false;
};

struct Symbol {
  std::string name;
  uint64_t offset = 0; ///< from the module base
  uint64_t size = 0;
  bool is_function = false;
};

/// One .dynsym entry (index = a relocation's symbol number), defined or not: what the ExeFS linker resolves.
struct DynamicSymbol {
  std::string name;
  uint64_t value = 0; ///< from the module base (defined symbols)
  uint64_t size = 0;
  uint8_t type = 0;    ///< STT_* (0 NOTYPE, 1 OBJECT, 2 FUNC, ...)
  uint8_t binding = 0; ///< STB_* (0 LOCAL, 1 GLOBAL, 2 WEAK)
  bool defined = false;
};

struct Relocation {
  uint64_t offset = 0; ///< where, from the module base
  uint32_t type = 0;
  uint32_t symbol = 0;
  int64_t addend = 0;
};

struct Module {
  Format format = Format::nso;
  std::string name;
  std::array<uint8_t, 32> build_id{};
  std::vector<Segment> segments; ///< text, rodata, data (in that order)
  uint64_t bss_size = 0;
  std::vector<uint8_t> image;    ///< the module in memory from offset 0 to the end of data (.bss, zero, follows)
  std::optional<uint64_t> mod0_offset;
  std::optional<uint64_t> dynamic_offset;
  std::vector<Symbol> symbols;
  std::vector<DynamicSymbol> dynamic_symbols;      ///< every .dynsym entry, entry 0 included
  std::vector<Relocation> relocations;             ///< from DT_RELA and DT_JMPREL
  std::optional<uint64_t> init;                    ///< DT_INIT (module offset)
  std::optional<uint64_t> init_array;              ///< DT_INIT_ARRAY (module offset), DT_INIT_ARRAYSZ bytes
  uint64_t init_array_size = 0;
  uint64_t load_base = 0;                          ///< NRO: the base R_AARCH64_RELATIVE relocations were applied for
  size_t applied_relocations = 0;                  ///< NRO: R_AARCH64_RELATIVE written into the image
  std::vector<Relocation> unapplied_relocations;   ///< NRO: other types (reported, left as in the file)

  const Segment& text() const { return segments[0]; }
  /// The bytes of a segment inside `image`.
  std::span<const uint8_t> segment_bytes(const Segment& segment) const;
};

/// "NSO0" at 0 or "NRO0" at 0x10; nothing otherwise.
std::optional<Format> detect_format(std::span<const uint8_t> bytes);

Module load_nso(std::span<const uint8_t> bytes, const std::string& name);
/// Applies R_AARCH64_RELATIVE relocations as if the module were loaded at `load_base`.
Module load_nro(std::span<const uint8_t> bytes, const std::string& name, uint64_t load_base);
/// Detects the format; an error when it is neither.
Module load_module(std::span<const uint8_t> bytes, const std::string& name, uint64_t load_base);

/// Where kiln places a Switch module when recompiling it (where Horizon placed main modules before ASLR).
constexpr uint64_t default_load_base = 0x7100000000;

/// A module and where it is loaded.
struct PlacedModule {
  const Module* module = nullptr;
  uint64_t base = 0;
};

/// Modules as one static AArch64 ELF image (one PT_LOAD per segment of each module at its base + offset, entry
/// at `entry`, every module's symbols in .symtab, unqualified): the form the AArch64 analysis and emitter take.
/// Section names are the segments' (".text"), prefixed by the module's name when there are several ("sdk.text").
std::vector<uint8_t> to_elf(std::span<const PlacedModule> modules, uint64_t entry);
/// One module at `load_base`, entered at its text.
std::vector<uint8_t> to_elf(const Module& module, uint64_t load_base);

} // namespace kiln::nx
