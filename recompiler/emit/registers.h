#pragma once
// Which guest registers an instruction names: the generated code keeps exactly those in host locals.
#include <set>

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
}

} // namespace kiln::emit
