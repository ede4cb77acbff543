#pragma once
// A GameCube program as the recompiler sees it after loading: the DOL's sections, and the REL modules' sections
// where they were linked, each a segment with its permissions and initial bytes, plus the entry point and whatever
// symbols are known. Segments never overlap in MEM1 (checked by physical address, both mirrors).
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::gamecube {

struct ImageSegment {
  std::string name;           ///< "text0", "data2", "bss", "rel1.section3"
  uint32_t address = 0;
  uint32_t size = 0;          ///< bytes in memory
  std::vector<uint8_t> bytes; ///< the initial contents from the file (at most `size`; the rest is zero)
  bool executable = false, writable = false;
  std::string source;         ///< the file the bytes came from (empty for .bss)
  uint64_t file_offset = 0;   ///< where in `source`
  uint64_t end() const { return uint64_t{address} + size; }
  bool contains(uint32_t a) const { return a >= address && a - address < size; }
};

struct ImageSymbol {
  std::string name;
  uint32_t address = 0;
  uint32_t size = 0;
  bool is_function = false;
};

struct GuestImage {
  std::string name;
  uint32_t entry = 0;
  std::vector<ImageSegment> segments; ///< in address order
  std::vector<ImageSymbol> symbols;
  std::vector<std::string> notes;     ///< what loaded but a porter should know (stale fields, ignored values)

  /// Adds a segment in address order; throws kiln::Error naming both when it overlaps one already there
  /// (in either MEM1 mirror) or lies outside MEM1.
  void add_segment(ImageSegment segment);
  /// The segment holding `address`, or nullptr.
  const ImageSegment* segment_at(uint32_t address) const;
  ImageSegment* segment_at(uint32_t address);
  /// `size` bytes of initial memory at `address` (zero past a segment's file bytes); throws kiln::Error naming the
  /// address when any byte is outside every segment.
  std::vector<uint8_t> read(uint32_t address, uint32_t size) const;
  /// The big-endian word at `address` (an instruction or pointer); throws like read().
  uint32_t read_word(uint32_t address) const;
};

} // namespace kiln::gamecube
