#include "runtime/gpu/maxwell/describe.h"

#include <fmt/format.h>

#include "runtime/gpu/maxwell/classes.h"

namespace kiln::maxwell {

std::string describe_method(const MethodTrace& m) {
  const std::string where = m.from_macro ? std::string("      (macro)       ") : fmt::format("0x{:016x}", m.gpu_address);
  return fmt::format("ch{} {} sc{} {:<24} {} = 0x{:08x}", m.channel, where, m.subchannel, class_name(m.class_id),
                     method_name(m.class_id, m.method), m.value);
}

namespace {
const char* topology_name(uint32_t topology) {
  static constexpr const char* names[] = {"points", "lines", "line_loop", "line_strip", "triangles", "triangle_strip",
                                          "triangle_fan", "quads", "quad_strip", "polygon", "lines_adjacency",
                                          "line_strip_adjacency", "triangles_adjacency", "triangle_strip_adjacency",
                                          "patches"};
  return topology < std::size(names) ? names[topology] : "?";
}
std::string target_text(const RenderTarget& t) {
  return fmt::format("0x{:x} {}x{} format 0x{:02x} memory 0x{:x} layers {}", t.address, t.width, t.height, t.format,
                     t.memory, t.third_dimension);
}
std::string stencil_text(const StencilFace& f) {
  return fmt::format("fail {} depth-fail {} pass {} compare {} ref 0x{:02x} mask 0x{:02x} write 0x{:02x}", name(f.fail),
                     name(f.depth_fail), name(f.pass), name(f.compare), f.reference, f.compare_mask, f.write_mask);
}
} // namespace

std::string describe_render_state(const RenderState& r) {
  std::string out;
  for (uint32_t k = 0; k < r.blend.size(); ++k) {
    const BlendTarget& b = r.blend[k];
    if (b.enable) {
      out += fmt::format("  blend {}: colour {}({}, {}) alpha {}({}, {}) write 0x{:x}\n", k, name(b.color_op),
                         name(b.color_source), name(b.color_dest), name(b.alpha_op), name(b.alpha_source),
                         name(b.alpha_dest), b.write_mask);
    } else if (b.write_mask != 0xf) {
      out += fmt::format("  target {} write 0x{:x}\n", k, b.write_mask);
    }
    if (!b.problem.empty()) out += fmt::format("  blend {}: {}\n", k, b.problem);
  }
  if (r.blend_constants != std::array<float, 4>{}) {
    out += fmt::format("  blend constants ({}, {}, {}, {})\n", r.blend_constants[0], r.blend_constants[1],
                       r.blend_constants[2], r.blend_constants[3]);
  }
  if (r.depth_test || r.depth_write) {
    out += fmt::format("  depth test {} write {}{}\n", r.depth_test ? "on" : "off", r.depth_write ? "on" : "off",
                       r.depth_test ? fmt::format(" compare {}", name(r.depth_compare)) : "");
  }
  if (r.stencil_test) out += fmt::format("  stencil front: {}\n  stencil back: {}\n", stencil_text(r.front), stencil_text(r.back));
  if (r.depth_bounds_test) out += fmt::format("  depth bounds [{}, {}]\n", r.depth_bounds_min, r.depth_bounds_max);
  static constexpr const char* cull_names[] = {"none", "front", "back", "front_and_back"};
  static constexpr const char* polygon_names[] = {"fill", "line", "point"};
  out += fmt::format("  raster {}: cull {} front {} origin {} polygon {} depth clip {} provoking {}\n",
                     r.rasterize ? "on" : "off", cull_names[static_cast<size_t>(r.cull)],
                     r.front_counter_clockwise ? "ccw" : "cw", r.lower_left_origin ? "lower-left" : "upper-left",
                     polygon_names[static_cast<size_t>(r.polygon_mode)],
                     r.depth_clip_negative_one_to_one ? "[-w, w]" : "[0, w]", r.provoking_vertex_last ? "last" : "first");
  if (r.depth_bias_fill) {
    out += fmt::format("  depth bias {} slope {} clamp {}\n", r.depth_bias_constant, r.depth_bias_slope, r.depth_bias_clamp);
  }
  if (r.primitive_restart) out += fmt::format("  primitive restart 0x{:x}\n", r.primitive_restart_index);
  if (r.alpha_test) {
    out += fmt::format("  alpha test {} {}\n", r.alpha_compare ? name(*r.alpha_compare) : "(undefined)", r.alpha_reference);
  }
  if (r.logic_op) {
    out += fmt::format("  logic op {}\n", r.logic_op_function ? std::to_string(static_cast<int>(*r.logic_op_function)) : "(undefined)");
  }
  if (r.counts_samples) out += "  counts samples (ZPASS_PIXEL_COUNT)\n";
  if (!r.problem.empty()) out += fmt::format("  {}\n", r.problem);
  return out;
}

std::string describe_draw(const DrawSnapshot& d) {
  std::string out = fmt::format("draw {} (channel {}): {} {} first {} count {} instance {}{}\n", d.draw_index, d.channel,
                                d.indexed ? "indexed" : "arrays", topology_name(d.topology), d.first, d.count,
                                d.instance, d.render_enabled ? "" : " [skipped: conditional rendering]");
  if (!d.inline_indices.empty()) {
    out += fmt::format("  {} inline indices:", d.inline_indices.size());
    for (size_t i = 0; i < std::min<size_t>(d.inline_indices.size(), 12); ++i) out += fmt::format(" {}", d.inline_indices[i]);
    out += d.inline_indices.size() > 12 ? " ...\n" : "\n";
  } else if (d.indexed) {
    out += fmt::format("  index buffer 0x{:x} (limit 0x{:x}), {} bytes per index\n", d.index_address, d.index_limit,
                       d.index_size);
  }
  for (uint32_t i = 0; i < d.vertex_streams.size(); ++i) {
    const VertexStream& s = d.vertex_streams[i];
    if (s.enabled) {
      out += fmt::format("  vertex stream {}: 0x{:x} stride {} limit 0x{:x}{}\n", i, s.address, s.stride, s.limit,
                         s.per_instance ? " per instance" : "");
    }
  }
  static constexpr const char* slot_names[] = {"VS A", "VS B", "TCS", "TES", "GS", "FS"};
  for (uint32_t i = 0; i < d.programs.size(); ++i) {
    const ShaderProgram& p = d.programs[i];
    if (!p.enabled) continue;
    out += fmt::format("  program {} ({}): 0x{:x} type {} registers {} SPH", i, slot_names[i], p.address, p.type,
                       p.register_count);
    for (uint32_t w = 0; w < 5; ++w) {
      out += fmt::format(" {:08x}", uint32_t{p.header[w * 4]} | uint32_t{p.header[w * 4 + 1]} << 8 |
                                         uint32_t{p.header[w * 4 + 2]} << 16 | uint32_t{p.header[w * 4 + 3]} << 24);
    }
    out += " ...\n";
  }
  static constexpr const char* stage_names[] = {"VS", "TCS", "TES", "GS", "FS"};
  for (uint32_t stage = 0; stage < d.constant_buffers.size(); ++stage) {
    for (uint32_t slot = 0; slot < d.constant_buffers[stage].size(); ++slot) {
      const ConstantBufferBinding& b = d.constant_buffers[stage][slot];
      if (b.valid) out += fmt::format("  {} c[{}]: 0x{:x} size 0x{:x}\n", stage_names[stage], slot, b.address, b.size);
    }
  }
  for (uint32_t i = 0; i < d.color_targets.size(); ++i) {
    if (d.color_targets[i].format != 0) out += fmt::format("  colour target {}: {}\n", i, target_text(d.color_targets[i]));
  }
  out += fmt::format("  CT select 0x{:x}\n", d.color_target_select);
  if (d.depth_target_enabled) out += fmt::format("  depth target: {}\n", target_text(d.depth_target));
  const Viewport& v = d.viewports[0];
  out += fmt::format("  viewport 0: scale ({}, {}, {}) offset ({}, {}, {}) depth [{}, {}]\n", v.scale[0], v.scale[1],
                     v.scale[2], v.offset[0], v.offset[1], v.offset[2], v.min_z, v.max_z);
  const Scissor& s = d.scissors[0];
  if (s.enabled) out += fmt::format("  scissor 0: [{}, {}) x [{}, {})\n", s.x_min, s.x_max, s.y_min, s.y_max);
  out += fmt::format("  texture headers 0x{:x} (max {}), samplers 0x{:x} (max {})\n", d.texture_header_pool,
                     d.texture_header_limit, d.sampler_pool, d.sampler_limit);
  out += describe_render_state(d.render);
  return out;
}

std::string describe_clear(const ClearSnapshot& c) {
  return fmt::format("clear (channel {}): target {} layer {} colour mask 0x{:x}{}{} rect [{}, {}) x [{}, {}) stencil "
                     "mask 0x{:02x}{}",
                     c.channel, c.target, c.layer, c.color_mask, c.depth ? " depth" : "", c.stencil ? " stencil" : "",
                     c.x_min, c.x_max, c.y_min, c.y_max, c.stencil_write_mask,
                     c.render_enabled ? "" : " [skipped: conditional rendering]");
}

std::string describe_dispatch(const DispatchSnapshot& d) {
  return fmt::format("dispatch (channel {}, {}): QMD 0x{:x} program 0x{:x} grid {}x{}x{} block {}x{}x{} shared 0x{:x}",
                     d.channel, class_name(d.class_id), d.qmd_address, d.program_address, d.grid[0], d.grid[1], d.grid[2], d.block[0],
                     d.block[1], d.block[2], d.shared_memory_size);
}

} // namespace kiln::maxwell
