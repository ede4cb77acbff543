#pragma once
// A draw frozen when its batch ends: the vertices as loaded, their index list, and the CP/XF/BP state they are
// drawn with. Nothing later in the stream alters a snapshot, so a renderer may consume it at any time.
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/gpu/gx/raster_state.h"
#include "runtime/gpu/gx/state.h"
#include "runtime/gpu/gx/vertex_loader.h"

namespace kiln::gx {

struct DrawSnapshot {
  uint64_t offset = 0;            ///< stream offset of the batch's first primitive command
  Topology topology = Topology::triangles;
  uint32_t vertex_format_index = 0; ///< the VAT the primitives named
  VertexFormat format;
  std::vector<Vertex> vertices;
  std::vector<uint32_t> indices;  ///< triangle, line or point list into `vertices`
  uint32_t primitive_commands = 0;
  CpState cp;
  XfState xf;
  BpState bp;
  RasterState raster; ///< decoded from `xf` and `bp` when the batch starts
};

} // namespace kiln::gx
