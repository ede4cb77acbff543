#pragma once
// What the recompiler knows about a guest program before emitting code: every decoded instruction of the
// executable sections, the functions (from symbols, the entry point, call targets, tail calls, .init_array/
// .fini_array, code pointers in data and in ADRP/ADR+ADD pairs), resolved jump tables, and the indirect
// branches whose targets stay unknown (they go through the run-time dispatch table).
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "recompiler/isa/aarch64/decoder.h"
#include "recompiler/loaders/elf/elf_file.h"

namespace kiln::analysis {

struct Function {
  uint64_t start = 0;
  uint64_t end = 0; ///< one past the last instruction
  std::string name; ///< symbol name, or empty
  std::set<uint64_t> secondary_entries; ///< addresses other code enters at (besides start)
};

struct JumpTable {
  uint64_t branch = 0;           ///< the BR
  uint64_t table = 0;            ///< table address
  std::vector<uint64_t> targets; ///< one per index
};

/// What a porter tells analysis (games/<title>/kiln.toml): entries it cannot find, sizes, names, jump tables.
struct Hints {
  struct Function {
    uint64_t address = 0;
    uint64_t size = 0; ///< 0: analysis finds the end
    std::string name;
  };
  std::vector<Function> functions;
  std::map<uint64_t, std::vector<uint64_t>> jump_tables; ///< BR address -> case targets in index order
};

/// A jump table analysis recognised but could not bound safely (for the discovery report).
struct JumpTableIssue {
  uint64_t branch = 0;
  uint64_t table = 0;
  std::string problem; ///< "unbounded: ..." or "case N targets 0x... outside the function"
};

struct CodeRange {
  uint64_t start = 0, end = 0;
};

class Program {
public:
  Program(const elf::ElfFile& elf, const a64::Decoder& decoder, const Hints& hints = {});

  const elf::ElfFile& elf() const { return elf_; }
  const std::vector<Function>& functions() const { return functions_; }
  const std::map<uint64_t, JumpTable>& jump_tables() const { return jump_tables_; }
  const std::vector<uint64_t>& unresolved_indirect_branches() const { return unresolved_; }
  /// BRs whose register is loaded from a fixed slot holding a code address (a PLT stub reading its GOT entry,
  /// filled by relocations before analysis): BR address -> the slot's value. The emitter makes such a BR a tail
  /// call of that target when the register holds it, and dispatches any other value.
  const std::map<uint64_t, uint64_t>& slot_branches() const { return slot_branches_; }
  const std::vector<JumpTableIssue>& jump_table_issues() const { return jump_table_issues_; }
  const std::vector<CodeRange>& code_ranges() const { return ranges_; }
  /// The decoded instruction at `address` (must be inside a code range).
  const a64::Instruction* instruction(uint64_t address) const;
  bool is_code(uint64_t address) const;
  /// The function whose range holds `address`, or nullptr.
  const Function* function_containing(uint64_t address) const;
  const Function* function_at(uint64_t start) const;
  size_t instruction_count() const;
  /// Instructions of `function` that no known entry reaches (what follows its last return, code other functions
  /// are hidden in, a PLT's header after a function without a size): compiled code never runs them, so the
  /// fallback interpreter covers them, and an indirect branch among them is not reported unresolved.
  std::vector<uint64_t> unreached_instructions(const Function& function) const;

private:
  void decode_code(const a64::Decoder& decoder);
  std::set<uint64_t> seed_entries() const;
  void build_functions(const std::set<uint64_t>& primaries);
  bool scan_function(const Function& function, std::set<uint64_t>& new_primaries);
  void find_jump_table(const Function& function, uint64_t branch_address);

  const elf::ElfFile& elf_;
  Hints hints_;
  std::vector<CodeRange> ranges_;
  std::vector<std::vector<a64::Instruction>> code_; ///< per range, one per word
  std::vector<Function> functions_;
  std::map<uint64_t, JumpTable> jump_tables_;
  std::map<uint64_t, uint64_t> slot_branches_;
  std::vector<uint64_t> unresolved_;
  std::vector<JumpTableIssue> jump_table_issues_;
};

} // namespace kiln::analysis
