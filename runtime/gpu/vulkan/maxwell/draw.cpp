// One draw snapshot -> Vulkan: programs, attachments, vertex/index/constant data, pipeline, viewport, draw.
// Clears go through the same passes.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "runtime/base/hash.h"
#include "runtime/gpu/vulkan/maxwell/pipeline_state.h"
#include "runtime/gpu/vulkan/maxwell/formats.h"
#include "runtime/gpu/vulkan/maxwell/guest_program.h"
#include "runtime/gpu/vulkan/maxwell/renderer_state.h"

namespace kiln::vulkan {
namespace {

const maxwell::ShaderProgram* program_in(const maxwell::DrawSnapshot& draw, std::initializer_list<uint32_t> slots) {
  for (uint32_t slot : slots) {
    if (draw.programs[slot].enabled) return &draw.programs[slot];
  }
  return nullptr;
}

vk::Rect2D intersect(vk::Rect2D a, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  const int32_t ax1 = a.offset.x + static_cast<int32_t>(a.extent.width), ay1 = a.offset.y + static_cast<int32_t>(a.extent.height);
  const int32_t nx0 = std::max(a.offset.x, x0), ny0 = std::max(a.offset.y, y0);
  const int32_t nx1 = std::min(ax1, x1), ny1 = std::min(ay1, y1);
  return vk::Rect2D({nx0, ny0}, {static_cast<uint32_t>(std::max(0, nx1 - nx0)), static_cast<uint32_t>(std::max(0, ny1 - ny0))});
}

std::vector<uint32_t> convert_topology(const std::vector<uint32_t>& in, TopologyPlan::Convert convert) {
  std::vector<uint32_t> out;
  switch (convert) {
  case TopologyPlan::Convert::quads: // a b c d -> a b c, a c d
    for (size_t i = 0; i + 3 < in.size(); i += 4) out.insert(out.end(), {in[i], in[i + 1], in[i + 2], in[i], in[i + 2], in[i + 3]});
    return out;
  case TopologyPlan::Convert::quad_strip: // quad i is v(2i) v(2i+1) v(2i+3) v(2i+2)
    for (size_t i = 0; i + 3 < in.size(); i += 2) out.insert(out.end(), {in[i], in[i + 1], in[i + 2], in[i + 1], in[i + 3], in[i + 2]});
    return out;
  case TopologyPlan::Convert::line_loop:
    out = in;
    if (!in.empty()) out.push_back(in.front());
    return out;
  case TopologyPlan::Convert::none: return in;
  }
  return in;
}

} // namespace

void MaxwellRenderer::State::bind_stage_resources(Batch& b, const maxwell::DrawSnapshot& draw, const maxwell::ShaderProgram& program,
                                                  const TranslatedShader& shader, const StageTextures& stage_textures, vk::DescriptorSet set) {
  size_t image_binding = 0;
  const uint32_t group = std::min(program.binding_group, maxwell::shader_stage_count - 1);
  std::vector<vk::DescriptorBufferInfo> buffers;
  std::vector<vk::DescriptorImageInfo> images;
  buffers.reserve(shader.translation.resources.size());
  size_t image_count = 0;
  for (const auto& resource : shader.translation.resources) {
    if (resource.kind != graphics::ResourceBinding::Kind::uniform_buffer) image_count += resource.count;
  }
  images.reserve(image_count);
  std::vector<vk::WriteDescriptorSet> writes;
  for (const graphics::ResourceBinding& resource : shader.translation.resources) {
    switch (resource.kind) {
    case graphics::ResourceBinding::Kind::uniform_buffer: {
      const maxwell::ConstantBufferBinding& cb = draw.constant_buffers[group][resource.binding];
      const uint32_t size = cb.valid ? std::min(cb.size, kBankBytes) : 0;
      std::vector<uint8_t> bytes = size ? memory.read_bytes(cb.address, size) : std::vector<uint8_t>{};
      const auto key = std::make_tuple(cb.address, size, hash64(bytes));
      auto found = b.constant_buffers.find(key);
      if (found == b.constant_buffers.end()) {
        Arena::Slice slice = b.arena.allocate(context, kBankBytes, ubo_alignment);
        std::memcpy(slice.data, bytes.data(), bytes.size());
        std::memset(slice.data + bytes.size(), 0, kBankBytes - bytes.size());
        found = b.constant_buffers.emplace(key, slice).first;
      }
      buffers.emplace_back(found->second.buffer, found->second.offset, kBankBytes);
      writes.emplace_back(set, resource.binding, 0, 1, vk::DescriptorType::eUniformBuffer, nullptr, &buffers.back());
      break;
    }
    case graphics::ResourceBinding::Kind::sampled_images: {
      const size_t first = images.size();
      const std::vector<vk::ImageView>& views = stage_textures.views.at(image_binding++);
      for (uint32_t slot = 0; slot < resource.count; ++slot) images.emplace_back(nullptr, views.at(slot), vk::ImageLayout::eShaderReadOnlyOptimal);
      writes.emplace_back(set, resource.binding, 0, resource.count, vk::DescriptorType::eSampledImage, &images[first]);
      break;
    }
    case graphics::ResourceBinding::Kind::samplers: {
      const size_t first = images.size();
      for (uint32_t slot = 0; slot < resource.count; ++slot) {
        images.emplace_back(slot < stage_textures.samplers.size() ? stage_textures.samplers[slot] : resources.sampler(), nullptr,
                            vk::ImageLayout::eUndefined);
      }
      writes.emplace_back(set, resource.binding, 0, resource.count, vk::DescriptorType::eSampler, &images[first]);
      break;
    }
    }
  }
  context.device().updateDescriptorSets(writes, {});
}

namespace {

struct BoundPrograms {
  const maxwell::ShaderProgram* vertex = nullptr;
  const maxwell::ShaderProgram* fragment = nullptr;
};

BoundPrograms bound_programs(const maxwell::DrawSnapshot& draw) {
  BoundPrograms programs{program_in(draw, {1, 0}), program_in(draw, {5})};
  if (!programs.vertex || !programs.fragment) throw Error("no vertex or fragment program is bound");
  if (program_in(draw, {2, 3, 4})) throw Error("tessellation and geometry programs are not rendered yet");
  return programs;
}

/// The host's indices for a draw: always 32-bit (8-bit indices widened), restart values rewritten to all-ones,
/// topologies Vulkan lacks converted; and how many vertices the draw reads.
struct IndexPlan {
  std::vector<uint32_t> indices;
  bool indexed = false;     ///< the guest's draw is indexed (an index buffer or inline indices)
  bool use_indices = false; ///< the host draw is indexed (guest indices or converted topology)
  uint64_t vertex_end = 0;  ///< one past the last vertex read
};

IndexPlan plan_indices(const maxwell::AddressSpace& memory, const maxwell::DrawSnapshot& draw, PipelineDescription& description) {
  const TopologyPlan plan = plan_topology(draw.topology);
  description.topology = plan.topology;
  IndexPlan result;
  std::vector<uint32_t>& indices = result.indices;
  result.indexed = draw.indexed || !draw.inline_indices.empty();
  if (!draw.inline_indices.empty()) {
    indices = draw.inline_indices;
  } else if (draw.indexed) {
    const std::vector<uint8_t> raw = memory.read_bytes(draw.index_address + uint64_t{draw.first} * draw.index_size,
                                                       uint64_t{draw.count} * draw.index_size);
    indices.resize(draw.count);
    for (uint32_t i = 0; i < draw.count; ++i) {
      indices[i] = draw.index_size == 1 ? raw[i] : draw.index_size == 2 ? load<uint16_t>(&raw[2 * i], Endian::little)
                                                                         : load<uint32_t>(&raw[4 * i], Endian::little);
    }
  } else if (plan.convert != TopologyPlan::Convert::none) {
    for (uint32_t i = 0; i < draw.count; ++i) indices.push_back(draw.first + i);
  }
  result.use_indices = result.indexed || plan.convert != TopologyPlan::Convert::none;
  description.primitive_restart = result.indexed && description.fixed.primitive_restart && plan.strip_or_fan;
  if (description.primitive_restart) {
    const uint32_t restart = draw.render.primitive_restart_index;
    for (uint32_t& index : indices) index = index == restart ? UINT32_MAX : index;
  }
  indices = convert_topology(indices, plan.convert);
  result.vertex_end = uint64_t{draw.first} + draw.count;
  if (result.use_indices) {
    result.vertex_end = 0;
    for (uint32_t index : indices) {
      if (index != UINT32_MAX || !description.primitive_restart) result.vertex_end = std::max<uint64_t>(result.vertex_end, uint64_t{index} + 1);
    }
    if (result.indexed) result.vertex_end += draw.base_vertex;
  }
  return result;
}

/// Viewports: Maxwell maps NDC by window = scale * ndc + offset; Vulkan by x + w/2 + w/2 * ndc. Each has its
/// scissor and viewport clip rectangle.
struct ViewportPlan {
  std::vector<vk::Viewport> viewports;
  std::vector<vk::Rect2D> scissors;
};

ViewportPlan plan_viewports(const maxwell::DrawSnapshot& draw, uint32_t count, vk::Extent2D extent, const FixedFunctionState& fixed) {
  const float target_height = static_cast<float>(extent.height);
  auto flip = [&](int32_t y0, int32_t y1) {
    return fixed.lower_left_origin ? std::pair{static_cast<int32_t>(extent.height) - y1, static_cast<int32_t>(extent.height) - y0}
                                   : std::pair{y0, y1};
  };
  ViewportPlan plan;
  for (uint32_t i = 0; i < count; ++i) {
    const maxwell::Viewport& v = draw.viewports[i];
    const float scale_y = fixed.lower_left_origin ? -v.scale[1] : v.scale[1];
    const float offset_y = fixed.lower_left_origin ? target_height - v.offset[1] : v.offset[1];
    const float near = fixed.negative_one_to_one ? v.offset[2] - v.scale[2] : v.offset[2];
    const float far = v.offset[2] + v.scale[2]; // without VK_EXT_depth_clip_control z < 0 of -w..w is clipped
    plan.viewports.emplace_back(v.offset[0] - v.scale[0], offset_y - scale_y, 2 * v.scale[0], 2 * scale_y,
                                std::clamp(near, 0.0f, 1.0f), std::clamp(far, 0.0f, 1.0f));
    vk::Rect2D scissor({0, 0}, extent);
    if (draw.scissors[i].enabled) {
      const maxwell::Scissor& s = draw.scissors[i];
      const auto [y0, y1] = flip(s.y_min, s.y_max);
      scissor = intersect(scissor, s.x_min, y0, s.x_max, y1);
    }
    const uint32_t clip_width = v.clip_horizontal >> 16, clip_height = v.clip_vertical >> 16;
    if (clip_width != 0 && clip_height != 0) { // SET_VIEWPORT_CLIP_HORIZONTAL/VERTICAL: x | width << 16
      const int32_t x0 = static_cast<int32_t>(v.clip_horizontal & 0xffff), y0 = static_cast<int32_t>(v.clip_vertical & 0xffff);
      const auto [fy0, fy1] = flip(y0, y0 + static_cast<int32_t>(clip_height));
      scissor = intersect(scissor, x0, fy0, x0 + static_cast<int32_t>(clip_width), fy1);
    }
    if (v.scale[0] == 0 || v.scale[1] == 0) { // a viewport the guest left unset maps everything onto a point: no pixels
      plan.viewports.back() = vk::Viewport(0, 0, 1, 1, 0, 1);
      scissor = vk::Rect2D({0, 0}, {0, 0});
    }
    plan.scissors.push_back(scissor);
  }
  return plan;
}

} // namespace

bool MaxwellRenderer::State::plan_blending(const maxwell::DrawSnapshot& draw, uint32_t selected_targets, PipelineDescription& description) {
  description.fixed = pipeline_fixed_state(draw.render, selected_targets, SecondSource::read);
  // Dual-source blending: target 0's source-1 factors read the pixel program's colour output 1, which then is
  // no attachment of its own (the fragment program is specialised on it).
  const bool dual_source = selected_targets > 0 && draw.render.blend[0].reads_second_source();
  if (dual_source && !pipelines.dual_source_blend) {
    diagnose(fmt::format("draw {}: the host has no dual-source blending; target 0 blends with source 0 in place of source 1",
                         draw.draw_index));
    description.fixed = pipeline_fixed_state(draw.render, selected_targets, SecondSource::replaced);
    return false;
  }
  return dual_source;
}

Pass MaxwellRenderer::State::plan_attachments(const maxwell::DrawSnapshot& draw, uint32_t attachment_count, PipelineDescription& description) {
  // SET_CT_SELECT names the target slot of each fragment output.
  Pass wanted;
  uint32_t width = UINT32_MAX, height = UINT32_MAX;
  for (uint32_t k = 0; k < attachment_count; ++k) {
    const maxwell::RenderTarget& rt = draw.color_targets[extract_bits(draw.color_target_select, 4 + 3 * k, 3)];
    if (rt.format == 0) {
      wanted.colors.push_back(nullptr);
      description.color_formats.push_back(vk::Format::eUndefined);
      continue;
    }
    GuestSurface& s = surface({rt.address, rt.width, rt.height, rt.format, rt.memory, false});
    wanted.colors.push_back(&s);
    description.color_formats.push_back(s.format());
    width = std::min(width, s.extent().width);
    height = std::min(height, s.extent().height);
  }
  if (draw.depth_target_enabled) {
    const maxwell::RenderTarget& zt = draw.depth_target;
    GuestSurface& s = surface({zt.address, zt.width, zt.height, zt.format, zt.memory, true});
    wanted.depth = &s;
    description.depth_format = s.format();
    description.stencil = s.has_stencil();
    width = std::min(width, s.extent().width);
    height = std::min(height, s.extent().height);
  }
  if (width == UINT32_MAX) throw Error("no colour or depth target is bound");
  wanted.extent = vk::Extent2D{width, height};
  return wanted;
}

MaxwellRenderer::State::VertexBindings MaxwellRenderer::State::bind_vertex_input(Batch& b, const maxwell::DrawSnapshot& draw,
                                                                                 const graphics::Translation& vertex,
                                                                                 uint64_t vertex_end, VertexInputState& input) {
  // One binding per stream the program reads through a native format, one per widened attribute.
  VertexBindings bindings;
  std::map<uint32_t, uint32_t> stream_binding;
  std::optional<uint32_t> defaults_binding;
  auto add_binding = [&](const Arena::Slice& slice, uint32_t stride) {
    const uint32_t binding = static_cast<uint32_t>(bindings.buffers.size());
    bindings.buffers.push_back(slice.buffer);
    bindings.offsets.push_back(slice.offset);
    input.bindings.emplace_back(binding, stride, vk::VertexInputRate::eVertex);
    return binding;
  };
  auto stream_bytes = [&](const maxwell::VertexStream& stream, uint64_t first_element, uint64_t elements, uint64_t element_bytes) {
    const uint64_t begin = stream.address + first_element * stream.stride;
    const uint64_t wanted_bytes = stream.stride == 0 ? element_bytes : elements * stream.stride;
    uint64_t available = wanted_bytes;
    if (stream.limit != 0) available = stream.limit + 1 > begin ? std::min(wanted_bytes, stream.limit + 1 - begin) : 0;
    Arena::Slice slice = b.arena.allocate(context, wanted_bytes + 16, 16);
    if (available) memory.read(begin, std::span<uint8_t>(slice.data, available));
    std::memset(slice.data + available, 0, wanted_bytes + 16 - available);
    return slice;
  };
  for (uint32_t location = 0; location < maxwell::vertex_attribute_count; ++location) {
    if (vertex.vertex_inputs[location] == 0) continue;
    const maxwell::VertexAttribute& attribute = draw.vertex_attributes[location];
    const maxwell::VertexStream& stream = draw.vertex_streams[attribute.stream % maxwell::vertex_stream_count];
    if (attribute.constant || !stream.enabled) {
      if (!defaults_binding) { // unbound inputs read (0, 0, 0, 1)
        Arena::Slice slice = b.arena.allocate(context, 16, 16);
        const float values[4] = {0, 0, 0, 1};
        std::memcpy(slice.data, values, 16);
        defaults_binding = add_binding(slice, 0);
      }
      input.attributes.emplace_back(location, *defaults_binding, vk::Format::eR32G32B32A32Sfloat, 0);
      continue;
    }
    const uint32_t element_bytes = maxwell_formats::attribute_bytes(attribute.size);
    if (element_bytes == 0) throw Error(fmt::format("vertex attribute {} has unknown size code {:#x}", location, attribute.size));
    // Per-instance streams: this draw is one instance, so its element is bound with stride 0.
    const uint64_t instance = uint64_t{draw.instance} + draw.base_instance;
    const uint64_t first_element = stream.per_instance ? instance / std::max(1u, stream.frequency) : 0;
    const uint64_t elements = stream.per_instance ? 1 : vertex_end;
    const vk::Format native = maxwell_formats::native_vertex_format(attribute);
    bool native_ok = false;
    if (native != vk::Format::eUndefined) {
      auto [found, inserted] = vertex_format_support.try_emplace(native, false);
      if (inserted) {
        found->second = static_cast<bool>(context.physical_device().getFormatProperties(native).bufferFeatures & vk::FormatFeatureFlagBits::eVertexBuffer);
      }
      native_ok = found->second;
    }
    if (native_ok) {
      const uint32_t key = attribute.stream * 2 + (stream.per_instance ? 1 : 0);
      auto found = stream_binding.find(key);
      if (found == stream_binding.end()) {
        const uint64_t span = std::max<uint64_t>(stream.stride, attribute.offset + element_bytes);
        found = stream_binding.emplace(key, add_binding(stream_bytes(stream, first_element, elements, span), stream.per_instance ? 0 : stream.stride)).first;
      }
      input.attributes.emplace_back(location, found->second, native, attribute.offset);
      continue;
    }
    // Widened on the CPU into 4 x 32 bits per element (seed 002 §5.9: scaled, 3-component and 10-10-10-2 forms).
    const uint64_t span = stream.stride == 0 ? attribute.offset + element_bytes : 0;
    const Arena::Slice source = stream_bytes(stream, first_element, elements, std::max<uint64_t>(span, attribute.offset + element_bytes));
    Arena::Slice widened = b.arena.allocate(context, elements * 16, 16);
    for (uint64_t e = 0; e < elements; ++e) {
      const uint8_t* element = source.data + e * stream.stride + attribute.offset;
      const auto value = maxwell_formats::widen_vertex_attribute(attribute, std::span<const uint8_t>(element, element_bytes));
      std::memcpy(widened.data + e * 16, value.data(), 16);
    }
    input.attributes.emplace_back(location, add_binding(widened, stream.per_instance ? 0 : 16), vk::Format::eR32G32B32A32Sfloat, 0);
  }
  return bindings;
}

void MaxwellRenderer::State::record_draw(const maxwell::DrawSnapshot& draw) {
  const auto started = std::chrono::steady_clock::now();
  const BoundPrograms programs = bound_programs(draw);
  PipelineDescription description;
  const uint32_t selected_targets = std::min(extract_bits(draw.color_target_select, 0, 4), maxwell::color_target_count);
  const bool dual_source = plan_blending(draw, selected_targets, description);
  // Each draw's programs in the layout and encoding of the class that drew (B197: SM5x, C797: SM86).
  const std::optional<maxwell::ProgramIsa> isa = maxwell::program_isa_of(draw.class_id);
  if (!isa) throw Error(fmt::format("draw from {}, which runs no programs", maxwell::class_name(draw.class_id)));
  const graphics::Arch arch = *isa == maxwell::ProgramIsa::sm86 ? graphics::Arch::sm86 : graphics::Arch::sm53;
  const std::string vertex_name = fmt::format("vertex program at GPU {:#x}", programs.vertex->address);
  const std::string fragment_name = fmt::format("fragment program at GPU {:#x}", programs.fragment->address);
  const TranslatedShader& vertex =
      pipelines.shader(graphics_program_bytes(memory, programs.vertex->address, *isa, vertex_name), arch, kVertexSet, vertex_name);
  const TranslatedShader& fragment = pipelines.shader(graphics_program_bytes(memory, programs.fragment->address, *isa, fragment_name),
                                                      arch, kFragmentSet, fragment_name, dual_source);
  description.vertex = &vertex;
  description.fragment = &fragment;
  const Pass wanted = plan_attachments(draw, dual_source ? 1 : selected_targets, description);
  const IndexPlan index_plan = plan_indices(memory, draw, description);

  // Textures may flush (render-to-texture), so they come before the batch is taken.
  const StageTextures vertex_textures = resolve_textures(draw, vertex);
  const StageTextures fragment_textures = resolve_textures(draw, fragment);

  Batch& b = current();
  if (vertex.translation.writes_viewport_index) { // all viewports, else viewport 0 only
    if (!pipelines.multi_viewport) throw Error("the vertex program writes the viewport index, which the host cannot output (multiViewport)");
    description.viewport_count = maxwell::viewport_count;
  }
  const VertexBindings vertex_bindings = bind_vertex_input(b, draw, vertex.translation, index_plan.vertex_end, description.input);
  const vk::Pipeline pipeline = pipelines.pipeline(description);
  const ShaderPairLayout& pair = pipelines.layout(vertex, fragment);
  const std::array<vk::DescriptorSet, 2> sets = {allocate_set(b, *pair.set_layouts[0]), allocate_set(b, *pair.set_layouts[1])};
  bind_stage_resources(b, draw, *programs.vertex, vertex, vertex_textures, sets[0]);
  bind_stage_resources(b, draw, *programs.fragment, fragment, fragment_textures, sets[1]);
  std::optional<Arena::Slice> index_slice;
  if (index_plan.use_indices) {
    index_slice = b.arena.allocate(context, index_plan.indices.size() * 4, 4);
    std::memcpy(index_slice->data, index_plan.indices.data(), index_plan.indices.size() * 4);
  }
  const ViewportPlan viewports = plan_viewports(draw, description.viewport_count, wanted.extent, description.fixed);

  const auto translated = std::chrono::steady_clock::now();
  statistics.translation_seconds += std::chrono::duration<double>(translated - started).count();
  begin_pass(wanted);
  vk::CommandBuffer commands = b.commands;
  commands.bindPipeline(vk::PipelineBindPoint::eGraphics, pipeline);
  commands.bindDescriptorSets(vk::PipelineBindPoint::eGraphics, *pair.layout, 0, sets, {});
  if (!vertex_bindings.buffers.empty()) commands.bindVertexBuffers(0, vertex_bindings.buffers, vertex_bindings.offsets);
  commands.setViewport(0, viewports.viewports);
  commands.setScissor(0, viewports.scissors);
  const std::optional<uint32_t> query = draw.render.counts_samples ? sample_queries.begin(b) : std::nullopt;
  if (index_plan.use_indices) {
    commands.bindIndexBuffer(index_slice->buffer, index_slice->offset, vk::IndexType::eUint32);
    commands.drawIndexed(static_cast<uint32_t>(index_plan.indices.size()), 1, 0,
                         index_plan.indexed ? static_cast<int32_t>(draw.base_vertex) : 0, 0);
  } else {
    commands.draw(draw.count, 1, draw.first, 0);
  }
  if (query) sample_queries.end(commands, *query);
  statistics.recording_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - translated).count();
}

void MaxwellRenderer::State::record_clear(const maxwell::ClearSnapshot& clear) {
  if (clear.x_max <= clear.x_min || clear.y_max <= clear.y_min) return;
  auto clear_rect = [&] {
    return intersect(vk::Rect2D({0, 0}, passes.current()->extent), static_cast<int32_t>(clear.x_min), static_cast<int32_t>(clear.y_min),
                     static_cast<int32_t>(clear.x_max), static_cast<int32_t>(clear.y_max));
  };
  if (clear.color_mask != 0) {
    const maxwell::RenderTarget& rt = clear.color_target;
    if (rt.format == 0) throw Error("the colour target is disabled (format 0)");
    GuestSurface& s = surface({rt.address, rt.width, rt.height, rt.format, rt.memory, false});
    if ((clear.color_mask & 0xf) != 0xf) {
      record_masked_clear(clear, s); // vkCmdClearAttachments ignores write masks
    } else {
      const Pass* pass = passes.current();
      if (!pass || std::find(pass->colors.begin(), pass->colors.end(), &s) == pass->colors.end()) begin_pass(Pass{{&s}, nullptr, s.extent()});
      pass = passes.current();
      const auto attachment = static_cast<uint32_t>(std::find(pass->colors.begin(), pass->colors.end(), &s) - pass->colors.begin());
      vk::ClearColorValue value; // SET_COLOR_CLEAR_VALUE holds raw words: float bits, or integers for integer targets
      if (s.color_class() == maxwell_formats::ColorClass::uint) {
        value = vk::ClearColorValue(clear.color);
      } else if (s.color_class() == maxwell_formats::ColorClass::sint) {
        value = vk::ClearColorValue(std::array<int32_t, 4>{static_cast<int32_t>(clear.color[0]), static_cast<int32_t>(clear.color[1]),
                                                           static_cast<int32_t>(clear.color[2]), static_cast<int32_t>(clear.color[3])});
      } else {
        value = vk::ClearColorValue(std::array<float, 4>{std::bit_cast<float>(clear.color[0]), std::bit_cast<float>(clear.color[1]),
                                                         std::bit_cast<float>(clear.color[2]), std::bit_cast<float>(clear.color[3])});
      }
      const vk::Rect2D rect = clear_rect();
      if (rect.extent.width && rect.extent.height) {
        current().commands.clearAttachments(vk::ClearAttachment(vk::ImageAspectFlagBits::eColor, attachment, value), vk::ClearRect(rect, 0, 1));
      }
    }
  }
  if (clear.depth || clear.stencil) {
    const maxwell::RenderTarget& zt = clear.depth_target;
    GuestSurface& s = surface({zt.address, zt.width, zt.height, zt.format, zt.memory, true});
    const bool stencil = clear.stencil && s.has_stencil();
    if (stencil && (clear.stencil_write_mask & 0xff) != 0xff) {
      record_masked_clear(clear, s);
      return;
    }
    vk::ImageAspectFlags aspects;
    if (clear.depth) aspects |= vk::ImageAspectFlagBits::eDepth;
    if (stencil) aspects |= vk::ImageAspectFlagBits::eStencil;
    if (!aspects) return;
    if (const Pass* pass = passes.current(); !pass || pass->depth != &s) begin_pass(Pass{{}, &s, s.extent()});
    const vk::Rect2D rect = clear_rect();
    if (rect.extent.width && rect.extent.height) {
      current().commands.clearAttachments(
          vk::ClearAttachment(aspects, 0, vk::ClearDepthStencilValue(std::clamp(clear.depth_value, 0.0f, 1.0f), clear.stencil_value & 0xff)),
          vk::ClearRect(rect, 0, 1));
    }
  }
}

void MaxwellRenderer::State::record_masked_clear(const maxwell::ClearSnapshot& clear, GuestSurface& target) {
  vk::Pipeline pipeline;
  ClearPushConstants constants{};
  if (target.is_depth()) {
    pipeline = clears.depth_stencil(target.format(), clear.depth, clear.stencil && target.has_stencil(), clear.stencil_write_mask);
    constants.depth = std::clamp(clear.depth_value, 0.0f, 1.0f);
    end_pass();
    begin_pass(Pass{{}, &target, target.extent()});
  } else {
    pipeline = clears.color(target.format(), target.color_class(), clear.color_mask);
    for (int c = 0; c < 4; ++c) {
      constants.color[c] = std::bit_cast<float>(clear.color[c]);
      constants.color_bits[c] = clear.color[c];
    }
    end_pass();
    begin_pass(Pass{{&target}, nullptr, target.extent()});
  }
  const vk::Extent2D extent = passes.current()->extent;
  const vk::Rect2D rect = intersect(vk::Rect2D({0, 0}, extent), static_cast<int32_t>(clear.x_min), static_cast<int32_t>(clear.y_min),
                                    static_cast<int32_t>(clear.x_max), static_cast<int32_t>(clear.y_max));
  vk::CommandBuffer commands = current().commands;
  commands.bindPipeline(vk::PipelineBindPoint::eGraphics, pipeline);
  commands.pushConstants(clears.layout(), vk::ShaderStageFlagBits::eVertex | vk::ShaderStageFlagBits::eFragment, 0, sizeof(constants),
                         &constants);
  commands.setViewport(0, vk::Viewport(0, 0, static_cast<float>(extent.width), static_cast<float>(extent.height), 0, 1));
  commands.setScissor(0, rect);
  commands.setStencilReference(vk::StencilFaceFlagBits::eFrontAndBack, clear.stencil_value & 0xff);
  if (rect.extent.width && rect.extent.height) commands.draw(3, 1, 0, 0);
  end_pass(); // the next draw rebinds its own pipeline and pass
}

} // namespace kiln::vulkan
