#pragma once
// Linker map files read as address -> name symbols: CodeWarrior's (the SDK linker's .map: per section a
// ".text section layout" block of "starting-address size virtual-address [file-offset] alignment name \tobject"
// rows, UNUSED rows for stripped code, "(entry of ...)" rows for secondary entry points) and Dolphin's
// (the same blocks, written with the virtual address in the first column too and alignment 0). Only the layout
// blocks are read; a row inside one that is neither form is a kiln::Error naming the file, its offset and line.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::gamecube {

struct MapSymbol {
  std::string name;
  uint32_t address = 0; ///< the virtual address
  uint32_t size = 0;
  std::string section;  ///< ".text", ".data", ...
  std::string object;   ///< the object file (and library) that defined it, when the map names one
  bool is_function = false; ///< in a code section (.init, .text)
  unsigned line = 0;
};

enum class MapFormat { codewarrior, dolphin };

struct SymbolMap {
  MapFormat format = MapFormat::codewarrior;
  std::vector<MapSymbol> symbols; ///< in file order
};

/// Reads a map; throws kiln::Error for text with no section layout block or a malformed row.
SymbolMap read_symbol_map(std::string_view text, const std::string& name);

} // namespace kiln::gamecube
