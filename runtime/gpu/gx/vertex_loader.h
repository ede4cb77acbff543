#pragma once
// The vertex loader: reads one vertex of the command stream as the CP's VCD and VAT describe it (direct values
// or 8/16-bit indices into the CP arrays in guest RAM), and assembles primitives into index lists.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/gpu/gx/state.h"

namespace kiln::gx {

inline constexpr uint32_t texcoord_count = 8;
inline constexpr uint32_t color_count = 2;

/// One vertex format: the VCD (which attributes, how addressed) with one VAT (their encodings), decoded.
struct VertexFormat {
  bool position_matrix_index = false;
  std::array<bool, texcoord_count> texcoord_matrix_index{};
  AttributeMode position = AttributeMode::none;
  AttributeMode normal = AttributeMode::none;
  std::array<AttributeMode, color_count> color{};
  std::array<AttributeMode, texcoord_count> texcoord{};
  uint8_t position_components = 2; ///< 2 (x, y) or 3 (x, y, z)
  uint8_t position_format = 0;     ///< ComponentFormat code (5-7 are reserved)
  uint8_t position_fraction = 0;
  bool normal_binormal_tangent = false; ///< NBT: three vectors instead of one
  uint8_t normal_format = 0;
  bool normal_index3 = false;      ///< NBT with an index for each of the three vectors
  std::array<uint8_t, color_count> color_format{}; ///< ColorFormat code (6-7 reserved)
  std::array<uint8_t, texcoord_count> texcoord_components{}; ///< 1 (s) or 2 (s, t)
  std::array<uint8_t, texcoord_count> texcoord_format{};
  std::array<uint8_t, texcoord_count> texcoord_fraction{};
  friend bool operator==(const VertexFormat&, const VertexFormat&) = default;
};

VertexFormat decode_vertex_format(const CpState& cp, uint32_t vat);

/// Bytes one vertex takes in the stream, or 0 with `error` set when the format uses a reserved encoding.
uint32_t vertex_size(const VertexFormat& format, std::string& error);

/// A vertex as the loader delivers it: floats for geometry, RGBA8 for colours, matrix indices as row numbers.
struct Vertex {
  std::array<float, 3> position{};
  std::array<float, 3> normal{}, binormal{}, tangent{};
  std::array<std::array<uint8_t, 4>, color_count> color{};
  std::array<std::array<float, 2>, texcoord_count> texcoord{};
  uint8_t position_matrix = 0; ///< XF row of the position matrix (a multiple of 3 for well-formed streams)
  std::array<uint8_t, texcoord_count> texcoord_matrix{};
  friend bool operator==(const Vertex&, const Vertex&) = default;
};

/// Decodes the vertex whose stream bytes start at `bytes` (vertex_size() of them). The CP matrix index
/// registers give the matrix of attributes without a per-vertex index. Indexed attributes read `ram` (guest
/// physical memory); an index reaching outside it sets `error` and leaves that attribute zero.
Vertex load_vertex(const VertexFormat& format, const CpState& cp, std::span<const uint8_t> ram, const uint8_t* bytes,
                   std::string& error);

/// Primitive types: bits 3-6 of the primitive opcode (0x80 + 8 * type).
enum class Primitive : uint8_t {
  quads = 0, quads2 = 1, triangles = 2, triangle_strip = 3, triangle_fan = 4, lines = 5, line_strip = 6, points = 7
};
enum class Topology : uint8_t { triangles, lines, points };
Topology topology_of(Primitive primitive);
const char* primitive_name(Primitive primitive);

/// Appends the index list of `count` vertices (numbered from `first`) drawn as `primitive`: quads become two
/// triangles (0 1 2, 0 2 3), strips alternate their winding back, fans share vertex 0, line strips share
/// ends. Vertices that complete no primitive draw nothing.
void assemble_primitive(Primitive primitive, uint32_t first, uint32_t count, std::vector<uint32_t>& indices);

} // namespace kiln::gx
