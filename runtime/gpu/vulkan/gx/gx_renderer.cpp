#include "runtime/gpu/vulkan/gx/gx_renderer.h"

#include <cstring>

#include <fmt/format.h>

#include "efb_quantize.comp.h"
#include "runtime/base/error.h"
#include "runtime/gpu/gx/efb_copy.h"
#include "runtime/gpu/vulkan/gx/gx_pipelines.h"
#include "runtime/gpu/vulkan/memory.h"
#include "translator/gx/translate.h"

namespace kiln::gx {
namespace {

constexpr vk::Format color_format = vk::Format::eR8G8B8A8Unorm;
constexpr vk::Extent2D efb_extent{efb_width, efb_height};
constexpr vk::DeviceSize constant_bank_bytes = 65536; ///< what the translated programs declare per bank
constexpr uint32_t max_depth_value = 0xFFFFFF;

/// The EFB's depth: 24-bit unorm where the host renders to it, else 32-bit float (which holds 24 bits exactly).
vk::Format choose_depth_format(const vulkan::Context& context) {
  const vk::FormatProperties properties = context.physical_device().getFormatProperties(vk::Format::eX8D24UnormPack32);
  constexpr vk::FormatFeatureFlags needed = vk::FormatFeatureFlagBits::eDepthStencilAttachment |
                                            vk::FormatFeatureFlagBits::eTransferSrc | vk::FormatFeatureFlagBits::eTransferDst;
  return (properties.optimalTilingFeatures & needed) == needed ? vk::Format::eX8D24UnormPack32 : vk::Format::eD32Sfloat;
}

vulkan::Image create_depth_image(const vulkan::Context& context, vk::Format format) {
  const vk::Device device = context.device();
  vulkan::Image result;
  result.format = format;
  result.extent = efb_extent;
  result.image = device.createImageUnique({{}, vk::ImageType::e2D, format, vk::Extent3D(efb_extent, 1), 1, 1, vk::SampleCountFlagBits::e1,
                                           vk::ImageTiling::eOptimal,
                                           vk::ImageUsageFlagBits::eDepthStencilAttachment | vk::ImageUsageFlagBits::eTransferSrc |
                                               vk::ImageUsageFlagBits::eTransferDst,
                                           vk::SharingMode::eExclusive, {}, vk::ImageLayout::eUndefined});
  const auto requirements = device.getImageMemoryRequirements(*result.image);
  result.memory = device.allocateMemoryUnique(
      {requirements.size, vulkan::find_memory_type(context.physical_device(), requirements.memoryTypeBits, vk::MemoryPropertyFlagBits::eDeviceLocal)});
  device.bindImageMemory(*result.image, *result.memory, 0);
  result.view = device.createImageViewUnique({{}, *result.image, vk::ImageViewType::e2D, format, {}, {vk::ImageAspectFlagBits::eDepth, 0, 1, 0, 1}});
  return result;
}

/// Every command before the barrier, in every stage, against every command after it: the renderer's steps are
/// few and large, so each is fenced whole.
void full_barrier(vk::CommandBuffer commands) {
  const vk::MemoryBarrier2 barrier(vk::PipelineStageFlagBits2::eAllCommands, vk::AccessFlagBits2::eMemoryRead | vk::AccessFlagBits2::eMemoryWrite,
                                   vk::PipelineStageFlagBits2::eAllCommands, vk::AccessFlagBits2::eMemoryRead | vk::AccessFlagBits2::eMemoryWrite);
  commands.pipelineBarrier2(vk::DependencyInfo({}, barrier, {}, {}));
}

/// The EFB images rest in the general layout (drawn, and stored to by the quantise pass); transfers take them to
/// the transfer layouts and back, fenced whole like every step.
void layout_barrier(vk::CommandBuffer commands, vk::Image image, vk::ImageAspectFlags aspect, vk::ImageLayout from, vk::ImageLayout to) {
  const vk::ImageMemoryBarrier2 barrier(vk::PipelineStageFlagBits2::eAllCommands, vk::AccessFlagBits2::eMemoryRead | vk::AccessFlagBits2::eMemoryWrite,
                                        vk::PipelineStageFlagBits2::eAllCommands, vk::AccessFlagBits2::eMemoryRead | vk::AccessFlagBits2::eMemoryWrite,
                                        from, to, VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED, image, {aspect, 0, 1, 0, 1});
  commands.pipelineBarrier2(vk::DependencyInfo({}, {}, {}, barrier));
}

/// Runs `transfer` with `image` in `layout`, from and back to the general layout.
template <typename Transfer>
void in_layout(vk::CommandBuffer commands, vk::Image image, vk::ImageAspectFlags aspect, vk::ImageLayout layout, Transfer&& transfer) {
  layout_barrier(commands, image, aspect, vk::ImageLayout::eGeneral, layout);
  transfer();
  layout_barrier(commands, image, aspect, layout, vk::ImageLayout::eGeneral);
}

std::array<float, 4> vec4(float x, float y, float z, float w) { return {x, y, z, w}; }

struct QuantizePush {
  std::array<int32_t, 4> rect;
  std::array<uint32_t, 4> bits;
};

} // namespace

struct GxRenderer::State {
  vulkan::Context& context;
  std::span<uint8_t> ram;
  vk::Format depth_format;
  vulkan::Image color;
  vulkan::Image depth;
  GxPipelines pipelines;
  vk::UniqueDescriptorPool pool;
  // The re-quantising compute pass.
  vk::UniqueDescriptorSetLayout quantize_set_layout;
  vk::UniquePipelineLayout quantize_layout;
  vk::UniquePipeline quantize_pipeline;
  vk::UniqueDescriptorPool quantize_pool;
  vk::DescriptorSet quantize_set;
  uint64_t draws = 0;

  State(vulkan::Context& context_, std::span<uint8_t> ram_)
      : context(context_), ram(ram_), depth_format(choose_depth_format(context_)),
        color(vulkan::create_image_2d(context_, color_format, efb_extent,
                                      vk::ImageUsageFlagBits::eColorAttachment | vk::ImageUsageFlagBits::eStorage |
                                          vk::ImageUsageFlagBits::eTransferSrc | vk::ImageUsageFlagBits::eTransferDst)),
        depth(create_depth_image(context_, depth_format)), pipelines(context_, color_format, depth_format) {
    const vk::Device device = context.device();
    const vk::DescriptorPoolSize banks(vk::DescriptorType::eUniformBuffer, 2);
    pool = device.createDescriptorPoolUnique({{}, 2, banks});
    const vk::DescriptorSetLayoutBinding storage(0, vk::DescriptorType::eStorageImage, 1, vk::ShaderStageFlagBits::eCompute);
    quantize_set_layout = device.createDescriptorSetLayoutUnique({{}, storage});
    const vk::PushConstantRange push(vk::ShaderStageFlagBits::eCompute, 0, sizeof(QuantizePush));
    quantize_layout = device.createPipelineLayoutUnique({{}, *quantize_set_layout, push});
    const vk::UniqueShaderModule module = device.createShaderModuleUnique({{}, sizeof(efb_quantize_comp_spv), efb_quantize_comp_spv});
    auto [result, pipeline] = device.createComputePipelineUnique(
        {}, vk::ComputePipelineCreateInfo({}, {{}, vk::ShaderStageFlagBits::eCompute, *module, "main"}, *quantize_layout));
    if (result != vk::Result::eSuccess) throw Error("GX renderer: EFB quantise pipeline: " + vk::to_string(result));
    quantize_pipeline = std::move(pipeline);
    const vk::DescriptorPoolSize images(vk::DescriptorType::eStorageImage, 1);
    quantize_pool = device.createDescriptorPoolUnique({{}, 1, images});
    quantize_set = device.allocateDescriptorSets({*quantize_pool, *quantize_set_layout}).front();
    const vk::DescriptorImageInfo image_info({}, *color.view, vk::ImageLayout::eGeneral);
    device.updateDescriptorSets(vk::WriteDescriptorSet(quantize_set, 0, 0, vk::DescriptorType::eStorageImage, image_info), {});

    // The EFB starts black with alpha 255 (what formats without alpha read back) and at the far depth.
    context.submit_and_wait([&](vk::CommandBuffer commands) {
      constexpr vk::ImageLayout destination = vk::ImageLayout::eTransferDstOptimal;
      layout_barrier(commands, *color.image, vk::ImageAspectFlagBits::eColor, vk::ImageLayout::eUndefined, destination);
      layout_barrier(commands, *depth.image, vk::ImageAspectFlagBits::eDepth, vk::ImageLayout::eUndefined, destination);
      commands.clearColorImage(*color.image, destination, vk::ClearColorValue(vec4(0, 0, 0, 1)),
                               vk::ImageSubresourceRange(vk::ImageAspectFlagBits::eColor, 0, 1, 0, 1));
      commands.clearDepthStencilImage(*depth.image, destination, vk::ClearDepthStencilValue(1.0f, 0),
                                      vk::ImageSubresourceRange(vk::ImageAspectFlagBits::eDepth, 0, 1, 0, 1));
      layout_barrier(commands, *color.image, vk::ImageAspectFlagBits::eColor, destination, vk::ImageLayout::eGeneral);
      layout_barrier(commands, *depth.image, vk::ImageAspectFlagBits::eDepth, destination, vk::ImageLayout::eGeneral);
    });
  }

  vulkan::Buffer upload(const void* data, vk::DeviceSize bytes, vk::DeviceSize capacity, vk::BufferUsageFlags usage) {
    vulkan::Buffer buffer = vulkan::create_host_buffer(context, std::max(bytes, capacity), usage);
    std::memset(buffer.mapped, 0, buffer.size);
    std::memcpy(buffer.mapped, data, bytes);
    return buffer;
  }

  void draw(const DrawSnapshot& draw);
  void quantize(vk::CommandBuffer commands, const Rect& rect, const ColorBits& bits);
  std::vector<uint8_t> read_color();
  std::vector<uint32_t> read_depth();
  void write_back(const std::vector<uint8_t>& rgba, const std::vector<uint32_t>& z);
  void copy(const BpState& bp, uint64_t offset);
};

void GxRenderer::State::quantize(vk::CommandBuffer commands, const Rect& rect, const ColorBits& bits) {
  const QuantizePush push{{rect.left, rect.top, rect.right, rect.bottom}, {bits.r, bits.g, bits.b, bits.a == 0 ? 8u : bits.a}};
  commands.bindPipeline(vk::PipelineBindPoint::eCompute, *quantize_pipeline);
  commands.bindDescriptorSets(vk::PipelineBindPoint::eCompute, *quantize_layout, 0, quantize_set, {});
  commands.pushConstants(*quantize_layout, vk::ShaderStageFlagBits::eCompute, 0, sizeof(push), &push);
  commands.dispatch(static_cast<uint32_t>(rect.right - rect.left + 7) / 8, static_cast<uint32_t>(rect.bottom - rect.top + 7) / 8, 1);
}

void GxRenderer::State::draw(const DrawSnapshot& snapshot) {
  const RasterState& raster = snapshot.raster;
  const auto refuse = [&](const std::string& what) {
    throw Error(fmt::format("GX stream offset {:#x}: draw with {} is not done yet", snapshot.offset, what));
  };
  if (snapshot.topology != Topology::triangles) refuse(snapshot.topology == Topology::lines ? "lines (GX line widths)" : "points (GX point sizes)");
  if (raster.format != EfbFormat::rgb8_z24 && raster.format != EfbFormat::rgba6_z24 && raster.format != EfbFormat::rgb565_z16)
    refuse(fmt::format("the EFB pixel format {}", efb_format_name(raster.format)));
  const ColorBits bits = efb_color_bits(raster.format);
  if (raster.dither && bits.r < 8) refuse(fmt::format("dithering into {}", efb_format_name(raster.format)));
  if (raster.constant_alpha && raster.alpha_update) refuse("the destination constant alpha (BP 0x42)");
  const PixelUid pixel = pixel_uid(snapshot.bp);
  const bool alpha_test_passes = pixel.alpha_compare0 == 7 && pixel.alpha_compare1 == 7 && pixel.alpha_logic <= 1;
  if (raster.early_depth && !alpha_test_passes && raster.depth_test) refuse("the depth test before an alpha test that can fail");
  if (raster.viewport.width <= 0) refuse("a viewport of width <= 0");
  if (raster.scissor.empty() || raster.cull == CullMode::all) return; // nothing is drawn
  const VertexUid vertex = vertex_uid(snapshot.xf, snapshot.cp, snapshot.format);
  vk::Pipeline pipeline;
  try {
    pipeline = pipelines.get(vertex, pixel, pipeline_state(raster));
  } catch (const Error& e) { // what the translator refuses (texture stages, texgens ...), located in the stream
    throw Error(fmt::format("GX stream offset {:#x}: {}", snapshot.offset, e.what()));
  }

  std::vector<std::array<float, 4>> vertices;
  vertices.reserve(snapshot.vertices.size() * vertex_locations);
  for (const Vertex& v : snapshot.vertices) {
    vertices.push_back(vec4(v.position[0], v.position[1], v.position[2], 1));
    vertices.push_back(vec4(v.position_matrix, 0, 0, 0));
    vertices.push_back(vec4(v.normal[0], v.normal[1], v.normal[2], 0));
    for (const auto& c : v.color) vertices.push_back(vec4(c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f, c[3] / 255.0f));
  }
  const vulkan::Buffer vertex_buffer = upload(vertices.data(), vertices.size() * 16, 0, vk::BufferUsageFlagBits::eVertexBuffer);
  const vulkan::Buffer index_buffer = upload(snapshot.indices.data(), snapshot.indices.size() * 4, 0, vk::BufferUsageFlagBits::eIndexBuffer);
  const std::vector<uint32_t> xf_words = vertex_constants(snapshot.xf), tev_words = pixel_constants(snapshot.bp);
  const vulkan::Buffer xf_bank = upload(xf_words.data(), xf_words.size() * 4, constant_bank_bytes, vk::BufferUsageFlagBits::eUniformBuffer);
  const vulkan::Buffer tev_bank = upload(tev_words.data(), tev_words.size() * 4, constant_bank_bytes, vk::BufferUsageFlagBits::eUniformBuffer);

  const vk::Device device = context.device();
  const std::array layouts{pipelines.set_layout(vertex_descriptor_set), pipelines.set_layout(pixel_descriptor_set)};
  const std::vector<vk::DescriptorSet> sets = device.allocateDescriptorSets({*pool, layouts});
  const vk::DescriptorBufferInfo xf_info(*xf_bank.buffer, 0, constant_bank_bytes), tev_info(*tev_bank.buffer, 0, constant_bank_bytes);
  device.updateDescriptorSets({vk::WriteDescriptorSet(sets[0], 0, 0, vk::DescriptorType::eUniformBuffer, {}, xf_info),
                               vk::WriteDescriptorSet(sets[1], 0, 0, vk::DescriptorType::eUniformBuffer, {}, tev_info)},
                              {});

  const Viewport& vp = raster.viewport;
  context.submit_and_wait([&](vk::CommandBuffer commands) {
    full_barrier(commands);
    const vk::RenderingAttachmentInfo color_attachment(*color.view, vk::ImageLayout::eGeneral, {}, {}, {}, vk::AttachmentLoadOp::eLoad,
                                                       vk::AttachmentStoreOp::eStore);
    const vk::RenderingAttachmentInfo depth_attachment(*depth.view, vk::ImageLayout::eGeneral, {}, {}, {}, vk::AttachmentLoadOp::eLoad,
                                                       vk::AttachmentStoreOp::eStore);
    commands.beginRendering(vk::RenderingInfo({}, {{0, 0}, efb_extent}, 1, 0, color_attachment, &depth_attachment));
    commands.bindPipeline(vk::PipelineBindPoint::eGraphics, pipeline);
    commands.setViewport(0, vk::Viewport(vp.x, vp.y, vp.width, vp.height, std::clamp(vp.min_depth, 0.0f, 1.0f), std::clamp(vp.max_depth, 0.0f, 1.0f)));
    const Rect& s = raster.scissor;
    commands.setScissor(0, vk::Rect2D({s.left, s.top}, {static_cast<uint32_t>(s.right - s.left), static_cast<uint32_t>(s.bottom - s.top)}));
    commands.bindDescriptorSets(vk::PipelineBindPoint::eGraphics, pipelines.layout(), 0, sets, {});
    commands.bindVertexBuffers(0, *vertex_buffer.buffer, vk::DeviceSize{0});
    commands.bindIndexBuffer(*index_buffer.buffer, 0, vk::IndexType::eUint32);
    commands.drawIndexed(static_cast<uint32_t>(snapshot.indices.size()), 1, 0, 0, 0);
    commands.endRendering();
    if (bits.r < 8 && (raster.color_update || raster.alpha_update)) {
      full_barrier(commands);
      quantize(commands, s, bits);
    }
    full_barrier(commands);
  });
  device.resetDescriptorPool(*pool);
  ++draws;
}

std::vector<uint8_t> GxRenderer::State::read_color() {
  vulkan::Buffer staging = vulkan::create_host_buffer(context, vk::DeviceSize{efb_width} * efb_height * 4, vk::BufferUsageFlagBits::eTransferDst);
  context.submit_and_wait([&](vk::CommandBuffer commands) {
    full_barrier(commands);
    in_layout(commands, *color.image, vk::ImageAspectFlagBits::eColor, vk::ImageLayout::eTransferSrcOptimal, [&] {
      commands.copyImageToBuffer(*color.image, vk::ImageLayout::eTransferSrcOptimal, *staging.buffer,
                                 vk::BufferImageCopy(0, 0, 0, {vk::ImageAspectFlagBits::eColor, 0, 0, 1}, {0, 0, 0}, vk::Extent3D(efb_extent, 1)));
    });
    full_barrier(commands);
  });
  std::vector<uint8_t> pixels(staging.size);
  std::memcpy(pixels.data(), staging.mapped, pixels.size());
  return pixels;
}

std::vector<uint32_t> GxRenderer::State::read_depth() {
  vulkan::Buffer staging = vulkan::create_host_buffer(context, vk::DeviceSize{efb_width} * efb_height * 4, vk::BufferUsageFlagBits::eTransferDst);
  context.submit_and_wait([&](vk::CommandBuffer commands) {
    full_barrier(commands);
    in_layout(commands, *depth.image, vk::ImageAspectFlagBits::eDepth, vk::ImageLayout::eTransferSrcOptimal, [&] {
      commands.copyImageToBuffer(*depth.image, vk::ImageLayout::eTransferSrcOptimal, *staging.buffer,
                                 vk::BufferImageCopy(0, 0, 0, {vk::ImageAspectFlagBits::eDepth, 0, 0, 1}, {0, 0, 0}, vk::Extent3D(efb_extent, 1)));
    });
    full_barrier(commands);
  });
  std::vector<uint32_t> values(efb_width * efb_height);
  std::memcpy(values.data(), staging.mapped, values.size() * 4);
  for (uint32_t& v : values) {
    if (depth_format == vk::Format::eD32Sfloat) {
      float f;
      std::memcpy(&f, &v, 4);
      v = static_cast<uint32_t>(std::lround(std::clamp(f, 0.0f, 1.0f) * max_depth_value));
    } else {
      v &= max_depth_value; // X8_D24: the top byte is undefined
    }
  }
  return values;
}

void GxRenderer::State::write_back(const std::vector<uint8_t>& rgba, const std::vector<uint32_t>& z) {
  vulkan::Buffer color_staging = upload(rgba.data(), rgba.size(), 0, vk::BufferUsageFlagBits::eTransferSrc);
  std::vector<uint32_t> depth_words(z.size());
  for (size_t i = 0; i < z.size(); ++i) {
    if (depth_format == vk::Format::eD32Sfloat) {
      const float f = static_cast<float>(z[i]) / static_cast<float>(max_depth_value);
      std::memcpy(&depth_words[i], &f, 4);
    } else {
      depth_words[i] = z[i];
    }
  }
  vulkan::Buffer depth_staging = upload(depth_words.data(), depth_words.size() * 4, 0, vk::BufferUsageFlagBits::eTransferSrc);
  context.submit_and_wait([&](vk::CommandBuffer commands) {
    full_barrier(commands);
    constexpr vk::ImageLayout destination = vk::ImageLayout::eTransferDstOptimal;
    in_layout(commands, *color.image, vk::ImageAspectFlagBits::eColor, destination, [&] {
      commands.copyBufferToImage(*color_staging.buffer, *color.image, destination,
                                 vk::BufferImageCopy(0, 0, 0, {vk::ImageAspectFlagBits::eColor, 0, 0, 1}, {0, 0, 0}, vk::Extent3D(efb_extent, 1)));
    });
    in_layout(commands, *depth.image, vk::ImageAspectFlagBits::eDepth, destination, [&] {
      commands.copyBufferToImage(*depth_staging.buffer, *depth.image, destination,
                                 vk::BufferImageCopy(0, 0, 0, {vk::ImageAspectFlagBits::eDepth, 0, 0, 1}, {0, 0, 0}, vk::Extent3D(efb_extent, 1)));
    });
    full_barrier(commands);
  });
}

void GxRenderer::State::copy(const BpState& bp, uint64_t offset) {
  const EfbCopy copy = decode_efb_copy(bp);
  std::vector<uint8_t> rgba = read_color();
  std::vector<uint32_t> z = read_depth();
  perform_efb_copy(copy, EfbPixels{rgba, z}, ram, offset);
  if (!copy.clear) return;
  // Clear on copy: the copied rectangle takes the clear colour (as the format stores it) and depth, through the
  // update masks.
  const ColorBits bits = efb_color_bits(copy.efb_format == EfbFormat::z24 ? EfbFormat::rgb8_z24 : copy.efb_format);
  const std::array<uint8_t, 4> clear{quantize_channel(copy.clear_color[0], bits.r), quantize_channel(copy.clear_color[1], bits.g),
                                     quantize_channel(copy.clear_color[2], bits.b), quantize_channel(copy.clear_color[3], bits.a)};
  const Rect& r = copy.source;
  for (int32_t y = r.top; y < r.bottom; ++y) {
    for (int32_t x = r.left; x < r.right; ++x) {
      const size_t at = static_cast<size_t>(y) * efb_width + static_cast<size_t>(x);
      if (copy.clear_updates_color) for (size_t c = 0; c < 3; ++c) rgba[at * 4 + c] = clear[c];
      if (copy.clear_updates_alpha) rgba[at * 4 + 3] = clear[3];
      if (copy.clear_updates_depth) z[at] = copy.clear_depth;
    }
  }
  write_back(rgba, z);
}

GxRenderer::GxRenderer(vulkan::Context& context, std::span<uint8_t> ram) : state_(std::make_unique<State>(context, ram)) {}
GxRenderer::~GxRenderer() = default;

void GxRenderer::consume(const Event& event) {
  if (event.kind == EventKind::draw) draw(*event.draw);
  else if (event.kind == EventKind::efb_copy) copy(*event.bp, event.offset);
}

void GxRenderer::draw(const DrawSnapshot& draw) { state_->draw(draw); }
void GxRenderer::copy(const BpState& bp, uint64_t offset) { state_->copy(bp, offset); }

RgbaImage GxRenderer::read_color() { return RgbaImage{efb_width, efb_height, state_->read_color()}; }
std::vector<uint32_t> GxRenderer::read_depth() { return state_->read_depth(); }
uint64_t GxRenderer::pipelines_built() const { return state_->pipelines.pipelines_built(); }
uint64_t GxRenderer::draws() const { return state_->draws; }

} // namespace kiln::gx
