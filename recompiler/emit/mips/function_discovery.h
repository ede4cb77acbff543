#pragma once
// The MIPS side of function discovery (recompiler/pipeline/function_discovery.h runs the engine): each word's
// transfer, and the idioms of MIPS compilers: code pointers (LUI+ADDIU pairs, $gp-relative GOT loads, data words
// holding a text address that is not a delay slot), jump tables (absolute entries; .gpword entries in abicalls
// code) and the constant jumps of the BIOS call stubs.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "recompiler/isa/mips/decoder.h"
#include "recompiler/pipeline/function_discovery.h"

namespace kiln::mips {

using pipeline::Function;
using pipeline::JumpTable;

/// Bytes of the program outside the text (an ELF's data segment: the GOT, .data), for reading pointers.
struct DataSegment {
  uint32_t address = 0;
  std::vector<uint8_t> bytes;
};

class ProgramImage final : public pipeline::CodeView {
public:
  /// `text` is loaded at `base`; decoding uses `decoder` (its variant), `name` names the file in errors.
  /// `data`: other segments (an ELF's GOT and .data), whose words may hold code pointers. `hints`: the title's
  /// kiln.toml entries for discovery.
  ProgramImage(std::vector<uint8_t> text, uint32_t base, uint32_t entry, const Decoder& decoder, std::string name,
               std::vector<DataSegment> data = {}, const pipeline::TitleHints& hints = {});

  Variant variant() const { return variant_; }
  uint32_t base() const { return base_; }
  uint32_t end() const { return base_ + static_cast<uint32_t>(text_.size() & ~size_t{3}); }
  bool contains(uint64_t address) const { return address >= base_ && address < end(); }
  uint32_t word(uint32_t address) const;
  const Instruction& instruction(uint64_t address) const { return instructions_[(address - base_) / 4]; }
  const std::vector<uint8_t>& text() const { return text_; }
  const std::string& name() const { return name_; }

  const std::vector<Function>& functions() const { return found_->functions(); }
  const std::map<uint64_t, JumpTable>& jump_tables() const { return found_->jump_tables(); } ///< by JR address
  const std::vector<uint64_t>& unresolved_jumps() const { return found_->unresolved_jumps(); }
  /// JRs whose register holds a constant set just before (`li $t2, 0xA0; jr $t2`: the BIOS call stubs), by JR address.
  const std::map<uint64_t, uint64_t>& constant_jumps() const { return found_->constant_jumps(); }
  const Function* function_at(uint64_t address) const { return found_->function_at(address); }
  bool is_function_start(uint64_t address) const { return found_->is_function_start(address); }
  const pipeline::DiscoveredFunctions& found() const { return *found_; }

  // pipeline::CodeView
  uint64_t code_start() const override { return base_; }
  uint64_t code_end() const override { return end(); }
  uint64_t entry() const override { return entry_; }
  bool decoded(uint64_t address) const override { return instruction(address).decoded; }
  pipeline::Transfer transfer(uint64_t address) const override;
  pipeline::IndirectTargets indirect_targets(const pipeline::DiscoveredFunctions& found, const Function& function,
                                             uint64_t address) const override;
  void code_pointers(const pipeline::DiscoveredFunctions& found, std::set<uint64_t>& starts) const override;

private:
  std::optional<uint32_t> constant_register(uint32_t at, unsigned reg, const Function& f, const pipeline::DiscoveredFunctions& found) const;
  std::optional<JumpTable> gp_relative_table(uint32_t jr_address, const Function& f) const;
  std::optional<JumpTable> absolute_table(uint32_t jr_address, const Function& f) const;
  std::optional<uint32_t> read_word(uint32_t address) const; ///< from the text or a data segment
  void find_global_pointer();

  std::vector<uint8_t> text_;
  uint32_t base_, entry_;
  Variant variant_;
  std::string name_;
  std::vector<DataSegment> data_;
  std::optional<uint32_t> gp_; ///< $gp as abicalls prologues set it (one GOT in a static executable)
  std::vector<Instruction> instructions_;
  std::optional<pipeline::DiscoveredFunctions> found_;
};

/// The static target of a branch or J/JAL at `address` (its delay slot is not in another taken branch's slot).
uint32_t static_target(const Instruction& instruction);
/// BLTZAL/BGEZAL (REGIMM with rt = 1000x): a conditional call.
bool is_branch_and_link(const Instruction& instruction);
/// J, or BEQ with rs = rt (the `b` alias): always taken.
bool is_unconditional(const Instruction& instruction);

} // namespace kiln::mips
