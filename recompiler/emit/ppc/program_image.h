#pragma once
// The PowerPC side of function discovery (recompiler/pipeline/function_discovery.h runs the engine): each word's
// transfer from the decoder's control flow, and the idioms of PowerPC compilers: code addresses formed by
// lis/addi (or ori) pairs and words of data holding a text address; jump tables (`lwzx` of an entry, added to the
// table's address for GCC's relative tables, `mtctr`, `bctr`, bounded by the `cmplwi` before) whose table
// address is traced through lis/addi, GOT loads and the `bcl 20,31,$+4; mflr` idiom of position-independent code.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "recompiler/isa/ppc/decoder.h"
#include "recompiler/pipeline/function_discovery.h"

namespace kiln::ppc {

using pipeline::Function;
using pipeline::JumpTable;

/// A loaded range of the program outside the text (data, .got2, .rodata), for reading pointers and tables.
struct DataSegment {
  uint32_t address = 0;
  std::vector<uint8_t> bytes;
};

class ProgramImage final : public pipeline::CodeView {
public:
  /// `text` (big-endian words) is loaded at `base`; `name` names the file in errors; `data`: the other loaded
  /// bytes, whose words may hold code pointers and jump tables. `extra_starts`: function entries the caller knows.
  /// `hints`: the title's kiln.toml entries for discovery.
  ProgramImage(std::vector<uint8_t> text, uint32_t base, uint32_t entry, const Decoder& decoder, std::string name,
               std::vector<DataSegment> data = {}, std::set<uint64_t> extra_starts = {}, const pipeline::TitleHints& hints = {});

  uint32_t base() const { return base_; }
  uint32_t end() const { return base_ + static_cast<uint32_t>(text_.size() & ~size_t{3}); }
  bool contains(uint64_t address) const { return address >= base_ && address < end() && !(address & 3); }
  uint32_t word(uint32_t address) const;
  const Instruction& instruction(uint64_t address) const { return instructions_[(address - base_) / 4]; }
  const std::vector<uint8_t>& text() const { return text_; }
  const std::string& name() const { return name_; }
  const pipeline::DiscoveredFunctions& found() const { return *found_; }
  const std::vector<Function>& functions() const { return found_->functions(); }

  // pipeline::CodeView
  uint64_t code_start() const override { return base_; }
  uint64_t code_end() const override { return end(); }
  uint64_t entry() const override { return entry_; }
  bool decoded(uint64_t address) const override { return instruction(address).decoded; }
  pipeline::Transfer transfer(uint64_t address) const override;
  pipeline::IndirectTargets indirect_targets(const pipeline::DiscoveredFunctions& found, const Function& function,
                                             uint64_t address) const override;
  void code_pointers(const pipeline::DiscoveredFunctions& found, std::set<uint64_t>& starts) const override;
  std::vector<pipeline::KnownFunction> known_functions() const override;

  /// `bcl 20,31,$+4`: the position-independent idiom that only reads the program counter into LR.
  bool is_pc_read(const Instruction& i) const;
  /// A word of the text or of a data segment (big-endian), if the address is loaded.
  std::optional<uint32_t> read_word(uint32_t address) const;

private:
  std::optional<uint32_t> constant_before(uint32_t at, unsigned reg, const Function& f, int depth = 0) const;
  const Instruction* writer_of_gpr(uint32_t at, unsigned reg, const Function& f) const;

  std::vector<uint8_t> text_;
  uint32_t base_, entry_;
  std::string name_;
  std::vector<DataSegment> data_;
  std::set<uint64_t> extra_starts_;
  std::vector<Instruction> instructions_;
  std::optional<pipeline::DiscoveredFunctions> found_;
};

} // namespace kiln::ppc
