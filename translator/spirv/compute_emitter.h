#pragma once
// Internal to the compute backend: state shared by its emit_*.cpp files.
#include <bit>
#include <functional>
#include <optional>
#include <utility>
#include <unordered_map>

#include "translator/spirv/emit_compute.h"
#include "translator/spirv/module_builder.h"

namespace kiln::spirv {

/// The function to emit under `options` (emit_fma.cpp): `function` itself, or a copy in `storage` with f32 FFma
/// expanded for FmaMode::exact_f32. Throws kiln::Error for f64 on a host without it.
const ir::Function& lower_float_modes(const ir::Function& function, const FloatOptions& options, std::optional<ir::Function>& storage);

class ComputeEmitter {
public:
  friend class GraphicsEmitter; ///< graphics stages reuse the computing ops and the structured control flow
  /// Set by GraphicsEmitter: emits its own ops (ops_graphics.inc) before the compute lowering is consulted.
  std::function<std::optional<uint32_t>(const ir::Inst&)> stage_ops;

  ComputeEmitter(const ir::Function& function, const ComputeOptions& options);
  std::vector<uint32_t> emit();

private:
  struct Construct {
    uint32_t label;   ///< IR label
    bool is_loop;
    uint32_t header, merge, continue_target;
    bool has_escapes = false; ///< a jump to an outer construct passed through this one
  };

  // emit_compute.cpp: module skeleton and control flow
  void declare_interface();
  void emit_block(const ir::Block& block);
  void emit_if(const ir::Node& node);
  void emit_construct(const ir::Node& node);
  void emit_jump(const ir::Node& node);
  void emit_pending_dispatch();
  void start_block(uint32_t label);
  void terminate(spv::Op opcode, std::initializer_list<uint32_t> operands);

  // emit_arith.cpp: computing ops
  void emit_inst(ir::ValueId id);
  uint32_t emit_arith(const ir::Inst& inst);
  uint32_t emit_float_min_max(const ir::Inst& inst);
  uint32_t emit_f64_rounding(ir::Op op, uint32_t x);
  uint32_t emit_convert(const ir::Inst& inst);
  uint32_t emit_float_to_int(const ir::Inst& inst);
  uint32_t emit_shift(const ir::Inst& inst);

  // emit_fma.cpp: single-rounding fused multiply-add
  uint32_t emit_fma(const ir::Inst& inst);
  uint32_t exact(spv::Op opcode, uint32_t type, uint32_t a, uint32_t b); ///< float op decorated NoContraction
  std::pair<uint32_t, uint32_t> two_sum(uint32_t a, uint32_t b);
  uint32_t add_round_to_odd(uint32_t a, uint32_t b);
  uint32_t ext_abs(uint32_t x); ///< |x| of an f64 on its bits

  // emit_memory.cpp: memory, atomics, invocation ids, warps
  uint32_t emit_memory(const ir::Inst& inst);
  uint32_t emit_special(const ir::Inst& inst);
  uint32_t emit_warp(const ir::Inst& inst);
  uint32_t warp_slot(uint32_t index);
  void clear_warp_slot();
  uint32_t global_pointer(uint32_t address, uint32_t pointee_type);
  uint32_t shared_word_pointer(uint32_t word_index);
  uint32_t private_word_pointer(uint32_t word_index);
  uint32_t load_subword(uint32_t word, uint32_t byte_offset, ir::MemoryWidth width);
  void store_subword(uint32_t word_pointer, uint32_t scope, uint32_t byte_offset, uint32_t value, ir::MemoryWidth width);
  uint32_t load_const_word(uint32_t word_index);
  uint32_t invocation_index();
  uint32_t builtin_component(uint32_t variable, uint32_t component);
  void workgroup_barrier();

  // helpers
  uint32_t type_of(ir::Type type);
  uint32_t value(ir::ValueId id) const { return values_.at(id); }
  uint32_t u32_type() { return builder_.type_int(32); }
  uint32_t u64_type() { return builder_.type_int(64); }
  uint32_t bool_type() { return builder_.type_bool(); }
  uint32_t const_u32(uint32_t v) { return builder_.constant_u32(v); }
  uint32_t const_u64(uint64_t v) { return builder_.constant(u64_type(), v, 64); }
  uint32_t const_of(ir::Type type, uint64_t bits);
  uint32_t binary(spv::Op opcode, uint32_t type, uint32_t a, uint32_t b) { return builder_.op(opcode, type, {a, b}); }
  uint32_t select(uint32_t type, uint32_t c, uint32_t a, uint32_t b) { return builder_.op(spv::Op::OpSelect, type, {c, a, b}); }

  const ir::Function& function_;
  ComputeOptions options_;
  ModuleBuilder builder_;
  std::vector<uint32_t> values_;
  std::vector<uint32_t> local_variables_;
  std::vector<Construct> constructs_;
  bool terminated_ = false;
  uint32_t pending_jump_ = 0; ///< Function variable: label*2 (+1 for continue) of a jump crossing constructs

  uint32_t main_function_ = 0;
  uint32_t const_bank_ = 0, shared_memory_ = 0, warp_scratch_ = 0, private_memory_ = 0;
  uint32_t global_address_bias_ = 0; ///< push-constant block {u64} (ComputeOptions::global_address_bias)
  uint32_t local_invocation_id_ = 0, workgroup_id_ = 0, local_invocation_index_ = 0, subgroup_invocation_id_ = 0;
  uint32_t workgroup_size_ = 0;
  std::vector<uint32_t> interface_;
  std::unordered_map<uint32_t, uint32_t> pair_structs_; ///< member type -> struct {T, T} (extended multiplies)
};

} // namespace kiln::spirv
