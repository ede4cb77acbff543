#pragma once
// The Maxwell MME (Macro Method Expander) instruction set: one 32-bit word per instruction. Field layout and
// semantics from Mesa's nouveau MME (mme_fermi.xml and its hardware-tested simulator, MIT) and envytools; the
// delay-slot rules match the behaviour yuzu documents. This file is the one place the encoding lives: the
// decoder, disassembler, interpreter and C++ generator all use it.
#include <cstdint>
#include <string>

#include "runtime/base/bits.h"

namespace kiln::maxwell::mme {

enum class Op : uint8_t { alu = 0, add_immediate = 1, merge = 2, extract_shift_immediate = 3,
                          extract_shift_register = 4, read_state = 5, unknown6 = 6, branch = 7 };
enum class AluOp : uint8_t { add = 0, add_carry = 1, subtract = 2, subtract_borrow = 3, bit_xor = 8, bit_or = 9,
                             bit_and = 10, and_not = 11, nand = 12 };
/// What happens to the result (bits 4-6).
enum class Assign : uint8_t { fetch = 0, move = 1, move_set_method = 2, fetch_send = 3, move_send = 4,
                              fetch_set_method = 5, move_set_method_fetch_send = 6, move_set_method_send_high = 7 };

struct Instruction {
  uint32_t word = 0;
  Op op() const { return static_cast<Op>(extract_bits(word, 0, 4) > 7 ? 6 : extract_bits(word, 0, 4)); }
  bool op_valid() const { return extract_bits(word, 0, 4) < 8 && op() != Op::unknown6; }
  Assign assign() const { return static_cast<Assign>(extract_bits(word, 4, 3)); }
  bool exit() const { return extract_bits(word, 7, 1) != 0; }
  uint32_t dst() const { return extract_bits(word, 8, 3); }
  uint32_t src_a() const { return extract_bits(word, 11, 3); }
  uint32_t src_b() const { return extract_bits(word, 14, 3); }
  AluOp alu_op() const { return static_cast<AluOp>(extract_bits(word, 17, 5)); }
  bool alu_op_valid() const {
    const uint32_t op = extract_bits(word, 17, 5);
    return op <= 3 || (op >= 8 && op <= 12);
  }
  int32_t immediate() const { return static_cast<int32_t>(sign_extend(extract_bits(word, 14, 18), 18)); }
  uint32_t bf_src_bit() const { return extract_bits(word, 17, 5); }
  uint32_t bf_size() const { return extract_bits(word, 22, 5); }
  uint32_t bf_dst_bit() const { return extract_bits(word, 27, 5); }
  bool branch_not_zero() const { return extract_bits(word, 4, 1) != 0; }
  bool branch_no_delay() const { return extract_bits(word, 5, 1) != 0; }
};

/// Semantics of the value-producing operations (everything but branches), shared by the interpreter and the
/// generated C++. `carry` is the ALU carry/borrow flag (Mesa's hardware tests: SUB sets it on borrow).
inline uint32_t alu(AluOp op, uint32_t a, uint32_t b, bool& carry) {
  switch (op) {
  case AluOp::add: { const uint64_t r = uint64_t{a} + b; carry = (r >> 32) != 0; return static_cast<uint32_t>(r); }
  case AluOp::add_carry: {
    const uint64_t r = uint64_t{a} + b + (carry ? 1 : 0); carry = (r >> 32) != 0; return static_cast<uint32_t>(r);
  }
  case AluOp::subtract: carry = a < b; return a - b;
  case AluOp::subtract_borrow: {
    const uint64_t subtrahend = uint64_t{b} + (carry ? 1 : 0);
    carry = uint64_t{a} < subtrahend;
    return static_cast<uint32_t>(uint64_t{a} - subtrahend);
  }
  case AluOp::bit_xor: return a ^ b;
  case AluOp::bit_or: return a | b;
  case AluOp::bit_and: return a & b;
  case AluOp::and_not: return a & ~b;
  case AluOp::nand: return ~(a & b);
  }
  return 0;
}

inline uint32_t field_mask(uint32_t size) { return static_cast<uint32_t>(low_mask<uint64_t>(size)); }

/// MERGE: `a` with bits [dst_bit, dst_bit+size) replaced by bits [src_bit, ...) of `b`.
inline uint32_t merge(uint32_t a, uint32_t b, uint32_t src_bit, uint32_t size, uint32_t dst_bit) {
  const uint32_t mask = field_mask(size);
  return (a & ~static_cast<uint32_t>(uint64_t{mask} << dst_bit)) |
         static_cast<uint32_t>(uint64_t{(b >> src_bit) & mask} << dst_bit);
}

/// BFE_LSL: the `size`-bit field of `value` at `src_bit`, shifted left by `dst_bit`; 0 when a shift passes 31.
inline uint32_t extract_shift(uint32_t value, uint32_t src_bit, uint32_t size, uint32_t dst_bit) {
  if (src_bit > 31 || dst_bit > 31) return 0;
  return static_cast<uint32_t>(uint64_t{(value >> src_bit) & field_mask(size)} << dst_bit);
}

/// "MOVE_EMIT r3, ADD r1, r2" and the like.
std::string disassemble(Instruction instruction);

} // namespace kiln::maxwell::mme
