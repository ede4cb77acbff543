#pragma once
// Internal to the SM86 lowering: the state shared by the lower_*.cpp files.
#include <array>
#include <map>
#include <optional>
#include <unordered_map>

#include "translator/ir/builder.h"
#include "translator/ir/structurize.h"
#include "translator/sass/sm86/constant_buffer.h"
#include "translator/sass/sm86/lower.h"
#include "translator/sass/sm5x/sph.h"

namespace kiln::sass::sm86 {

class Lowerer {
public:
  Lowerer(const Kernel& kernel, std::span<const Instruction> code, const std::string& file);
  /// A graphics program (vertex or pixel stage) described by its SPH: stage inputs and outputs instead of a
  /// kernel's constant-bank layout and thread ids.
  Lowerer(const Kernel& program, std::span<const Instruction> code, const std::string& file,
          const sm5x::ShaderProgramHeader& header, const GraphicsLowerOptions& options);
  ir::Function run();

private:
  using ValueId = ir::ValueId;

  // lower_context.cpp: registers, operands, dispatch, CFG
  void lower_instruction(const Instruction& instruction);
  [[noreturn]] void unsupported(const Instruction& instruction, const std::string& what) const;
  const Operand& operand(const Instruction& instruction, size_t index) const;
  const Operand& branch_target(const Instruction& instruction) const;
  const Operand* branch_condition(const Instruction& instruction) const;
  uint32_t return_dispatch(const Instruction& instruction, const std::vector<uint64_t>& return_sites,
                           const std::map<uint64_t, uint32_t>& leaders, std::vector<ir::CfgBlock>& blocks, uint32_t exit_block);
  uint32_t local(std::unordered_map<uint32_t, uint32_t>& map, uint32_t key, ir::Type type);
  ValueId read_gpr(uint8_t index);
  void write_gpr(uint8_t index, ValueId value);
  ValueId read_uniform(uint8_t index);
  void write_uniform(uint8_t index, ValueId value);
  ValueId read_pair(const Operand& register_operand);
  void write_pair(const Operand& register_operand, ValueId value64);
  void write_register(const Operand& destination, ValueId value);
  ValueId read_predicate(const Operand& predicate);
  void write_predicate(const Operand& predicate, ValueId value);
  ValueId guard_condition(const Instruction& instruction);
  ValueId source_bits(const Operand& source);       ///< 32 bits of a register, immediate or constant
  ValueId source_u32(const Operand& source);        ///< source_bits with ~ (invert) applied
  ValueId source_u64(const Operand& source);        ///< a register pair, a 64-bit constant or an immediate
  ValueId source_f32(const Operand& source);        ///< float with |x| and -x applied
  ValueId source_f64(const Operand& source);
  ValueId constant_address(const Operand& source, uint32_t extra_offset);
  /// A constant operand's value: the packed kernel buffer (compute) or bank `source.index` (graphics).
  ValueId load_constant(const Operand& source, ir::MemoryWidth width);
  ValueId to_bits(ValueId float_value);
  ValueId u32(uint32_t value) { return b_.u32(value); }

  // lower_integer.cpp
  bool lower_integer(const Instruction& instruction);
  void lower_iadd3(const Instruction& instruction, bool uniform);
  void lower_imad(const Instruction& instruction);
  void lower_lea(const Instruction& instruction);
  void lower_lop3(const Instruction& instruction, bool uniform);
  void lower_plop3(const Instruction& instruction);
  void lower_shf(const Instruction& instruction, bool uniform);
  void lower_prmt(const Instruction& instruction);
  void lower_isetp(const Instruction& instruction);
  ValueId lut3(uint32_t lut, ValueId a, ValueId b, ValueId c);
  ValueId add_with_carry(ValueId a, ValueId b, ValueId& carry);

  // lower_float.cpp
  bool lower_float(const Instruction& instruction);
  void lower_float_arith(const Instruction& instruction, bool is_double);
  void lower_setp(const Instruction& instruction, bool is_double);
  void lower_mufu(const Instruction& instruction);
  void lower_f2i(const Instruction& instruction);
  void lower_i2f(const Instruction& instruction);
  void lower_f2f(const Instruction& instruction);
  void lower_frnd(const Instruction& instruction);
  void lower_fchk(const Instruction& instruction);
  ValueId float_compare(const Instruction& instruction, ValueId a, ValueId b);
  ValueId combine_predicate(const Instruction& instruction, ValueId result, ValueId other);
  ValueId flush(ValueId value, bool ftz);

  // lower_half.cpp
  ValueId half_to_float(ValueId bits16); ///< exact
  ValueId float_to_half(ValueId value);  ///< round to nearest even
  std::array<ValueId, 2> half_pair(const Operand& source);
  void lower_half_arith(const Instruction& instruction);
  void lower_f2fp(const Instruction& instruction);

  // lower_memory.cpp: memory, atomics, special registers, warps, barriers
  bool lower_memory(const Instruction& instruction);
  void lower_load_store(const Instruction& instruction);
  void lower_atomic(const Instruction& instruction);
  void lower_special(const Instruction& instruction);
  void lower_shfl(const Instruction& instruction);
  void lower_vote(const Instruction& instruction);
  void lower_redux(const Instruction& instruction);
  ValueId global_address(const Operand& memory, bool extended);
  ValueId shared_address(const Operand& memory);

  // lower_graphics.cpp: stage inputs/outputs, textures, quad operations of graphics programs
  bool lower_graphics(const Instruction& instruction);
  void lower_attribute(const Instruction& instruction);
  void lower_ipa(const Instruction& instruction);
  void lower_texture(const Instruction& instruction);
  void lower_quad_shuffle(const Instruction& instruction);
  void lower_fswzadd(const Instruction& instruction);
  void store_fragment_outputs();
  ValueId bank_word(uint32_t bank, ValueId byte_offset);
  bool fragment() const { return header_ && header_->stage == sm5x::ShaderStage::pixel; }

  const Kernel& kernel_;
  const sm5x::ShaderProgramHeader* header_ = nullptr; ///< set for graphics programs
  GraphicsLowerOptions graphics_options_;
  ConstantBufferLayout constant_layout_;
  std::span<const Instruction> code_;
  const std::string& file_;
  ir::Function function_;
  ir::Builder b_;
  std::unordered_map<uint32_t, uint32_t> gprs_, uniforms_, predicates_, uniform_predicates_;
  std::optional<uint32_t> clock_local_;
};

} // namespace kiln::sass::sm86
