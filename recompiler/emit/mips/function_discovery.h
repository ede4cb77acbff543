#pragma once
// Finding the functions of a MIPS program image (a PS-X EXE's text): where each starts, which words are jump
// tables, and which indirect jumps stay unresolved. Starts are the entry point, JAL targets, code pointers
// (LUI+ADDIU pairs and data words holding a text address that is not a delay slot), and every static branch
// or jump target that lies outside the function it is in (those become tail calls). A function runs from its
// start to the next start.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "recompiler/isa/mips/decoder.h"

namespace kiln::mips {

struct JumpTable {
  uint32_t jump_address = 0;  ///< the JR
  uint32_t table_address = 0; ///< first entry
  std::vector<uint32_t> targets;
};

/// Bytes of the program outside the text (an ELF's data segment: the GOT, .data), for reading pointers.
struct DataSegment {
  uint32_t address = 0;
  std::vector<uint8_t> bytes;
};

struct Function {
  uint32_t start = 0, end = 0; ///< [start, end)
};

class ProgramImage {
public:
  /// `text` is loaded at `base`; decoding uses `decoder` (its variant), `name` names the file in errors.
  /// `data`: other segments (an ELF's GOT and .data), whose words may hold code pointers.
  ProgramImage(std::vector<uint8_t> text, uint32_t base, uint32_t entry, const Decoder& decoder, std::string name,
               std::vector<DataSegment> data = {});

  Variant variant() const { return variant_; }
  uint32_t base() const { return base_; }
  uint32_t end() const { return base_ + static_cast<uint32_t>(text_.size() & ~size_t{3}); }
  bool contains(uint32_t address) const { return address >= base_ && address < end(); }
  uint32_t word(uint32_t address) const;
  const Instruction& instruction(uint32_t address) const { return instructions_[(address - base_) / 4]; }
  const std::vector<uint8_t>& text() const { return text_; }
  const std::string& name() const { return name_; }
  uint32_t entry() const { return entry_; }

  const std::vector<Function>& functions() const { return functions_; }
  const std::map<uint32_t, JumpTable>& jump_tables() const { return jump_tables_; } ///< by JR address
  const std::vector<uint32_t>& unresolved_jumps() const { return unresolved_jumps_; }
  /// JRs whose register holds a constant set just before (`li $t2, 0xA0; jr $t2`: the BIOS call stubs), by JR address.
  const std::map<uint32_t, uint32_t>& constant_jumps() const { return constant_jumps_; }
  const Function* function_at(uint32_t address) const;
  bool is_function_start(uint32_t address) const { return starts_.count(address) != 0; }

private:
  void discover();
  void add_code_pointers();
  void resolve_jump_tables();
  std::optional<uint32_t> constant_register(uint32_t at, unsigned reg, const Function& f) const;
  std::optional<JumpTable> gp_relative_table(uint32_t jr_address, const Function& f) const;
  std::optional<uint32_t> read_word(uint32_t address) const; ///< from the text or a data segment
  void find_global_pointer();
  bool is_delay_slot(uint32_t address) const;
  void rebuild_functions();

  std::vector<uint8_t> text_;
  uint32_t base_, entry_;
  Variant variant_;
  std::string name_;
  std::vector<DataSegment> data_;
  std::optional<uint32_t> gp_; ///< $gp as abicalls prologues set it (one GOT in a static executable)
  std::vector<Instruction> instructions_;
  std::set<uint32_t> starts_;
  std::set<uint32_t> table_words_; ///< addresses of words that belong to a jump table
  std::vector<Function> functions_;
  std::map<uint32_t, JumpTable> jump_tables_;
  std::vector<uint32_t> unresolved_jumps_;
  std::map<uint32_t, uint32_t> constant_jumps_;
};

/// The static target of a branch or J/JAL at `address` (its delay slot is not in another taken branch's slot).
uint32_t static_target(const Instruction& instruction);
/// BLTZAL/BGEZAL (REGIMM with rt = 1000x): a conditional call.
bool is_branch_and_link(const Instruction& instruction);
/// J, or BEQ with rs = rt (the `b` alias): always taken.
bool is_unconditional(const Instruction& instruction);

} // namespace kiln::mips
