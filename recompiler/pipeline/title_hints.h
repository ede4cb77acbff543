#pragma once
// What a title's configuration (kiln.toml and its patch sets, recompiler/config) tells the fixed-width front ends
// (MIPS, PowerPC): function entries analysis cannot find, the targets of indirect jumps it cannot bound, functions
// to leave to the fallback interpreter, and single-instruction patches. Each entry keeps where it was written, so
// an entry that does not fit the program is an error naming its kiln.toml line.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/base/bits.h"

namespace kiln::pipeline {

struct CodePatch {
  uint64_t address = 0;
  uint32_t encoding = 0;
  std::optional<uint32_t> original; ///< the word the patch expects to replace (checked)
  std::string where;                ///< "games/x/kiln.toml:12" or the patch set's description
};

struct TitleHints {
  struct Entry {
    uint64_t address = 0;
    std::string where;
    bool required = true; ///< an address outside the code is an error; else (a map file's symbol) it is passed over
  };
  struct Table {
    uint64_t jump = 0;             ///< the indirect jump
    std::vector<uint64_t> targets; ///< every case target, in index order
    std::string where;
  };
  std::vector<Entry> functions; ///< [[functions]]: entries discovery adds to its starts
  std::vector<Table> jump_tables;
  std::vector<Entry> ignored;   ///< [[ignore]]: functions left out of the generated code (the fallback runs them)
  std::vector<CodePatch> patches;
};

/// A loaded range of the program that instruction patches may land in.
struct CodeBytes {
  uint64_t address = 0;
  std::span<uint8_t> bytes;
};

/// Writes each patch's encoding as a word in `order` into the range of `code` that holds it (`name` names the
/// program in errors). A patch outside every range, or whose expected original word is not there, throws
/// kiln::Error naming the patch's kiln.toml line.
void apply_code_patches(std::span<const CodeBytes> code, Endian order, const std::string& name, const std::vector<CodePatch>& patches);

} // namespace kiln::pipeline
