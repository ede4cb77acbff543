#pragma once
// IR opcodes and their static properties, generated from ops.inc.
#include <cstdint>
#include <string_view>

namespace kiln::ir {

enum class Op : uint16_t {
#define KILN_IR_OP(name, signature, effect) name,
#include "translator/ir/ops.inc"
#undef KILN_IR_OP
};

/// Operand/result type shapes the verifier checks (I = U32 or U64, F = F32 or F64).
enum class Signature : uint8_t {
  Constant,      ///< () -> any non-void; bits in Inst::immediate
  IntBinary,     ///< (I, I) -> I
  IntShift,      ///< (I, U32) -> I
  IntUnary,      ///< (I) -> I
  IntCount,      ///< (I) -> U32
  IntCompare,    ///< (I, I) -> Bool
  FloatBinary,   ///< (F, F) -> F
  FloatTernary,  ///< (F, F, F) -> F
  FloatUnary,    ///< (F) -> F
  FloatCompare,  ///< (F, F) -> Bool
  FloatTest,     ///< (F) -> Bool
  BoolBinary,    ///< (Bool, Bool) -> Bool
  BoolUnary,     ///< (Bool) -> Bool
  Select,        ///< (Bool, T, T) -> T
  Convert,       ///< (T) -> result type; per-op rules in the verifier
  Pack64,        ///< (U32 low, U32 high) -> U64
  Special,       ///< () -> U32
  LoadGlobal,    ///< (U64 address) -> access_type(width)
  StoreGlobal,   ///< (U64 address, access_type(width)) -> Void
  LoadShared,    ///< (U32 byte offset) -> access_type(width)
  StoreShared,   ///< (U32 byte offset, access_type(width)) -> Void
  LoadConst,     ///< (U32 byte offset into constant bank 0) -> access_type(width)
  AtomicGlobal,  ///< (U64 address, I value) -> I (old value)
  AtomicShared,  ///< (U32 offset, U32 value) -> U32
  AtomicCasGlobal, ///< (U64 address, I compare, I value) -> I
  AtomicCasShared, ///< (U32 offset, U32 compare, U32 value) -> U32
  NoOperands,    ///< () -> Void
  Shuffle,       ///< (U32 value, U32 source lane) -> U32: the value of lane `source` of this warp
  Ballot,        ///< (Bool) -> U32: bit n set when lane n of this warp passed true
  LocalLoad,     ///< () -> type of local `aux`
  LocalStore,    ///< (type of local `aux`) -> Void
  StageInput,    ///< () -> U32: a graphics stage input (ops_graphics.inc)
  StageOutput,   ///< (U32) -> Void: a graphics stage output
  LoadBank,      ///< (U32 byte offset) -> U32: constant bank `aux`
  Texture,       ///< (U64, U64, U64) -> U32: a texture operation (translator/ir/texture.h)
};

/// What passes may do with an op.
enum class Effect : uint8_t {
  Pure,         ///< result depends only on operands (and the invocation): fold, remove when unused
  Approximate,  ///< pure, but the hardware result is only within documented bounds: remove, never fold
  ReadsMemory,  ///< remove when unused, never fold or reorder across stores
  SideEffect,   ///< never removed
};

struct OpInfo {
  std::string_view name;
  Signature signature;
  Effect effect;
};

const OpInfo& op_info(Op op);
inline std::string_view op_name(Op op) { return op_info(op).name; }
inline bool has_side_effect(Op op) { return op_info(op).effect == Effect::SideEffect; }

} // namespace kiln::ir
