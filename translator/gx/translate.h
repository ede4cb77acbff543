#pragma once
// GX programs to validated SPIR-V: the XF vertex program and the TEV fragment program of a draw, each built
// from its UID, checked by the IR verifier, emitted by the graphics backend and validated by spirv-val.
#include <cstdint>
#include <vector>

#include "translator/gx/pixel_program.h"
#include "translator/gx/vertex_program.h"

namespace kiln::gx {

/// Both programs read their constant bank 0 at binding 0 of their own descriptor set, so one pipeline layout
/// holds the XF constants and the TEV constants side by side.
inline constexpr uint32_t vertex_descriptor_set = 0, pixel_descriptor_set = 1;

struct GxShader {
  ir::Function program;        ///< the IR, runnable on the CPU through ir::interpret
  std::vector<uint32_t> spirv; ///< validated (Vulkan 1.2)
};

/// Throws kiln::Error naming the stage when the state uses what is not translated, or validation fails.
GxShader translate_pixel(const PixelUid& uid);
GxShader translate_vertex(const VertexUid& uid);

} // namespace kiln::gx
