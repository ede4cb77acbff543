#include "recompiler/isa/aarch64/semantics/semantics.h"

#include "recompiler/isa/aarch64/semantics/handlers.h"

namespace kiln::a64 {
namespace {

const sem::Registry& registry() {
  static const sem::Registry table = [] {
    sem::Registry r;
    sem::register_integer(r);
    sem::register_memory(r);
    sem::register_branch(r);
    sem::register_system(r);
    sem::register_fp(r);
    sem::register_simd(r);
    return r;
  }();
  return table;
}

} // namespace

bool has_semantics(std::string_view opcode) { return registry().count(opcode) != 0; }

bool emit_semantics(const Instruction& instruction, EmitTarget& out) {
  if (!instruction.decoded) return false;
  const auto it = registry().find(instruction.opcode);
  if (it == registry().end()) return false;
  it->second(instruction, out);
  return true;
}

FlowInfo control_flow(const Instruction& i) {
  if (!i.decoded) return {ControlFlow::stop};
  const std::string_view op = i.opcode;
  auto relative = [&](int64_t words) { return i.address + static_cast<uint64_t>(words) * 4; };
  if (op == "B") return {ControlFlow::branch, relative(i.imm(0))};
  if (op == "BL") return {ControlFlow::call, relative(i.imm(0))};
  if (op == "Bcc") return {ControlFlow::conditional_branch, relative(i.imm(1))};
  if (sem::starts_with(op, "CBZ") || sem::starts_with(op, "CBNZ")) return {ControlFlow::conditional_branch, relative(i.imm(1))};
  if (sem::starts_with(op, "TBZ") || sem::starts_with(op, "TBNZ")) return {ControlFlow::conditional_branch, relative(i.imm(2))};
  if (op == "BR") return {ControlFlow::indirect_branch};
  if (op == "BLR") return {ControlFlow::indirect_call};
  if (op == "RET") return {ControlFlow::ret};
  if (op == "BRK" || op == "UDF" || op == "HLT") return {ControlFlow::stop};
  return {ControlFlow::none};
}

} // namespace kiln::a64
