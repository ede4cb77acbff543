#pragma once
// Finding the functions of a fixed-width program image, the same engine for every ISA whose code is a run of
// 32-bit words (MIPS, PowerPC, AArch64). The ISA's front end supplies, as data, how each instruction moves control
// (Transfer) and the idioms only it knows: where code forms code addresses, and which targets an indirect jump
// can have (jump tables, constants). The engine partitions the code, one or several ranges (executable segments
// with gaps between them), into functions: starts are the entry point, the front end's known functions (symbols),
// call targets, code pointers, and every static branch, jump or table target that lies outside the function it
// is in (those become tail calls). A function runs from its start to the next start, the end of its range, or
// the end its known size gives. It grows the set of starts to a fixed point.
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
  std::string name;                     ///< from the front end's known functions, or empty
  std::set<uint64_t> secondary_entries; ///< addresses other code enters at besides `start` (InnerTargets::secondary_entry)
};

struct CodeRange {
  uint64_t start = 0, end = 0; ///< [start, end), word aligned
};

/// A function the front end knows before discovery (a symbol, a porter's [[functions]] entry, a module's export).
struct KnownFunction {
  uint64_t start = 0;
  uint64_t size = 0; ///< bytes; 0: discovery finds the end. Known starts inside [start, start + size) enter it.
  std::string name;  ///< empty: none (a later non-empty name of the same start replaces an earlier one)
};

/// Where a static branch or call that lands inside another function (not at its start) leads.
enum class InnerTargets : uint8_t {
  start_function,  ///< it starts a function there, splitting the one that held it (MIPS, PowerPC)
  secondary_entry, ///< the function stays whole and is entered there too; only targets in no function (code
                   ///< between a sized function's end and the next start) start functions (AArch64)
};

struct JumpTable {
  uint64_t jump_address = 0;  ///< the indirect jump
  uint64_t table_address = 0; ///< first entry (0 when a porter gave the targets: no table words in the code)
  unsigned entry_size = 4;
  std::vector<uint64_t> targets; ///< one per index
};

/// A jump table the front end recognised but could not bound safely (for the porter's discovery report).
struct TableIssue {
  uint64_t jump_address = 0;
  uint64_t table_address = 0; ///< 0: not traced
  std::string problem;
};

/// What the front end found an indirect jump can reach.
struct IndirectTargets {
  std::optional<JumpTable> table;
  std::optional<uint64_t> constant; ///< the register holds one known address (a call stub)
  std::optional<TableIssue> issue;  ///< with or without a table (an unbounded table read while its targets fit)
};

class DiscoveredFunctions;

/// The ISA's side of discovery: the code words, their transfers, and the idioms.
class CodeView {
public:
  virtual ~CodeView() = default;
  virtual uint64_t code_start() const = 0;
  virtual uint64_t code_end() const = 0;
  /// The code, in address order; by default the one range [code_start, code_end).
  virtual std::vector<CodeRange> code_ranges() const { return {CodeRange{code_start(), code_end()}}; }
  virtual uint64_t entry() const = 0;
  /// Whether the word at `address` (inside the code) is an instruction of the ISA.
  virtual bool decoded(uint64_t address) const = 0;
  virtual Transfer transfer(uint64_t address) const = 0;
  /// The targets of the indirect jump at `address` (flow jump_register, not a return) in `function`.
  virtual IndirectTargets indirect_targets(const DiscoveredFunctions& found, const Function& function, uint64_t address) const = 0;
  /// Code addresses the program forms or stores (function pointers): new starts for `found`'s current partition.
  virtual void code_pointers(const DiscoveredFunctions& found, std::set<uint64_t>& starts) const = 0;
  /// Functions known before discovery (symbols, a porter's [[functions]], a module's exports, code addresses
  /// that do not depend on the partition), in order: a later entry's name for the same start wins.
  virtual std::vector<KnownFunction> known_functions() const { return {}; }
  virtual InnerTargets inner_targets() const { return InnerTargets::start_function; }
};

class DiscoveredFunctions {
public:
  /// `hints` (a title's kiln.toml): entries added to the starts, jump targets that replace what the front end
  /// finds, functions left out; an entry that does not fit the program throws kiln::Error naming its line.
  explicit DiscoveredFunctions(const CodeView& code, const TitleHints& hints = {});

  const CodeView& code() const { return code_; }
  bool contains(uint64_t address) const { return range_of(address) != nullptr; }
  const std::vector<CodeRange>& code_ranges() const { return ranges_; }
  /// The instruction at `address` runs in the delay slot of the one before it.
  bool is_delay_slot(uint64_t address) const;

  const std::vector<Function>& functions() const { return functions_; }
  const std::map<uint64_t, JumpTable>& jump_tables() const { return jump_tables_; } ///< by jump address
  const std::vector<uint64_t>& unresolved_jumps() const { return unresolved_jumps_; }
  const std::map<uint64_t, uint64_t>& constant_jumps() const { return constant_jumps_; } ///< jump address -> target
  const std::vector<TableIssue>& table_issues() const { return table_issues_; }
  const std::set<uint64_t>& starts() const { return starts_; } ///< of functions (not secondary entries)
  /// Addresses of the words jump tables occupy (data inside the code, never a code pointer).
  bool is_table_word(uint64_t address) const { return table_words_.count(address) != 0; }
  const Function* function_at(uint64_t address) const;
  bool is_function_start(uint64_t address) const { return starts_.count(address) != 0; }
  /// A function start that is recompiled: not one the title's configuration leaves to the fallback interpreter.
  bool is_compiled(uint64_t address) const { return is_function_start(address) && !ignored_.count(address); }
  /// The functions that are recompiled, in address order.
  std::vector<Function> compiled_functions() const;

private:
  const CodeRange* range_of(uint64_t address) const;
  void discover();
  void rebuild_functions();
  void resolve_indirect_jumps();
  /// Tail calls and calls that enter other functions: new entries (InnerTargets says which) into `entries`.
  void scan_static_targets(std::set<uint64_t>& entries);

  const CodeView& code_;
  std::vector<CodeRange> ranges_;
  std::map<uint64_t, uint64_t> sizes_;     ///< known functions' sizes by start (the smallest given)
  std::map<uint64_t, std::string> names_;  ///< known functions' names by start (the last given)
  std::set<uint64_t> entries_;             ///< every address found to be entered: starts and secondary entries
  std::vector<TableIssue> table_issues_;
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
