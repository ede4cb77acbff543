#include "translator/gx/translate.h"

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/ir/passes.h"
#include "translator/ir/verifier.h"
#include "translator/spirv/emit_graphics.h"
#include "translator/spirv/validate.h"

namespace kiln::gx {
namespace {

GxShader finish(ir::Function program, const spirv::GraphicsInterface& interface, uint32_t descriptor_set, const char* what,
                uint64_t hash) {
  ir::verify(program, what);
  GxShader shader;
  spirv::GraphicsOptions options;
  options.descriptor_set = descriptor_set;
  shader.spirv = spirv::emit_graphics(program, interface, options);
  if (const auto messages = spirv::validate(shader.spirv); !messages.empty()) {
    throw Error(fmt::format("GX {} program {:016x}: the SPIR-V fails validation: {}", what, hash, messages.front()));
  }
  shader.program = std::move(program);
  return shader;
}

} // namespace

GxShader translate_pixel(const PixelUid& uid) {
  spirv::GraphicsInterface interface;
  interface.stage = spirv::GraphicsStage::fragment;
  return finish(build_pixel_program(uid), interface, pixel_descriptor_set, "pixel", uid.hash());
}

GxShader translate_vertex(const VertexUid& uid) {
  spirv::GraphicsInterface interface;
  interface.stage = spirv::GraphicsStage::vertex;
  for (uint32_t c = 0; c < 4; ++c) interface.declared_outputs.insert(interface.declared_outputs.end(), {0x70 + 4 * c, 0x80 + 4 * c, 0x90 + 4 * c});
  return finish(build_vertex_program(uid), interface, vertex_descriptor_set, "vertex", uid.hash());
}

} // namespace kiln::gx
