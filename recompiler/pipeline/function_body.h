#pragma once
// What writing one guest function as C++ shares between fixed-width ISAs (the ISA's writer prints each
// instruction): which instructions control reaches from the function's start without leaving it (the others are
// not emitted), where labels go (branch targets, jump-table cases, the instruction after a call), and the C++ of
// control leaving: a goto inside the function, a direct call of another recompiled function, or the platform's
// call_guest (reached through the alias `kiln_platform`) for any other address.
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>

#include "recompiler/pipeline/function_discovery.h"
#include "recompiler/pipeline/project_files.h"
#include "recompiler/pipeline/summary.h"

namespace kiln::pipeline {

/// The host name of the recompiled function starting at `address`.
std::string host_function_name(uint64_t address);

class FunctionBody {
public:
  FunctionBody(const DiscoveredFunctions& found, const Function& function);

  const Function& function() const { return function_; }
  bool inside(uint64_t address) const { return address >= function_.start && address < function_.end; }
  /// Instructions control reaches from the start, each beginning a step (a delay slot runs with its branch).
  const std::set<uint64_t>& reached() const { return reached_; }
  bool is_reached(uint64_t address) const { return reached_.count(address) != 0; }
  bool has_label(uint64_t address) const { return labels_.count(address) != 0; }

  /// Control continues at `target`: a goto when this function holds it, else leave_for(target).
  std::string go_to(uint64_t target) const;
  /// Control leaves for `target` (a tail call of another function or through call_guest), then this returns.
  std::string leave_for(uint64_t target) const;
  /// A call of `target` from `call_address`, then check_return(call_address, return_address).
  std::string call(uint64_t target, uint64_t call_address, uint64_t return_address) const;
  /// After a call: the callee came back to `return_address`, or elsewhere (longjmp to a setjmp): then the
  /// platform's returned_elsewhere resumes this frame in the fallback interpreter when the landing address is in
  /// this function and the stack pointer in its frame, and this host function returns either way (a frame further
  /// up takes over otherwise). It reads the locals entry_state() declares.
  std::string check_return(uint64_t call_address, uint64_t return_address) const;
  /// The function's first statement: the return address and stack pointer it was entered with (`link` and
  /// `stack_pointer` name them in the ISA's Cpu), for check_return.
  static std::string entry_state(std::string_view link, std::string_view stack_pointer);
  /// Execution falls through to `next` after the last instruction of a run: nothing when this function
  /// continues there or `next` lies inside it unreached, else a tail call (functions that fall into the next one).
  std::string fall_out(uint64_t next) const;

private:
  const DiscoveredFunctions& found_;
  Function function_;
  std::set<uint64_t> reached_, labels_;
};

/// The function files every fixed-width ISA's project has: fills the summary's counts, writes functions.h
/// (`banner`, `includes`, `kiln_platform` naming `platform`, a declaration per function), the function sources
/// (each function's C++ from `write_one`, which returns its instruction count) and removes stale ones of an
/// earlier output; returns function_table.cpp's text up to the end of its `entries` array.
std::string write_function_files(const DiscoveredFunctions& found, std::string_view banner, std::string_view includes,
                                 std::string_view platform, const std::function<size_t(const Function&, std::string&)>& write_one,
                                 size_t instructions_per_file, ProjectFiles& files, RecompileSummary& summary);

/// The decoded text the fallback interpreter reads: `opcodes.bin`, one 16-bit opcode per word of [start, end) in
/// the host's (little-endian) order, from `opcode_of`; returns the assembly that places it in the program as
/// kiln_guest_opcodes (declared by opcode_table_declaration()).
std::string write_opcode_table(uint64_t start, uint64_t end, const std::function<uint16_t(uint64_t)>& opcode_of, ProjectFiles& files);
std::string opcode_table_declaration();
/// The C++ of the platform's guest::DecodedText over kiln_guest_opcodes: `type` (e.g. kiln::ppc::FallbackCode)
/// for the text at `base`.
std::string opcode_table_expression(std::string_view type, uint64_t base);

} // namespace kiln::pipeline
