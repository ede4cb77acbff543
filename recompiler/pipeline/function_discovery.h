#pragma once
// Finding the functions of a fixed-width program image, the same engine for every ISA whose code is a run of
// 32-bit words (MIPS, PowerPC). The ISA's front end supplies, as data, how each instruction moves control
// (Transfer) and the idioms only it knows: where code forms code addresses, and which targets an indirect jump
// can have (jump tables, constants). The engine partitions the code into functions: starts are the entry point,
// call targets, code pointers, and every static branch, jump or table target that lies outside the function it
// is in (those become tail calls). A function runs from its start to the next start. It grows the set of starts
// to a fixed point.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "recompiler/pipeline/title_hints.h"

namespace kiln::pipeline {

/// How an instruction moves control.
enum class Flow : uint8_t {
  none,          ///< falls through
  jump,          ///< static target, possibly conditional (a branch)
  call,          ///< static target; control comes back after it (and its delay slot), possibly conditional
  jump_register, ///< target in a register (a return when `returns`)
  call_register, ///< call through a register
  trap,          ///< system call, breakpoint, trap: falls through when the platform returns
};

struct Transfer {
  Flow flow = Flow::none;
  uint64_t target = 0;       ///< static target (jump, call)
  bool conditional = false;  ///< may fall through instead (a conditional branch or call, a conditional return)
  bool returns = false;      ///< jump_register to the return address
  bool delay_slot = false;   ///< the next instruction runs before control moves (MIPS)
  bool is_transfer() const { return flow != Flow::none && flow != Flow::trap; }
};

struct Function {
  uint64_t start = 0, end = 0; ///< [start, end)
};

struct JumpTable {
  uint64_t jump_address = 0;  ///< the indirect jump
  uint64_t table_address = 0; ///< first entry (0 when a porter gave the targets: no table words in the code)
  unsigned entry_size = 4;
  std::vector<uint64_t> targets; ///< one per index
};

/// What the front end found an indirect jump can reach.
struct IndirectTargets {
  std::optional<JumpTable> table;
  std::optional<uint64_t> constant; ///< the register holds one known address (a call stub)
};

class DiscoveredFunctions;

/// The ISA's side of discovery: the code words, their transfers, and the idioms.
class CodeView {
public:
  virtual ~CodeView() = default;
  virtual uint64_t code_start() const = 0;
  virtual uint64_t code_end() const = 0;
  virtual uint64_t entry() const = 0;
  /// Whether the word at `address` (inside the code) is an instruction of the ISA.
  virtual bool decoded(uint64_t address) const = 0;
  virtual Transfer transfer(uint64_t address) const = 0;
  /// The targets of the indirect jump at `address` (flow jump_register, not a return) in `function`.
  virtual IndirectTargets indirect_targets(const DiscoveredFunctions& found, const Function& function, uint64_t address) const = 0;
  /// Code addresses the program forms or stores (function pointers): new starts for `found`'s current partition.
  virtual void code_pointers(const DiscoveredFunctions& found, std::set<uint64_t>& starts) const = 0;
  /// Entries known before discovery (symbols, a porter's [[functions]], a module's exports).
  virtual std::set<uint64_t> known_starts() const { return {}; }
};

class DiscoveredFunctions {
public:
  /// `hints` (a title's kiln.toml): entries added to the starts, jump targets that replace what the front end
  /// finds, functions left out; an entry that does not fit the program throws kiln::Error naming its line.
  explicit DiscoveredFunctions(const CodeView& code, const TitleHints& hints = {});

  const CodeView& code() const { return code_; }
  bool contains(uint64_t address) const { return address >= code_.code_start() && address < code_.code_end(); }
  /// The instruction at `address` runs in the delay slot of the one before it.
  bool is_delay_slot(uint64_t address) const;

  const std::vector<Function>& functions() const { return functions_; }
  const std::map<uint64_t, JumpTable>& jump_tables() const { return jump_tables_; } ///< by jump address
  const std::vector<uint64_t>& unresolved_jumps() const { return unresolved_jumps_; }
  const std::map<uint64_t, uint64_t>& constant_jumps() const { return constant_jumps_; } ///< jump address -> target
  const std::set<uint64_t>& starts() const { return starts_; }
  /// Addresses of the words jump tables occupy (data inside the code, never a code pointer).
  bool is_table_word(uint64_t address) const { return table_words_.count(address) != 0; }
  const Function* function_at(uint64_t address) const;
  bool is_function_start(uint64_t address) const { return starts_.count(address) != 0; }
  /// A function start that is recompiled: not one the title's configuration leaves to the fallback interpreter.
  bool is_compiled(uint64_t address) const { return is_function_start(address) && !ignored_.count(address); }
  /// The functions that are recompiled, in address order.
  std::vector<Function> compiled_functions() const;

private:
  void discover();
  void rebuild_functions();
  void resolve_indirect_jumps();

  const CodeView& code_;
  std::map<uint64_t, std::vector<uint64_t>> given_tables_; ///< a porter's jump targets, by jump address
  std::set<uint64_t> ignored_;
  std::set<uint64_t> starts_;
  std::set<uint64_t> table_words_;
  std::vector<Function> functions_;
  std::map<uint64_t, JumpTable> jump_tables_;
  std::vector<uint64_t> unresolved_jumps_;
  std::map<uint64_t, uint64_t> constant_jumps_;
};

} // namespace kiln::pipeline
