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
} // namespace

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
  const auto& methods = fixed_function_methods();
  for (size_t i = 0; i < methods.size() && i < d.fixed_function.size(); ++i) {
    if (d.fixed_function[i] != 0) {
      out += fmt::format("  {} = 0x{:x}\n", method_name(static_cast<uint32_t>(ClassId::threed), methods[i]),
                         d.fixed_function[i]);
    }
  }
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
  return fmt::format("dispatch (channel {}): QMD 0x{:x} program 0x{:x} grid {}x{}x{} block {}x{}x{} shared 0x{:x}",
                     d.channel, d.qmd_address, d.program_address, d.grid[0], d.grid[1], d.grid[2], d.block[0],
                     d.block[1], d.block[2], d.shared_memory_size);
}

} // namespace kiln::maxwell
