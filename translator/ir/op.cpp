#include "translator/ir/op.h"

#include <array>

#include "translator/ir/types.h"

namespace kiln::ir {
namespace {

constexpr OpInfo op_table[] = {
#define KILN_IR_OP(name, signature, effect) {#name, Signature::signature, Effect::effect},
#include "translator/ir/ops.inc"
#undef KILN_IR_OP
};

} // namespace

const OpInfo& op_info(Op op) { return op_table[static_cast<size_t>(op)]; }

std::string_view type_name(Type type) {
  constexpr std::array<std::string_view, 6> names{"void", "bool", "u32", "u64", "f32", "f64"};
  return names[static_cast<size_t>(type)];
}

std::string_view memory_width_name(MemoryWidth width) {
  constexpr std::array<std::string_view, 6> names{"u8", "s8", "u16", "s16", "b32", "b64"};
  return names[static_cast<size_t>(width)];
}

std::string_view atomic_op_name(AtomicOp op) {
  constexpr std::array<std::string_view, 9> names{"add", "smin", "smax", "umin", "umax", "and", "or", "xor", "exch"};
  return names[static_cast<size_t>(op)];
}

} // namespace kiln::ir
