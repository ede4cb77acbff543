#pragma once
// Internal to the SM5x lowering (lower*.cpp): guest registers and predicates as IR locals, operand reading,
// and the per-instruction entry points.
#include <array>
#include <string>

#include "translator/ir/builder.h"
#include "translator/sass/sm5x/lower.h"

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

  /// Lowers one non-control instruction (lower_alu.cpp, lower_graphics_io.cpp); false when not handled there.
  bool lower_alu(const Instruction& instruction);
  bool lower_io(const Instruction& instruction);
  bool lower_quad(const Instruction& instruction); ///< lower_quad.cpp: SHFL, FSWZADD, S2R
  bool lower_texture(const Instruction& instruction); ///< lower_texture.cpp
  /// The stores of the program's outputs at EXIT (fragment colour registers).
  void store_fragment_outputs();

private:
  void lower_texture_vector(const Instruction& instruction); ///< TEX, TLD, TLD4, TXQ
  void lower_texture_scalar(const Instruction& instruction); ///< TEXS, TLDS, TLD4S
  void lower_lod_query(const Instruction& instruction);      ///< TMML

  std::array<uint32_t, 256> reg_locals_{};
  std::array<uint32_t, 8> pred_locals_{};
  std::array<bool, 256> has_reg_{};
  std::array<bool, 8> has_pred_{};
};

} // namespace kiln::sass::sm5x
