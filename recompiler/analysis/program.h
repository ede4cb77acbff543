#pragma once
// The AArch64 side of function discovery (recompiler/pipeline/function_discovery.h runs the engine): every
// decoded instruction of the executable sections (several code ranges), each word's transfer, and the idioms of
// AArch64 programs: functions from symbols with their sizes, .init_array/.fini_array, code pointers in data and
// in ADRP+ADD pairs, jump tables (traced through registers and frame slots), the PLT/GOT constant branches, and
// the indirect branches whose targets stay unknown (they go through the run-time dispatch table). Branches and
// calls into another function's body are its secondary entries (pipeline::InnerTargets::secondary_entry).
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "recompiler/isa/aarch64/decoder.h"
#include "recompiler/loaders/elf/elf_file.h"
#include "recompiler/pipeline/function_discovery.h"

namespace kiln::analysis {

using pipeline::CodeRange;
using pipeline::Function;
using pipeline::JumpTable;
/// A jump table analysis recognised but could not bound safely (for the discovery report).
using JumpTableIssue = pipeline::TableIssue;

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

class Program final : public pipeline::CodeView {
public:
  Program(const elf::ElfFile& elf, const a64::Decoder& decoder, const Hints& hints = {});
  Program(const Program&) = delete; // discovery keeps a reference to its code view
  Program& operator=(const Program&) = delete;

  const elf::ElfFile& elf() const { return elf_; }
  const std::vector<Function>& functions() const { return found_->functions(); }
  const std::map<uint64_t, JumpTable>& jump_tables() const { return found_->jump_tables(); } ///< by BR address
  const std::vector<uint64_t>& unresolved_indirect_branches() const { return unresolved_; }
  /// BRs whose register is loaded from a fixed slot holding a code address (a PLT stub reading its GOT entry,
  /// filled by relocations before analysis): BR address -> the slot's value. The emitter makes such a BR a tail
  /// call of that target when the register holds it, and dispatches any other value.
  const std::map<uint64_t, uint64_t>& slot_branches() const { return found_->constant_jumps(); }
  const std::vector<JumpTableIssue>& jump_table_issues() const { return found_->table_issues(); }
  std::vector<CodeRange> code_ranges() const override { return ranges_; }
  /// The decoded instruction at `address` (must be inside a code range).
  const a64::Instruction* instruction(uint64_t address) const;
  bool is_code(uint64_t address) const;
  /// The function whose range holds `address`, or nullptr.
  const Function* function_containing(uint64_t address) const { return found_->function_at(address); }
  const Function* function_at(uint64_t start) const;
  size_t instruction_count() const;
  /// Instructions of `function` that no known entry reaches (what follows its last return, code other functions
  /// are hidden in, a PLT's header after a function without a size): compiled code never runs them, so the
  /// fallback interpreter covers them, and an indirect branch among them is not reported unresolved.
  std::vector<uint64_t> unreached_instructions(const Function& function) const;

  // pipeline::CodeView
  uint64_t code_start() const override { return ranges_.empty() ? 0 : ranges_.front().start; }
  uint64_t code_end() const override { return ranges_.empty() ? 0 : ranges_.back().end; }
  uint64_t entry() const override { return elf_.entry(); }
  bool decoded(uint64_t address) const override { return instruction(address)->decoded; }
  pipeline::Transfer transfer(uint64_t address) const override;
  pipeline::IndirectTargets indirect_targets(const pipeline::DiscoveredFunctions& found, const Function& function,
                                             uint64_t address) const override;
  void code_pointers(const pipeline::DiscoveredFunctions&, std::set<uint64_t>&) const override {} // all in known_functions
  std::vector<pipeline::KnownFunction> known_functions() const override;
  pipeline::InnerTargets inner_targets() const override { return pipeline::InnerTargets::secondary_entry; }

private:
  void decode_code(const a64::Decoder& decoder);
  pipeline::IndirectTargets find_jump_table(const Function& function, uint64_t branch_address) const;

  const elf::ElfFile& elf_;
  Hints hints_;
  std::vector<CodeRange> ranges_;
  std::vector<std::vector<a64::Instruction>> code_;      ///< per range, one per word
  std::vector<std::vector<pipeline::Transfer>> transfers_; ///< per range, one per word
  std::optional<pipeline::DiscoveredFunctions> found_;
  std::vector<uint64_t> unresolved_;
};

} // namespace kiln::analysis
