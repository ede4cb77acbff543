#pragma once
// Which guest registers an instruction names: the generated code keeps exactly those in host locals.
#include <fmt/format.h>

#include <set>
#include <string>

#include "recompiler/isa/aarch64/instruction.h"

namespace kiln::emit {

constexpr int vector_base = 100; ///< ids of V0..V31 in a register set (general ones are 0..31, 31 = SP)

/// Adds the general (0..31) and vector (vector_base + n) registers `i` reads or writes; BL/BLR add x30.
inline void add_used_registers(const a64::Instruction& i, std::set<int>& used) {
  for (const a64::Operand& o : i.operands)
    if (o.kind == a64::Operand::Kind::reg && o.reg.is_general() && !o.reg.is_zero()) used.insert(o.reg.is_sp() ? 31 : o.reg.index);
    else if (o.kind == a64::Operand::Kind::reg && o.reg.is_vector()) used.insert(vector_base + o.reg.index);
    else if (o.kind == a64::Operand::Kind::reg && o.reg.kind == a64::RegKind::vlist)
      for (int k = 0; k < o.reg.count; ++k) used.insert(vector_base + (o.reg.index + k) % 32);
  if (i.opcode == "BL" || i.opcode == "BLR") used.insert(30);
  // Registers no operand names alone: the second halves of CASP's pairs (operands X0_X1) and other implicit ones.
  const a64::RegisterMask general = (i.reads | i.writes) & (a64::sp_bit | (a64::sp_bit - 1));
  for (int r = 0; r < 32; ++r)
    if (general & (a64::RegisterMask{1} << r)) used.insert(r);
}

/// The host local that holds register `r` in generated code (x0..x30, sp, v0..v31).
inline std::string register_local(int r) {
  return r >= vector_base ? fmt::format("v{}", r - vector_base) : r == 31 ? std::string("sp") : fmt::format("x{}", r);
}
/// Where register `r` lives in the guest context `c`.
inline std::string register_slot(int r) {
  return r >= vector_base ? fmt::format("c->v_regs[{}]", r - vector_base) : r == 31 ? std::string("c->sp") : fmt::format("c->x[{}]", r);
}
/// The host type of register `r`'s local.
inline const char* register_type(int r) { return r >= vector_base ? "V128" : "uint64_t"; }

} // namespace kiln::emit
