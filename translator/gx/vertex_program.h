#pragma once
// XF (the transform unit) as a kiln IR vertex program: the position through the position matrix (per vertex
// when the format carries a matrix index, else from the CP/XF matrix index register) and the projection, and
// the two colour and two alpha channels with their lighting (8 lights, diffuse functions, spot and distance
// attenuation). The UID holds the XF registers that shape the program; XF memory and the colour registers are
// read at run time from constant bank 0, laid out by vertex_constants().
//
// Vertex inputs (generic attribute n = location n): 0 position (x, y, z), 1 position matrix index (x, as a
// float), 2 normal, 3 colour 0 and 4 colour 1 (RGBA, 0..1). Outputs: the clip position, generic 0 and 1 = colour
// channels 0 and 1 (RGBA, 0..1). The clip z is the GX projection's z plus w: GX's clip range -w..0 becomes
// Vulkan's 0..w, so z/w is the GX normalised depth + 1.
#include <array>
#include <cstdint>
#include <vector>

#include "runtime/gpu/gx/state.h"
#include "runtime/gpu/gx/vertex_loader.h"
#include "translator/ir/ir.h"

namespace kiln::gx {

inline constexpr uint32_t vertex_input_position = 0, vertex_input_matrix_index = 1, vertex_input_normal = 2,
                          vertex_input_color0 = 3;

struct VertexUid {
  bool per_vertex_matrix = false;  ///< the vertex format carries a position matrix index
  uint8_t global_matrix = 0;       ///< otherwise the matrix row (CP matrix index A bits 0-5)
  bool has_normal = false;
  std::array<bool, 2> has_color{};
  bool orthographic = false;       ///< XF projection type
  uint8_t color_channels = 0;      ///< XF 0x1009: channels output
  /// XF 0x100E-0x1011 (colour 0, colour 1, alpha 0, alpha 1), with fields lighting does not use cleared.
  std::array<uint32_t, 4> channel_control{};
  uint32_t texgens = 0;            ///< XF 0x103F (texture generation is not translated yet: must be 0)
  friend bool operator==(const VertexUid&, const VertexUid&) = default;
  uint64_t hash() const;
};

VertexUid vertex_uid(const XfState& xf, const CpState& cp, const VertexFormat& format);

/// Constant bank 0 of the vertex program: XF memory (words 0x000-0x67F) then the XF registers (from 0x680).
inline constexpr uint32_t vertex_constant_registers = xf::memory_size;
std::vector<uint32_t> vertex_constants(const XfState& xf);

ir::Function build_vertex_program(const VertexUid& uid);

} // namespace kiln::gx
