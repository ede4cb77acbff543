#pragma once
// The one place that says what each AArch64 instruction does: for every LLVM MC opcode kiln supports, a handler
// emits the C++ statements that implement it. The C++ emitter and the tests use this and nothing else.
// Names the handlers may use in emitted code: locals x0..x30, sp, flags n/z/cf/vf (uint32_t), the CPU `c`
// (vector registers c->v_regs[i]), the guest memory base `m`, and helpers from runtime/core/aarch64/ops.h.
#include <cstdint>
#include <string>
#include <string_view>

#include "recompiler/isa/aarch64/instruction.h"

namespace kiln::a64 {

/// What a handler can ask of the emitter: straight-line code, and control flow it lowers (goto inside the
/// function, calls through host functions, the dispatch table for indirect targets).
class EmitTarget {
public:
  virtual ~EmitTarget() = default;
  virtual void line(std::string code) = 0;
  virtual void branch(uint64_t target) = 0;
  virtual void branch_if(const std::string& condition, uint64_t target) = 0;
  virtual void call(uint64_t target, uint64_t return_address) = 0;
  virtual void branch_indirect(const std::string& target) = 0;
  virtual void call_indirect(const std::string& target, uint64_t return_address) = 0;
  virtual void return_to(const std::string& target) = 0;
  virtual void supervisor_call() = 0;
  /// Code the recompiler cannot translate: a trap naming address, encoding and function at run time.
  virtual void untranslated(const std::string& reason) = 0;
};

/// Emits `instruction`; returns false (emitting nothing) when kiln has no semantics for its opcode.
bool emit_semantics(const Instruction& instruction, EmitTarget& out);
bool has_semantics(std::string_view opcode);

enum class ControlFlow { none, branch, conditional_branch, call, indirect_branch, indirect_call, ret, stop };
struct FlowInfo {
  ControlFlow kind = ControlFlow::none;
  uint64_t target = 0; ///< direct target, when there is one
};
/// How an instruction transfers control (used by analysis to find blocks, calls and tail calls).
FlowInfo control_flow(const Instruction& instruction);

/// Decodes an AArch64 logical immediate (N:immr:imms) for a register of `width` bits.
uint64_t decode_bit_masks(uint32_t encoded, unsigned width);

} // namespace kiln::a64
