// Freezing 3D state: draw snapshots, clear snapshots and the conditional rendering test.
#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/engine_3d.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/methods_3d.h"

namespace kiln::maxwell {

const std::vector<uint32_t>& fixed_function_methods() {
  static const std::vector<uint32_t> methods = [] {
    std::vector<uint32_t> list = {
        0x037c, 0x07f8, 0x0d7c, 0x0dac, 0x0db0, 0x0dc0, 0x0dc4, 0x0dc8, 0x0de8, 0x0748, // raster, clip, restart
        0x0f54, 0x0f58, 0x0f5c, 0x0f90, 0x0f9c, 0x0fa0, 0x0fa4,                         // back stencil, CT write
        0x1110, 0x12cc, 0x12d0, 0x12e0, 0x12e4, 0x12e8, 0x12ec, 0x130c, 0x1310, 0x1314, // depth, alpha test
        0x131c, 0x1320, 0x1324, 0x1328, 0x133c, 0x1340, 0x1344, 0x1348, 0x134c, 0x1350, 0x1358, // blend
        0x1380, 0x1384, 0x1388, 0x138c, 0x1390, 0x1394, 0x1398, 0x139c,                 // stencil
        0x13a8, 0x13ac, 0x13b0, 0x13b4, 0x1510, 0x1518, 0x1520, 0x1534, 0x156c, 0x1570, // raster misc
        0x1594, 0x1598, 0x159c, 0x15a0, 0x15a4, 0x15b8, 0x15bc, 0x15d0, 0x1644, 0x1648, // two-sided stencil, bias
        0x1684, 0x1690, 0x16b4, 0x187c, 0x1910, 0x1918, 0x191c, 0x1920, 0x192c, 0x193c, 0x1940, // cull, clip
        0x19bc, 0x19c4, 0x19c8, 0x2600,                                                 // depth bounds, logic op
    };
    list.push_back(0x1514);                                                         // SET_ZPASS_PIXEL_COUNT
    for (uint32_t i = 0; i < 8; ++i) list.push_back(0x1360 + 4 * i);                // SET_BLEND(i)
    for (uint32_t i = 0; i < 8; ++i) list.push_back(0x1a00 + 4 * i);                // SET_CT_WRITE(i)
    for (uint32_t j = 0; j < 8; ++j) {
      for (uint32_t k = 0; k < 7; ++k) list.push_back(0x1e00 + 32 * j + 4 * k);     // SET_BLEND_PER_TARGET_*(j)
    }
    return list;
  }();
  return methods;
}

bool Engine3D::render_enabled() const {
  switch (extract_bits(reg(m3d::set_render_enable_override), 0, 2)) {
  case 1: return true;  // ALWAYS_RENDER
  case 2: return false; // NEVER_RENDER
  default: break;
  }
  const uint32_t mode = extract_bits(reg(m3d::set_render_enable_c), 0, 3);
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
RenderTarget color_target(const Engine& engine, uint32_t index) {
  const uint32_t base = m3d::color_target + index * m3d::color_target_stride;
  RenderTarget target;
  target.address = (uint64_t{engine.reg(base) & 0xff} << 32) | engine.reg(base + 4);
  target.width = engine.reg(base + 0x08);
  target.height = engine.reg(base + 0x0c);
  target.format = extract_bits(engine.reg(base + 0x10), 0, 8);
  target.memory = engine.reg(base + 0x14);
  target.third_dimension = engine.reg(base + 0x18);
  target.array_pitch = engine.reg(base + 0x1c);
  target.layer = engine.reg(base + 0x20);
  return target;
}

RenderTarget depth_target(const Engine& engine) {
  RenderTarget target;
  target.address = (uint64_t{engine.reg(m3d::set_zt_a) & 0xff} << 32) | engine.reg(m3d::set_zt_b);
  target.width = engine.reg(m3d::set_zt_size_a);
  target.height = engine.reg(m3d::set_zt_size_b);
  target.format = extract_bits(engine.reg(m3d::set_zt_format), 0, 5);
  target.memory = engine.reg(m3d::set_zt_block_size);
  target.third_dimension = extract_bits(engine.reg(m3d::set_zt_size_c), 0, 16);
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
    mark(0x1c00, 0x1cfc, vertex_group);   // SET_VERTEX_STREAM_A_*
    mark(0x1f00, 0x1f7c, vertex_group);   // SET_VERTEX_STREAM_LIMIT_A_*
    mark(0x1880, 0x18bc, vertex_group);   // SET_VERTEX_STREAM_INSTANCE_A
    mark(0x1160, 0x11dc, vertex_group);   // SET_VERTEX_ATTRIBUTE_A
    mark(0x2000, 0x217c, program_group);  // SET_PIPELINE_*
    mark(0x1608, 0x160c, program_group);  // SET_PROGRAM_REGION_A/B
    mark(0x0800, 0x09fc, target_group);   // SET_COLOR_TARGET_*
    mark(0x0fe0, 0x0ff0, target_group);   // SET_ZT_A .. SET_ZT_ARRAY_PITCH
    mark(0x1228, 0x1230, target_group);   // SET_ZT_SIZE_*
    mark(0x121c, 0x121c, target_group);   // SET_CT_SELECT
    mark(0x1538, 0x1538, target_group);   // SET_ZT_SELECT
    mark(0x179c, 0x179c, target_group);   // SET_ZT_LAYER
    mark(0x0a00, 0x0bfc, viewport_group); // SET_VIEWPORT_SCALE/OFFSET/...
    mark(0x0c00, 0x0cfc, viewport_group); // SET_VIEWPORT_CLIP_*
    mark(0x0e00, 0x0efc, viewport_group); // SET_SCISSOR_*
    mark(0x155c, 0x1564, pool_group);     // SET_TEX_SAMPLER_POOL_*
    mark(0x1574, 0x157c, pool_group);     // SET_TEX_HEADER_POOL_*
    for (uint32_t m : fixed_function_methods()) table[m >> 2] |= fixed_function_group;
    return table;
  }();
  return groups[(method >> 2) & (register_count - 1)];
}

std::shared_ptr<DrawSnapshot> Engine3D::build_snapshot(const DrawSnapshot* previous, uint32_t dirty) const {
  auto draw = previous ? std::make_shared<DrawSnapshot>(*previous) : std::make_shared<DrawSnapshot>();
  if (!previous) dirty = all_state_groups;
  draw->channel = channel_;
  draw->render_enabled = render_enabled();
  draw->base_vertex = reg(m3d::set_global_base_vertex_index);
  draw->base_instance = reg(m3d::set_global_base_instance_index);
  const uint32_t index_size = extract_bits(reg(m3d::set_index_buffer_e), 0, 2);
  draw->index_size = index_size == 0 ? 1 : index_size == 1 ? 2 : 4;
  draw->index_address = address_pair(m3d::set_index_buffer_a);
  draw->index_limit = address_pair(m3d::set_index_buffer_c);
  if (dirty & vertex_group) {
  for (uint32_t j = 0; j < vertex_stream_count; ++j) {
    const uint32_t base = m3d::vertex_stream + j * m3d::vertex_stream_stride;
    VertexStream& stream = draw->vertex_streams[j];
    stream = VertexStream{};
    const uint32_t format = reg(base);
    stream.enabled = extract_bits(format, 12, 1) != 0;
    if (!stream.enabled) continue;
    stream.stride = extract_bits(format, 0, 12);
    stream.address = address_pair(base + 4);
    stream.frequency = reg(base + 0xc);
    stream.limit = address_pair(m3d::vertex_stream_limit + j * 8);
    stream.per_instance = extract_bits(reg(m3d::set_vertex_stream_instance_a + 4 * j), 0, 1) != 0;
  }
  for (uint32_t i = 0; i < vertex_attribute_count; ++i) draw->vertex_attributes[i] = reg(m3d::set_vertex_attribute_a + 4 * i);
  }
  const uint64_t program_region = address_pair(m3d::set_program_region_a);
  for (uint32_t j = 0; j < pipeline_slot_count; ++j) {
    const uint32_t base = m3d::pipeline + j * m3d::pipeline_stride;
    ShaderProgram& program = draw->programs[j];
    if (dirty & program_group) {
      const uint32_t shader = reg(base);
      program = ShaderProgram{};
      program.enabled = extract_bits(shader, 0, 1) != 0;
      program.type = extract_bits(shader, 4, 4);
      program.address = program_region + reg(base + 4);
      program.register_count = reg(base + 0xc);
      program.binding_group = reg(base + 0x10);
    }
    if (program.enabled) gpu_.memory().read(program.address, program.header); // the SPH as memory holds it now
  }
  if (dirty & constant_buffer_group) draw->constant_buffers = constant_buffers_;
  if (dirty & target_group) {
    for (uint32_t j = 0; j < color_target_count; ++j) draw->color_targets[j] = color_target(*this, j);
    draw->color_target_select = reg(m3d::set_ct_select);
    draw->depth_target_enabled = extract_bits(reg(m3d::set_zt_select), 0, 1) != 0;
    draw->depth_target = depth_target(*this);
  }
  for (uint32_t j = 0; j < viewport_count && (dirty & viewport_group); ++j) {
    Viewport& viewport = draw->viewports[j];
    const uint32_t base = m3d::viewport + j * m3d::viewport_stride;
    for (uint32_t k = 0; k < 3; ++k) {
      viewport.scale[k] = std::bit_cast<float>(reg(base + 4 * k));
      viewport.offset[k] = std::bit_cast<float>(reg(base + 12 + 4 * k));
    }
    viewport.swizzle = reg(base + 0x18);
    const uint32_t clip = m3d::viewport_clip + j * m3d::viewport_clip_stride;
    viewport.clip_horizontal = reg(clip);
    viewport.clip_vertical = reg(clip + 4);
    viewport.min_z = std::bit_cast<float>(reg(clip + 8));
    viewport.max_z = std::bit_cast<float>(reg(clip + 12));
    Scissor& scissor = draw->scissors[j];
    const uint32_t s = m3d::scissor + j * m3d::scissor_stride;
    scissor.enabled = extract_bits(reg(s), 0, 1) != 0;
    scissor.x_min = static_cast<uint16_t>(reg(s + 4));
    scissor.x_max = static_cast<uint16_t>(reg(s + 4) >> 16);
    scissor.y_min = static_cast<uint16_t>(reg(s + 8));
    scissor.y_max = static_cast<uint16_t>(reg(s + 8) >> 16);
  }
  if (dirty & pool_group) {
    draw->texture_header_pool = address_pair(m3d::set_tex_header_pool_a);
    draw->texture_header_limit = extract_bits(reg(m3d::set_tex_header_pool_c), 0, 22);
    draw->sampler_pool = address_pair(m3d::set_tex_sampler_pool_a);
    draw->sampler_limit = extract_bits(reg(m3d::set_tex_sampler_pool_c), 0, 20);
  }
  if (dirty & fixed_function_group) {
    const auto& methods = fixed_function_methods();
    draw->fixed_function.resize(methods.size());
    for (size_t i = 0; i < methods.size(); ++i) draw->fixed_function[i] = reg(methods[i]);
  }
  return draw;
}

void Engine3D::clear_surface(uint32_t value) {
  ClearSnapshot clear;
  clear.channel = channel_;
  clear.depth = extract_bits(value, 0, 1) != 0;
  clear.stencil = extract_bits(value, 1, 1) != 0;
  clear.color_mask = extract_bits(value, 2, 4);
  clear.target = extract_bits(value, 6, 4);
  clear.layer = extract_bits(value, 10, 16);
  for (uint32_t i = 0; i < 4; ++i) clear.color[i] = reg(m3d::set_color_clear_value + 4 * i);
  clear.depth_value = std::bit_cast<float>(reg(m3d::set_z_clear_value));
  clear.stencil_value = reg(m3d::set_stencil_clear_value) & 0xff;
  const uint32_t control = reg(m3d::set_clear_surface_control);
  clear.stencil_write_mask = extract_bits(control, 0, 1) ? (reg(m3d::set_stencil_mask) & 0xff) : 0xff;
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
  if (extract_bits(control, 4, 1)) { // USE_CLEAR_RECT
    const uint32_t h = reg(m3d::set_clear_rect_horizontal), v = reg(m3d::set_clear_rect_vertical);
    intersect(h & 0xffff, h >> 16, v & 0xffff, v >> 16);
  }
  if (extract_bits(control, 8, 1) && extract_bits(reg(m3d::scissor), 0, 1)) { // USE_SCISSOR0, scissor 0 enabled
    const uint32_t h = reg(m3d::scissor + 4), v = reg(m3d::scissor + 8);
    intersect(h & 0xffff, h >> 16, v & 0xffff, v >> 16);
  }
  if (extract_bits(control, 12, 1)) { // USE_VIEWPORT_CLIP0: x0 and width
    const uint32_t h = reg(m3d::viewport_clip), v = reg(m3d::viewport_clip + 4);
    intersect(h & 0xffff, (h & 0xffff) + (h >> 16), v & 0xffff, (v & 0xffff) + (v >> 16));
  }
  if (clear.x_max < clear.x_min) clear.x_max = clear.x_min;
  if (clear.y_max < clear.y_min) clear.y_max = clear.y_min;
  clear.render_enabled = render_enabled();
  gpu_.backend().clear(clear);
}

} // namespace kiln::maxwell
