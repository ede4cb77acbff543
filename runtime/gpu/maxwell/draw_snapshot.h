#pragma once
// Immutable state a draw, clear or compute dispatch needs, frozen when the method that starts it arrives.
// Later methods never alter a snapshot: the backend may consume it at any time.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/gpu/maxwell/render_state.h"

namespace kiln::maxwell {

inline constexpr uint32_t vertex_stream_count = 16;
inline constexpr uint32_t vertex_attribute_count = 32;
inline constexpr uint32_t pipeline_slot_count = 6;   // SET_PIPELINE_*(j): VS A, VS B, TCS, TES, GS, FS
inline constexpr uint32_t shader_stage_count = 5;    // BIND_GROUP_*(j): VS, TCS, TES, GS, FS
inline constexpr uint32_t constant_buffer_slots = 18;
inline constexpr uint32_t viewport_count = 16;
inline constexpr uint32_t shader_header_size = 0x50; // Maxwell SPH: 20 words

struct VertexStream {
  bool enabled = false;
  uint32_t stride = 0;
  uint64_t address = 0;
  uint64_t limit = 0;   ///< last valid byte address (B197: SET_VERTEX_STREAM_LIMIT_A_A/B; C797: address + SIZE - 1), 0: none
  uint32_t frequency = 0;
  bool per_instance = false;
  friend bool operator==(const VertexStream&, const VertexStream&) = default;
};

/// One SET_VERTEX_ATTRIBUTE_A word, decoded (the size and type codes are the class's COMPONENT_BIT_WIDTHS and
/// NUMERICAL_TYPE enumerations; a backend maps them to its formats).
struct VertexAttribute {
  uint32_t stream = 0;
  bool constant = false;     ///< SOURCE_INACTIVE: reads (0, 0, 0, 1)
  uint32_t offset = 0;
  uint32_t size = 0;         ///< COMPONENT_BIT_WIDTHS
  uint32_t type = 0;         ///< NUMERICAL_TYPE (1 SNORM .. 7 FLOAT)
  bool swap_r_and_b = false;
  friend bool operator==(const VertexAttribute&, const VertexAttribute&) = default;
};
VertexAttribute decode_vertex_attribute(uint32_t word);

struct ShaderProgram {
  bool enabled = false;
  uint32_t type = 0;          ///< SET_PIPELINE_SHADER_TYPE
  uint64_t address = 0;       ///< B197: program region + SET_PIPELINE_PROGRAM offset; C797: SET_PIPELINE_PROGRAM_ADDRESS
  uint32_t register_count = 0;
  uint32_t binding_group = 0; ///< SET_PIPELINE_BINDING
  std::array<uint8_t, shader_header_size> header{}; ///< the SPH as it was in memory at the draw
  friend bool operator==(const ShaderProgram&, const ShaderProgram&) = default;
};

struct ConstantBufferBinding {
  bool valid = false;
  uint64_t address = 0;
  uint32_t size = 0;
  friend bool operator==(const ConstantBufferBinding&, const ConstantBufferBinding&) = default;
};

struct RenderTarget {
  uint64_t address = 0;
  uint32_t width = 0, height = 0, format = 0; ///< format 0: disabled
  uint32_t memory = 0;          ///< block size and layout bits (SET_COLOR_TARGET_MEMORY / SET_ZT_BLOCK_SIZE)
  uint32_t third_dimension = 0, array_pitch = 0, layer = 0;
  friend bool operator==(const RenderTarget&, const RenderTarget&) = default;
};

struct Viewport {
  std::array<float, 3> scale{}, offset{};
  uint32_t swizzle = 0;
  uint32_t clip_horizontal = 0, clip_vertical = 0; ///< SET_VIEWPORT_CLIP_HORIZONTAL/VERTICAL (xmin|width<<16)
  float min_z = 0, max_z = 0;
  friend bool operator==(const Viewport&, const Viewport&) = default;
};

struct Scissor {
  bool enabled = false;
  uint16_t x_min = 0, x_max = 0, y_min = 0, y_max = 0;
  friend bool operator==(const Scissor&, const Scissor&) = default;
};

struct DrawSnapshot {
  uint64_t draw_index = 0;   ///< draws since the GPU started
  uint32_t channel = 0;
  /// The 3D class that drew: ClassId::threed (B197: SM5x programs after a 0x50-byte SPH) or
  /// ClassId::threed_ampere (C797: SM86 programs after the SPH padded to 0x80 bytes).
  uint32_t class_id = 0;
  uint32_t topology = 0;     ///< BEGIN_OP
  bool indexed = false;
  uint32_t first = 0;        ///< first vertex, or first index
  uint32_t count = 0;
  uint32_t instance = 0;     ///< instance id of this draw (BEGIN_INSTANCE_ID first/subsequent)
  uint32_t base_vertex = 0, base_instance = 0;
  uint32_t index_size = 0;   ///< bytes per index
  uint64_t index_address = 0, index_limit = 0;
  bool render_enabled = true; ///< conditional rendering, evaluated in command order at the draw
  /// Indices that came inline in the pushbuffer (DRAW_INLINE_INDEX*), widened to 32 bits; when present the draw
  /// is indexed by these instead of an index buffer.
  std::vector<uint32_t> inline_indices;

  std::array<VertexStream, vertex_stream_count> vertex_streams{};
  std::array<VertexAttribute, vertex_attribute_count> vertex_attributes{};
  std::array<ShaderProgram, pipeline_slot_count> programs{};
  std::array<std::array<ConstantBufferBinding, constant_buffer_slots>, shader_stage_count> constant_buffers{};
  std::array<RenderTarget, color_target_count> color_targets{};
  uint32_t color_target_select = 0; ///< SET_CT_SELECT
  RenderTarget depth_target{};
  bool depth_target_enabled = false;
  std::array<Viewport, viewport_count> viewports{};
  std::array<Scissor, viewport_count> scissors{};
  uint64_t texture_header_pool = 0, sampler_pool = 0;
  uint32_t texture_header_limit = 0, sampler_limit = 0;
  RenderState render{};

  friend bool operator==(const DrawSnapshot&, const DrawSnapshot&) = default;
};

/// CLEAR_SURFACE, resolved: which target, what channels, and the rectangle after scissor / clear rect / viewport.
struct ClearSnapshot {
  uint32_t channel = 0;
  uint32_t target = 0, layer = 0;
  bool depth = false, stencil = false;
  uint32_t color_mask = 0;       ///< bit 0 R .. bit 3 A
  std::array<uint32_t, 4> color{}; ///< SET_COLOR_CLEAR_VALUE, raw
  float depth_value = 0;
  uint32_t stencil_value = 0;
  uint32_t stencil_write_mask = 0xff; ///< SET_STENCIL_MASK when RESPECT_STENCIL_MASK, else 0xff
  uint32_t x_min = 0, y_min = 0, x_max = 0, y_max = 0; ///< half-open rectangle
  bool render_enabled = true;
  RenderTarget color_target{};
  RenderTarget depth_target{};
  friend bool operator==(const ClearSnapshot&, const ClearSnapshot&) = default;
};

/// A compute launch (engine_compute.cpp): what its QMD says, decoded from the layout of the launching class.
struct DispatchSnapshot {
  uint32_t channel = 0;
  uint32_t class_id = 0;          ///< ClassId::compute (B1C0: SM5x program) or ClassId::compute_ampere (C7C0: SM86)
  uint64_t qmd_address = 0;
  uint64_t program_address = 0;
  std::array<uint32_t, 3> grid{}, block{};
  uint32_t shared_memory_size = 0, register_count = 0, barrier_count = 0;
  uint32_t local_memory_size = 0; ///< per-thread bytes (SHADER_LOCAL_MEMORY_LOW_SIZE)
  std::array<ConstantBufferBinding, 8> constant_buffers{};
  uint64_t texture_header_pool = 0, sampler_pool = 0;
  std::array<uint32_t, 64> qmd{}; ///< the QMD words as read
  friend bool operator==(const DispatchSnapshot&, const DispatchSnapshot&) = default;
};

} // namespace kiln::maxwell
