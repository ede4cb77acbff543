// Freezing 3D state: draw snapshots, clear snapshots and the conditional rendering test.
#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/engine_3d.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/classes/methods_b197.h"
#include "runtime/gpu/maxwell/classes/methods_c797.h"

namespace kiln::maxwell {

namespace m3d = class_b197;
namespace a3d = class_c797;
namespace f3d = class_b197::field;

VertexAttribute decode_vertex_attribute(uint32_t word) {
  VertexAttribute attribute;
  attribute.stream = f3d::set_vertex_attribute_a_stream(word);
  attribute.constant = f3d::set_vertex_attribute_a_source(word) == m3d::value::set_vertex_attribute_a_source_inactive;
  attribute.offset = f3d::set_vertex_attribute_a_offset(word);
  attribute.size = f3d::set_vertex_attribute_a_component_bit_widths(word);
  attribute.type = f3d::set_vertex_attribute_a_numerical_type(word);
  attribute.swap_r_and_b = f3d::set_vertex_attribute_a_swap_r_and_b(word) != 0;
  return attribute;
}

bool Engine3D::render_enabled() const {
  switch (f3d::set_render_enable_override_mode(reg(m3d::set_render_enable_override))) {
  case 1: return true;  // ALWAYS_RENDER
  case 2: return false; // NEVER_RENDER
  default: break;
  }
  const uint32_t mode = f3d::set_render_enable_c_mode(reg(m3d::set_render_enable_c));
  if (mode <= 1) return mode == 1;
  const uint64_t address = address_pair(m3d::set_render_enable_a);
  const uint64_t first = gpu_.memory().read_u64(address);
  switch (mode) {
  case 2: return first != 0;                                         // CONDITIONAL
  case 3: return first == gpu_.memory().read_u64(address + 16);      // RENDER_IF_EQUAL
  case 4: return first != gpu_.memory().read_u64(address + 16);      // RENDER_IF_NOT_EQUAL
  default: throw Error(fmt::format("SET_RENDER_ENABLE_C mode {} is reserved", mode));
  }
}

namespace {
/// The last byte of `size` bytes at `address` (what B197's limit registers hold), or 0 (no limit) for size 0.
uint64_t last_byte(uint64_t address, uint64_t size) { return size == 0 ? 0 : address + size - 1; }

RenderTarget color_target(const Engine& engine, uint32_t index) {
  RenderTarget target;
  target.address = (uint64_t{engine.reg(m3d::set_color_target_a[index]) & 0xff} << 32) |
                   engine.reg(m3d::set_color_target_b[index]);
  target.width = engine.reg(m3d::set_color_target_width[index]);
  target.height = engine.reg(m3d::set_color_target_height[index]);
  target.format = f3d::set_color_target_format_v(engine.reg(m3d::set_color_target_format[index]));
  target.memory = engine.reg(m3d::set_color_target_memory[index]);
  target.third_dimension = engine.reg(m3d::set_color_target_third_dimension[index]);
  target.array_pitch = engine.reg(m3d::set_color_target_array_pitch[index]);
  target.layer = engine.reg(m3d::set_color_target_layer[index]);
  return target;
}

RenderTarget depth_target(const Engine& engine) {
  RenderTarget target;
  target.address = (uint64_t{engine.reg(m3d::set_zt_a) & 0xff} << 32) | engine.reg(m3d::set_zt_b);
  target.width = engine.reg(m3d::set_zt_size_a);
  target.height = engine.reg(m3d::set_zt_size_b);
  target.format = f3d::set_zt_format_v(engine.reg(m3d::set_zt_format));
  target.memory = engine.reg(m3d::set_zt_block_size);
  target.third_dimension = f3d::set_zt_size_c_third_dimension(engine.reg(m3d::set_zt_size_c));
  target.array_pitch = engine.reg(m3d::set_zt_array_pitch);
  target.layer = engine.reg(m3d::set_zt_layer);
  return target;
}
} // namespace

uint8_t Engine3D::state_group_of(uint32_t method) {
  static const std::array<uint8_t, register_count> groups = [] {
    std::array<uint8_t, register_count> table{};
    auto mark = [&](uint32_t first, uint32_t last, uint8_t group) {
      for (uint32_t m = first; m <= last; m += 4) table[m >> 2] |= group;
    };
    // An array family from its first element's first method to the last element's end (count elements).
    auto mark_elements = [&](MethodArray first, uint32_t count, uint8_t group) {
      mark(first.offset, first[count] - 4, group);
    };
    mark_elements(m3d::set_vertex_stream_a_format, vertex_stream_count, vertex_group);
    mark_elements(m3d::set_vertex_stream_limit_a_a, vertex_stream_count, vertex_group);
    mark_elements(a3d::set_vertex_stream_size_a, vertex_stream_count, vertex_group); // C797's sizes (B197 has none there)
    mark_elements(m3d::set_vertex_stream_instance_a, vertex_stream_count, vertex_group);
    mark_elements(m3d::set_vertex_attribute_a, vertex_attribute_count, vertex_group);
    mark_elements(m3d::set_pipeline_shader, pipeline_slot_count, program_group);
    mark(m3d::set_program_region_a, m3d::set_program_region_b, program_group);
    mark_elements(m3d::set_color_target_a, color_target_count, target_group);
    mark(m3d::set_zt_a, m3d::set_zt_array_pitch, target_group);
    mark(m3d::set_zt_size_a, m3d::set_zt_size_c, target_group);
    mark(m3d::set_ct_select, m3d::set_ct_select, target_group);
    mark(m3d::set_zt_select, m3d::set_zt_select, target_group);
    mark(m3d::set_zt_layer, m3d::set_zt_layer, target_group);
    mark_elements(m3d::set_viewport_scale_x, viewport_count, viewport_group);
    mark_elements(m3d::set_viewport_clip_horizontal, viewport_count, viewport_group);
    mark_elements(m3d::set_scissor_enable, viewport_count, viewport_group);
    mark(m3d::set_tex_sampler_pool_a, m3d::set_tex_sampler_pool_c, pool_group);
    mark(m3d::set_tex_header_pool_a, m3d::set_tex_header_pool_c, pool_group);
    for (uint32_t m : render_state_methods()) table[m >> 2] |= render_state_group;
    return table;
  }();
  return groups[(method >> 2) & (register_count - 1)];
}

std::shared_ptr<DrawSnapshot> Engine3D::build_snapshot(const DrawSnapshot* previous, uint32_t dirty) const {
  auto draw = previous ? std::make_shared<DrawSnapshot>(*previous) : std::make_shared<DrawSnapshot>();
  if (!previous) dirty = all_state_groups;
  draw->channel = channel_;
  draw->class_id = class_id();
  draw->render_enabled = render_enabled();
  draw->base_vertex = reg(m3d::set_global_base_vertex_index);
  draw->base_instance = reg(m3d::set_global_base_instance_index);
  const uint32_t index_size = f3d::set_index_buffer_e_index_size(reg(m3d::set_index_buffer_e));
  draw->index_size = index_size == 0 ? 1 : index_size == 1 ? 2 : 4;
  draw->index_address = address_pair(m3d::set_index_buffer_a);
  // B197 gives the last valid byte's address; C797 a size in bytes (0: none given).
  draw->index_limit = ampere() ? last_byte(draw->index_address, address_pair(a3d::set_index_buffer_size_a))
                               : address_pair(m3d::set_index_buffer_c);
  if (dirty & vertex_group) {
  for (uint32_t j = 0; j < vertex_stream_count; ++j) {
    VertexStream& stream = draw->vertex_streams[j];
    stream = VertexStream{};
    const uint32_t format = reg(m3d::set_vertex_stream_a_format[j]);
    stream.enabled = f3d::set_vertex_stream_a_format_enable(format) != 0;
    if (!stream.enabled) continue;
    stream.stride = f3d::set_vertex_stream_a_format_stride(format);
    stream.address = address_pair(m3d::set_vertex_stream_a_location_a[j]);
    stream.frequency = reg(m3d::set_vertex_stream_a_frequency[j]);
    stream.limit = ampere() ? last_byte(stream.address, address_pair(a3d::set_vertex_stream_size_a[j]))
                            : address_pair(m3d::set_vertex_stream_limit_a_a[j]);
    const uint32_t instanced = reg(m3d::set_vertex_stream_instance_a[j]);
    stream.per_instance = f3d::set_vertex_stream_instance_a_is_instanced(instanced) != 0;
  }
  for (uint32_t i = 0; i < vertex_attribute_count; ++i) {
    draw->vertex_attributes[i] = decode_vertex_attribute(reg(m3d::set_vertex_attribute_a[i]));
  }
  }
  // B197: SET_PIPELINE_PROGRAM offsets into SET_PROGRAM_REGION; C797: SET_PIPELINE_PROGRAM_ADDRESS per slot.
  const uint64_t program_region = ampere() ? 0 : address_pair(m3d::set_program_region_a);
  for (uint32_t j = 0; j < pipeline_slot_count; ++j) {
    ShaderProgram& program = draw->programs[j];
    if (dirty & program_group) {
      const uint32_t shader = reg(m3d::set_pipeline_shader[j]);
      program = ShaderProgram{};
      program.enabled = f3d::set_pipeline_shader_enable(shader) != 0;
      program.type = f3d::set_pipeline_shader_type(shader);
      program.address = ampere() ? address_pair(a3d::set_pipeline_program_address_a[j])
                                 : program_region + reg(m3d::set_pipeline_program[j]);
      program.register_count = reg(m3d::set_pipeline_register_count[j]);
      program.binding_group = reg(m3d::set_pipeline_binding[j]);
    }
    if (program.enabled) gpu_.memory().read(program.address, program.header); // the SPH as memory holds it now
  }
  if (dirty & constant_buffer_group) draw->constant_buffers = constant_buffers_;
  if (dirty & target_group) {
    for (uint32_t j = 0; j < color_target_count; ++j) draw->color_targets[j] = color_target(*this, j);
    draw->color_target_select = reg(m3d::set_ct_select);
    draw->depth_target_enabled = f3d::set_zt_select_target_count(reg(m3d::set_zt_select)) != 0;
    draw->depth_target = depth_target(*this);
  }
  for (uint32_t j = 0; j < viewport_count && (dirty & viewport_group); ++j) {
    Viewport& viewport = draw->viewports[j];
    const MethodArray scale[] = {m3d::set_viewport_scale_x, m3d::set_viewport_scale_y, m3d::set_viewport_scale_z};
    const MethodArray offset[] = {m3d::set_viewport_offset_x, m3d::set_viewport_offset_y, m3d::set_viewport_offset_z};
    for (uint32_t k = 0; k < 3; ++k) {
      viewport.scale[k] = std::bit_cast<float>(reg(scale[k][j]));
      viewport.offset[k] = std::bit_cast<float>(reg(offset[k][j]));
    }
    viewport.swizzle = reg(m3d::set_viewport_coordinate_swizzle[j]);
    viewport.clip_horizontal = reg(m3d::set_viewport_clip_horizontal[j]);
    viewport.clip_vertical = reg(m3d::set_viewport_clip_vertical[j]);
    viewport.min_z = std::bit_cast<float>(reg(m3d::set_viewport_clip_min_z[j]));
    viewport.max_z = std::bit_cast<float>(reg(m3d::set_viewport_clip_max_z[j]));
    Scissor& scissor = draw->scissors[j];
    scissor.enabled = f3d::set_scissor_enable_v(reg(m3d::set_scissor_enable[j])) != 0;
    const uint32_t horizontal = reg(m3d::set_scissor_horizontal[j]), vertical = reg(m3d::set_scissor_vertical[j]);
    scissor.x_min = static_cast<uint16_t>(f3d::set_scissor_horizontal_xmin(horizontal));
    scissor.x_max = static_cast<uint16_t>(f3d::set_scissor_horizontal_xmax(horizontal));
    scissor.y_min = static_cast<uint16_t>(f3d::set_scissor_vertical_ymin(vertical));
    scissor.y_max = static_cast<uint16_t>(f3d::set_scissor_vertical_ymax(vertical));
  }
  if (dirty & pool_group) {
    draw->texture_header_pool = address_pair(m3d::set_tex_header_pool_a);
    draw->texture_header_limit = f3d::set_tex_header_pool_c_maximum_index(reg(m3d::set_tex_header_pool_c));
    draw->sampler_pool = address_pair(m3d::set_tex_sampler_pool_a);
    draw->sampler_limit = f3d::set_tex_sampler_pool_c_maximum_index(reg(m3d::set_tex_sampler_pool_c));
  }
  if (dirty & render_state_group) draw->render = decode_render_state(*this);
  return draw;
}

void Engine3D::clear_surface(uint32_t value) {
  ClearSnapshot clear;
  clear.channel = channel_;
  clear.depth = f3d::clear_surface_z_enable(value) != 0;
  clear.stencil = f3d::clear_surface_stencil_enable(value) != 0;
  clear.color_mask = extract_bits(value, f3d::clear_surface_r_enable.low, 4); // R, G, B, A enables
  clear.target = f3d::clear_surface_mrt_select(value);
  clear.layer = f3d::clear_surface_rt_array_index(value);
  for (uint32_t i = 0; i < 4; ++i) clear.color[i] = reg(m3d::set_color_clear_value[i]);
  clear.depth_value = std::bit_cast<float>(reg(m3d::set_z_clear_value));
  clear.stencil_value = f3d::set_stencil_clear_value_v(reg(m3d::set_stencil_clear_value));
  const uint32_t control = reg(m3d::set_clear_surface_control);
  clear.stencil_write_mask =
      f3d::set_clear_surface_control_respect_stencil_mask(control) ? (reg(m3d::set_stencil_mask) & 0xff) : 0xff;
  if (clear.target >= color_target_count) throw Error(fmt::format("CLEAR_SURFACE targets colour target {}", clear.target));
  clear.color_target = color_target(*this, clear.target);
  clear.depth_target = depth_target(*this);
  const bool has_color = clear.color_mask != 0 && clear.color_target.format != 0;
  const RenderTarget& size_from = has_color ? clear.color_target : clear.depth_target;
  clear.x_max = size_from.width;
  clear.y_max = size_from.height;
  auto intersect = [&](uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1) {
    clear.x_min = std::max(clear.x_min, x0);
    clear.x_max = std::min(clear.x_max, x1);
    clear.y_min = std::max(clear.y_min, y0);
    clear.y_max = std::min(clear.y_max, y1);
  };
  if (f3d::set_clear_surface_control_use_clear_rect(control)) {
    const uint32_t h = reg(m3d::set_clear_rect_horizontal), v = reg(m3d::set_clear_rect_vertical);
    intersect(h & 0xffff, h >> 16, v & 0xffff, v >> 16);
  }
  const bool scissor0 = f3d::set_scissor_enable_v(reg(m3d::set_scissor_enable[0])) != 0;
  if (f3d::set_clear_surface_control_use_scissor0(control) && scissor0) {
    const uint32_t h = reg(m3d::set_scissor_horizontal[0]), v = reg(m3d::set_scissor_vertical[0]);
    intersect(h & 0xffff, h >> 16, v & 0xffff, v >> 16);
  }
  if (f3d::set_clear_surface_control_use_viewport_clip0(control)) { // x0 and width
    const uint32_t h = reg(m3d::set_viewport_clip_horizontal[0]), v = reg(m3d::set_viewport_clip_vertical[0]);
    intersect(h & 0xffff, (h & 0xffff) + (h >> 16), v & 0xffff, (v & 0xffff) + (v >> 16));
  }
  if (clear.x_max < clear.x_min) clear.x_max = clear.x_min;
  if (clear.y_max < clear.y_min) clear.y_max = clear.y_min;
  clear.render_enabled = render_enabled();
  gpu_.backend().clear(clear);
}

} // namespace kiln::maxwell
