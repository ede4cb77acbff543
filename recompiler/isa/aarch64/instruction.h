#pragma once
// kiln's one form of a decoded AArch64 instruction: the opcode (LLVM MC's opcode name, e.g. "ADDXri", which
// names the encoding class precisely) plus its operands in LLVM MC's order. Semantics are keyed by that name.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::a64 {

enum class RegKind : uint8_t {
  none,
  x,   ///< 64-bit general register X0..X30
  w,   ///< 32-bit view W0..W30
  sp,  ///< SP (index 31)
  wsp, ///< WSP
  xzr, ///< XZR (index 31)
  wzr, ///< WZR
  q, d, s, h, b, ///< SIMD&FP register views V0..V31
  z, p,          ///< SVE vector / predicate (decoded, not translated)
  vlist,         ///< consecutive Q/D registers (LD1..LD4 lists): index = first, count = length
  other,
};

struct Register {
  RegKind kind = RegKind::none;
  uint8_t index = 0;
  uint8_t count = 1;  ///< for vlist
  bool vlist_q = true; ///< vlist of Q (true) or D registers
  bool is_general() const { return kind == RegKind::x || kind == RegKind::w || kind == RegKind::sp || kind == RegKind::wsp || kind == RegKind::xzr || kind == RegKind::wzr; }
  bool is_64() const { return kind == RegKind::x || kind == RegKind::sp || kind == RegKind::xzr; }
  bool is_zero() const { return kind == RegKind::xzr || kind == RegKind::wzr; }
  bool is_sp() const { return kind == RegKind::sp || kind == RegKind::wsp; }
  bool is_vector() const { return kind >= RegKind::q && kind <= RegKind::b; }
  bool operator==(const Register&) const = default;
};

struct Operand {
  enum class Kind : uint8_t { reg, imm } kind = Kind::imm;
  Register reg;
  int64_t imm = 0;
};

/// System register encodings (op0:op1:CRn:CRm:op2) as LLVM packs them in MRS/MSR's immediate operand.
namespace system_register {
constexpr int64_t tpidr_el0 = 0xde82, fpcr = 0xda20, fpsr = 0xda21, nzcv = 0xda10;
} // namespace system_register

/// A set of the registers the spill and reload code tracks: bit r (0..30) for x0..x30 (and their w views),
/// bit 31 for sp, bit 32 for the flags NZCV. XZR/WZR and the vector registers are not in it.
using RegisterMask = uint64_t;
constexpr RegisterMask sp_bit = RegisterMask{1} << 31;
constexpr RegisterMask flags_bit = RegisterMask{1} << 32;
constexpr RegisterMask all_registers = (RegisterMask{1} << 33) - 1;

struct Instruction {
  uint64_t address = 0;
  uint32_t encoding = 0;
  bool decoded = false;  ///< false: LLVM MC could not decode the word (data, or an unknown encoding)
  std::string_view opcode; ///< LLVM opcode name (static storage owned by LLVM)
  std::vector<Operand> operands;
  std::string text;      ///< disassembly text (for reports and traps)
  /// The registers the instruction reads and writes, from LLVM MC's description of the opcode: explicit
  /// operands (a tied write-back base is both) and implicit ones (NZCV of flag-setting forms, LR of BL/BLR).
  RegisterMask reads = 0, writes = 0;

  const Register& reg(size_t i) const { return operands.at(i).reg; }
  int64_t imm(size_t i) const { return operands.at(i).imm; }
};

/// The register's name as the semantics use it in C++ ("x5", "sp"...), for diagnostics.
std::string register_name(const Register& r);

} // namespace kiln::a64
