#pragma once
// Internal to the SM5x lowering (lower*.cpp): guest registers and predicates as IR locals, operand reading,
// and the per-instruction entry points.
#include <array>
#include <optional>
#include <string>

#include "translator/ir/builder.h"
#include "translator/sass/sm5x/lower.h"
#include "translator/sass/sm86/constant_buffer.h"

namespace kiln::sass::sm5x {

class LowerContext {
public:
  LowerContext(ir::Function& function, const Program& guest, const LowerOptions& lower_options)
      : b(function), program(guest), options(lower_options) {}

  ir::Builder b;
  const Program& program;
  const LowerOptions& options;
  const Instruction* current = nullptr;

  [[noreturn]] void fail(const std::string& what) const;

  ir::ValueId reg(uint8_t index);
  void set_reg(uint8_t index, ir::ValueId value);
  ir::ValueId pred(uint8_t index, bool invert = false);
  void set_pred(uint8_t index, ir::ValueId value);

  /// Integer bits of a source operand (register, literal, constant buffer), without negate/absolute.
  ir::ValueId bits(const Operand& operand);
  /// A float source with its |x| and -x applied, flushed when `flush` (.FTZ).
  ir::ValueId float_source(const Operand& operand, bool flush);
  ir::ValueId to_float(ir::ValueId bits_value) { return b.convert(ir::Op::Bitcast, ir::Type::F32, bits_value); }
  ir::ValueId to_bits(ir::ValueId float_value) { return b.convert(ir::Op::Bitcast, ir::Type::U32, float_value); }
  ir::ValueId const_bank(uint32_t bank, ir::ValueId offset);
  /// A register pair (R, R+1) as one 64-bit value (RZ reads 0, a write to RZ is dropped).
  ir::ValueId reg64(uint8_t index);
  void set_reg64(uint8_t index, ir::ValueId value);
  /// 64 bits of a source: a register pair, a constant (two words) or a double literal's bits.
  ir::ValueId bits64(const Operand& operand);
  /// A double source with |x| and -x applied.
  ir::ValueId double_source(const Operand& operand);
  ir::ValueId to_double(ir::ValueId bits_value) { return b.convert(ir::Op::Bitcast, ir::Type::F64, bits_value); }
  ir::ValueId double_bits(ir::ValueId double_value) { return b.convert(ir::Op::Bitcast, ir::Type::U64, double_value); }

  /// The condition-code register (written by .CC forms, read by .X forms, CSETP and P2R). The carry is kept as a
  /// count (0-2: a three-input add can carry twice) that the next .X form adds in.
  enum class Flag : uint8_t { zero, sign, carry, overflow };
  ir::ValueId flag(Flag which); ///< Bool, or U32 for the carry
  void set_flags(ir::ValueId zero, ir::ValueId sign, ir::ValueId carry, ir::ValueId overflow);
  /// x + y + carry_in (U32 each) with the flags an add writes: carry out and signed overflow.
  struct Sum {
    ir::ValueId value, carry, overflow;
  };
  Sum add_with_carry(ir::ValueId x, ir::ValueId y, ir::ValueId carry_in);
  /// A condition-code test (%CCTEST value: CC.NEU, CC.SFT, ...) on the current flags.
  ir::ValueId cc_test(uint32_t test);
  /// Writes the flags of an integer result: Z (and-ed with the previous Z for .X forms), S, C, O.
  void set_result_flags(ir::ValueId result, ir::ValueId carry, ir::ValueId overflow, bool extended);

  /// Lowers one non-control instruction (lower_alu.cpp, lower_graphics_io.cpp); false when not handled there.
  bool lower_alu(const Instruction& instruction);
  bool lower_io(const Instruction& instruction);
  bool lower_quad(const Instruction& instruction); ///< lower_quad.cpp: SHFL, FSWZADD, S2R
  bool lower_texture(const Instruction& instruction); ///< lower_texture.cpp
  bool lower_integer(const Instruction& instruction); ///< lower_integer.cpp: integer arithmetic, logic, compares
  bool lower_wide(const Instruction& instruction);    ///< lower_wide.cpp: double and half precision, conversions
  bool lower_compute(const Instruction& instruction); ///< lower_compute.cpp: memory, atomics, warps, barriers
  /// The stores of the program's outputs at EXIT (fragment colour registers).
  void store_fragment_outputs();

  /// Set for compute kernels: every constant bank lies in one buffer (translator/sass/sm86/constant_buffer.h),
  /// read with LoadConst, instead of one binding per bank.
  const sm86::ConstantBufferLayout* constant_layout = nullptr;
  bool compute() const { return constant_layout != nullptr; }
  std::optional<uint32_t> clock_local; ///< SR_CLOCKLO's per-invocation counter, once read
  /// The kernel reads the driver area's window bases (a c[0x0][...] operand whose offset is below 0x8).
  bool reads_memory_windows = false;
  /// Operands the loader patches (a module symbol's address): the word holds 0 there.
  std::vector<sm86::CodeRelocation> relocations;

private:
  void lower_texture_vector(const Instruction& instruction); ///< TEX, TLD, TLD4, TXQ
  void lower_texture_scalar(const Instruction& instruction); ///< TEXS, TLDS, TLD4S
  void lower_lod_query(const Instruction& instruction);      ///< TMML

  std::array<uint32_t, 256> reg_locals_{};
  std::array<uint32_t, 8> pred_locals_{};
  std::array<bool, 256> has_reg_{};
  std::array<bool, 8> has_pred_{};
  std::array<std::optional<uint32_t>, 4> flag_locals_{};
};

} // namespace kiln::sass::sm5x
