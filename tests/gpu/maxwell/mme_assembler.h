#pragma once
// Builds MME instruction words from their fields (the layout in runtime/gpu/maxwell/mme/isa.h), so tests can
// write macros by hand and derive what they must do.
#include <cstdint>

#include "runtime/gpu/maxwell/mme/isa.h"

namespace kiln::maxwell::test::mme_asm {

using kiln::maxwell::mme::AluOp;
using kiln::maxwell::mme::Assign;

inline constexpr uint32_t exit_flag = 1u << 7;

inline uint32_t common(uint32_t op, Assign assign, uint32_t dst, uint32_t src_a) {
  return op | (static_cast<uint32_t>(assign) << 4) | (dst << 8) | (src_a << 11);
}
inline uint32_t alu(Assign assign, uint32_t dst, AluOp op, uint32_t a, uint32_t b) {
  return common(0, assign, dst, a) | (b << 14) | (static_cast<uint32_t>(op) << 17);
}
inline uint32_t add_imm(Assign assign, uint32_t dst, uint32_t a, int32_t imm) {
  return common(1, assign, dst, a) | ((static_cast<uint32_t>(imm) & 0x3ffff) << 14);
}
inline uint32_t read_state(Assign assign, uint32_t dst, uint32_t a, int32_t imm) {
  return common(5, assign, dst, a) | ((static_cast<uint32_t>(imm) & 0x3ffff) << 14);
}
inline uint32_t bitfield(uint32_t op, Assign assign, uint32_t dst, uint32_t a, uint32_t b, uint32_t src_bit,
                         uint32_t size, uint32_t dst_bit) {
  return common(op, assign, dst, a) | (b << 14) | (src_bit << 17) | (size << 22) | (dst_bit << 27);
}
inline uint32_t branch(bool not_zero, bool no_delay, uint32_t a, int32_t offset) {
  return 7u | (not_zero ? 1u << 4 : 0u) | (no_delay ? 1u << 5 : 0u) | (a << 11) |
         ((static_cast<uint32_t>(offset) & 0x3ffff) << 14);
}
/// A harmless instruction (r0 = r0 + 0, discarded).
inline uint32_t nop() { return add_imm(Assign::move, 0, 0, 0); }

} // namespace kiln::maxwell::test::mme_asm
