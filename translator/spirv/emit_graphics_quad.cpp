// Quad shuffles of fragment programs: the IR Shuffle with a quad-local source lane (0-3, bit 0 = x, bit 1 = y,
// as QuadLane) becomes the three quad swaps and a pick by (source ^ own lane). The swaps run unconditionally so
// every fragment of the quad, helpers included, takes part.
#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/spirv/graphics_emitter.h"

namespace kiln::spirv {

uint32_t GraphicsEmitter::quad_shuffle(const ir::Inst& inst) {
  if (interface_.stage != GraphicsStage::fragment) throw Error(fmt::format("graphics backend: {} outside a fragment program", ir::op_name(inst.op)));
  ModuleBuilder& b = builder();
  b.capability(spv::Capability::GroupNonUniformQuad);
  const uint32_t u32 = core_.u32_type();
  const uint32_t value = core_.value(inst.args[0]);
  const uint32_t source = core_.value(inst.args[1]);
  const uint32_t subgroup = core_.const_u32(static_cast<uint32_t>(spv::Scope::Subgroup));
  const uint32_t distance = core_.binary(spv::Op::OpBitwiseAnd, u32, core_.binary(spv::Op::OpBitwiseXor, u32, source, quad_lane()), core_.const_u32(3));
  uint32_t result = value;
  for (uint32_t direction = 0; direction < 3; ++direction) { // horizontal (x ^ 1), vertical (y: ^ 2), diagonal (^ 3)
    const uint32_t swapped = b.op(spv::Op::OpGroupNonUniformQuadSwap, u32, {subgroup, value, core_.const_u32(direction)});
    const uint32_t picked = b.op(spv::Op::OpIEqual, b.type_bool(), {distance, core_.const_u32(direction + 1)});
    result = b.op(spv::Op::OpSelect, u32, {picked, swapped, result});
  }
  return result;
}

} // namespace kiln::spirv
