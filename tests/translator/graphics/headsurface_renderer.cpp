#include "tests/translator/graphics/headsurface_renderer.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/gpu/vulkan/graphics_pipeline.h"
#include "runtime/gpu/vulkan/memory.h"

namespace kiln::test {
namespace {

constexpr uint32_t kBankBytes = 65536;
constexpr vk::Format kTargetFormat = vk::Format::eR32G32B32A32Sfloat;

void transition(vk::CommandBuffer commands, vk::Image image, vk::ImageLayout from, vk::ImageLayout to, vk::PipelineStageFlags2 src_stage,
                vk::AccessFlags2 src_access, vk::PipelineStageFlags2 dst_stage, vk::AccessFlags2 dst_access,
                vk::ImageAspectFlags aspect = vk::ImageAspectFlagBits::eColor) {
  const vk::ImageMemoryBarrier2 barrier(src_stage, src_access, dst_stage, dst_access, from, to, VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED,
                                        image, {aspect, 0, 1, 0, 1});
  commands.pipelineBarrier2(vk::DependencyInfo({}, {}, {}, barrier));
}

/// A D32 image with a depth view (vulkan::create_image_2d makes colour views).
vulkan::Image depth_image(const vulkan::Context& context, vk::Extent2D extent, vk::ImageUsageFlags usage) {
  const vk::Device device = context.device();
  vulkan::Image result;
  result.format = vk::Format::eD32Sfloat;
  result.extent = extent;
  result.image = device.createImageUnique({{}, vk::ImageType::e2D, result.format, vk::Extent3D(extent, 1), 1, 1, vk::SampleCountFlagBits::e1,
                                           vk::ImageTiling::eOptimal, usage, vk::SharingMode::eExclusive, {}, vk::ImageLayout::eUndefined});
  const auto requirements = device.getImageMemoryRequirements(*result.image);
  result.memory = device.allocateMemoryUnique(
      {requirements.size, vulkan::find_memory_type(context.physical_device(), requirements.memoryTypeBits, vk::MemoryPropertyFlagBits::eDeviceLocal)});
  device.bindImageMemory(*result.image, *result.memory, 0);
  result.view = device.createImageViewUnique({{}, *result.image, vk::ImageViewType::e2D, result.format, {}, {vk::ImageAspectFlagBits::eDepth, 0, 1, 0, 1}});
  return result;
}

vk::SamplerAddressMode address_mode(uint32_t mode) {
  switch (mode) {
  case 0: return vk::SamplerAddressMode::eRepeat;
  case 1: return vk::SamplerAddressMode::eMirroredRepeat;
  default: return vk::SamplerAddressMode::eClampToEdge;
  }
}

vk::ShaderStageFlags stage_of(const graphics::Translation& translation) {
  return translation.stage == spirv::GraphicsStage::vertex ? vk::ShaderStageFlagBits::eVertex : vk::ShaderStageFlagBits::eFragment;
}

} // namespace

struct HeadsurfaceRenderer::Resources {
  std::vector<vulkan::Image> textures;
  std::vector<vk::UniqueSampler> samplers;
  vulkan::Buffer vertices;
};

HeadsurfaceRenderer::HeadsurfaceRenderer(vulkan::Context& context, const HeadsurfaceScene& scene)
    : context_(context), scene_(scene), resources_(std::make_unique<Resources>()) {
  const vk::Device device = context.device();
  std::vector<vulkan::Buffer> staging;
  for (const SceneTexture& texture : scene.textures) {
    const vk::Format format = texture.depth ? vk::Format::eD32Sfloat : texture.half_float ? vk::Format::eR16G16B16A16Sfloat : vk::Format::eR8G8B8A8Unorm;
    const vk::ImageUsageFlags usage = vk::ImageUsageFlagBits::eSampled | vk::ImageUsageFlagBits::eTransferDst;
    resources_->textures.push_back(texture.depth ? depth_image(context, {texture.width, texture.height}, usage)
                                                 : vulkan::create_image_2d(context, format, {texture.width, texture.height}, usage));
    staging.push_back(vulkan::create_host_buffer(context, texture.texels.size(), vk::BufferUsageFlagBits::eTransferSrc));
    std::memcpy(staging.back().mapped, texture.texels.data(), texture.texels.size());
  }
  context.submit_and_wait([&](vk::CommandBuffer commands) {
    for (size_t i = 0; i < staging.size(); ++i) {
      const vk::Image image = *resources_->textures[i].image;
      const vk::ImageAspectFlags aspect = scene.textures[i].depth ? vk::ImageAspectFlagBits::eDepth : vk::ImageAspectFlagBits::eColor;
      transition(commands, image, vk::ImageLayout::eUndefined, vk::ImageLayout::eTransferDstOptimal, vk::PipelineStageFlagBits2::eNone, {},
                 vk::PipelineStageFlagBits2::eCopy, vk::AccessFlagBits2::eTransferWrite, aspect);
      const vk::BufferImageCopy region(0, 0, 0, {aspect, 0, 0, 1}, {0, 0, 0}, vk::Extent3D(resources_->textures[i].extent, 1));
      commands.copyBufferToImage(*staging[i].buffer, image, vk::ImageLayout::eTransferDstOptimal, region);
      transition(commands, image, vk::ImageLayout::eTransferDstOptimal, vk::ImageLayout::eShaderReadOnlyOptimal, vk::PipelineStageFlagBits2::eCopy,
                 vk::AccessFlagBits2::eTransferWrite, vk::PipelineStageFlagBits2::eFragmentShader, vk::AccessFlagBits2::eShaderSampledRead, aspect);
    }
  });
  for (const SceneSampler& sampler : scene.samplers) {
    const vk::Filter filter = sampler.linear ? vk::Filter::eLinear : vk::Filter::eNearest;
    const vk::SamplerAddressMode mode = address_mode(sampler.address_mode);
    resources_->samplers.push_back(device.createSamplerUnique({{}, filter, filter, vk::SamplerMipmapMode::eNearest, mode, mode, mode, 0.0f,
                                                               VK_FALSE, 1.0f, sampler.compare_less ? VK_TRUE : VK_FALSE,
                                                               sampler.compare_less ? vk::CompareOp::eLess : vk::CompareOp::eNever, 0.0f, 0.0f}));
  }
  const size_t vertex_bytes = scene.vertices.size() * sizeof(float);
  resources_->vertices = vulkan::create_host_buffer(context, vertex_bytes, vk::BufferUsageFlagBits::eVertexBuffer);
  std::memcpy(resources_->vertices.mapped, scene.vertices.data(), vertex_bytes);
}

HeadsurfaceRenderer::~HeadsurfaceRenderer() = default;

std::vector<RenderedImage> HeadsurfaceRenderer::draw(const graphics::Translation& vertex, const graphics::Translation& fragment,
                                                     std::span<const BankSet> variants, const graphics::Translation* geometry,
                                                     std::pair<const graphics::Translation*, const graphics::Translation*> tessellation) {
  const vk::Device device = context_.device();
  if (geometry != nullptr && !geometry->resources.empty()) throw Error("harness: the geometry program may not read resources");
  // Descriptors: each stage's resources in its own set (the translations were made with distinct sets).
  vulkan::GraphicsPipelineInfo info;
  info.vertex_spirv = vertex.spirv;
  info.fragment_spirv = fragment.spirv;
  if (geometry != nullptr) info.geometry_spirv = geometry->spirv;
  const bool tessellated = tessellation.first != nullptr && tessellation.second != nullptr;
  if (tessellated) {
    if (!tessellation.first->resources.empty() || !tessellation.second->resources.empty()) {
      throw Error("harness: the tessellation programs may not read resources");
    }
    info.tess_control_spirv = tessellation.first->spirv;
    info.tess_evaluation_spirv = tessellation.second->spirv;
    info.topology = vk::PrimitiveTopology::ePatchList;
    info.patch_control_points = 3;
  }
  for (const graphics::Translation* stage : {&vertex, &fragment}) {
    for (const graphics::ResourceBinding& resource : stage->resources) {
      vk::DescriptorType type = vk::DescriptorType::eUniformBuffer;
      if (resource.kind == graphics::ResourceBinding::Kind::sampled_images) type = vk::DescriptorType::eSampledImage;
      if (resource.kind == graphics::ResourceBinding::Kind::samplers) type = vk::DescriptorType::eSampler;
      info.bindings.push_back({resource.set, resource.binding, type, resource.count, stage_of(*stage)});
    }
  }
  info.vertex_stride = 6 * sizeof(float);
  info.attributes = {{0, vk::Format::eR32G32Sfloat, 0}, {8, vk::Format::eR32G32B32A32Sfloat, 2 * sizeof(float)}};
  size_t target_count = 0;
  for (size_t i = 0; i < fragment.color_masks.size(); ++i) {
    if (fragment.color_masks[i] != 0) target_count = i + 1;
  }
  for (size_t i = 0; i < target_count; ++i) {
    info.color_formats.push_back(kTargetFormat);
    info.color_write_masks.push_back(static_cast<vk::ColorComponentFlags>(fragment.color_masks[i]));
  }
  const vulkan::GraphicsPipeline pipeline(context_, info);

  // Uniform buffers, one per (stage, bank), refilled for each variant.
  struct Bank {
    const graphics::Translation* stage;
    uint32_t bank;
    vulkan::Buffer buffer;
  };
  std::vector<Bank> banks;
  std::vector<vk::DescriptorBufferInfo> buffer_infos;
  std::vector<vk::DescriptorImageInfo> image_infos;
  std::vector<vk::WriteDescriptorSet> writes;
  buffer_infos.reserve(64);
  image_infos.reserve(256);
  for (const graphics::Translation* stage : {&vertex, &fragment}) {
    for (const graphics::ResourceBinding& resource : stage->resources) {
      const vk::DescriptorSet set = pipeline.descriptor_sets().at(resource.set);
      switch (resource.kind) {
      case graphics::ResourceBinding::Kind::uniform_buffer:
        banks.push_back({stage, resource.binding, vulkan::create_host_buffer(context_, kBankBytes, vk::BufferUsageFlagBits::eUniformBuffer)});
        buffer_infos.emplace_back(*banks.back().buffer.buffer, 0, kBankBytes);
        writes.emplace_back(set, resource.binding, 0, 1, vk::DescriptorType::eUniformBuffer, nullptr, &buffer_infos.back());
        break;
      case graphics::ResourceBinding::Kind::sampled_images: {
        if (resource.image_dim != 1 || resource.image_array) throw Error("harness: only 2D textures are provided");
        const size_t first = image_infos.size();
        for (uint32_t slot = 0; slot < resource.count; ++slot) {
          size_t unit = 0; // slots no handle names hold the first texture
          for (size_t u = 0; u < kTextureUnits; ++u) {
            if (scene_.tic[u] == slot) unit = u;
          }
          image_infos.emplace_back(nullptr, *resources_->textures[unit].view, vk::ImageLayout::eShaderReadOnlyOptimal);
        }
        writes.emplace_back(set, resource.binding, 0, resource.count, vk::DescriptorType::eSampledImage, &image_infos[first]);
        break;
      }
      case graphics::ResourceBinding::Kind::samplers: {
        const size_t first = image_infos.size();
        for (uint32_t slot = 0; slot < resource.count; ++slot) {
          size_t unit = 0;
          for (size_t u = 0; u < kTextureUnits; ++u) {
            if (scene_.tsc[u] == slot) unit = u;
          }
          image_infos.emplace_back(*resources_->samplers[unit], nullptr, vk::ImageLayout::eUndefined);
        }
        writes.emplace_back(set, resource.binding, 0, resource.count, vk::DescriptorType::eSampler, &image_infos[first]);
        break;
      }
      }
    }
  }
  device.updateDescriptorSets(writes, {});

  std::vector<RenderedImage> results;
  const vk::Extent2D extent{kViewportSize, kViewportSize};
  const vk::DeviceSize target_bytes = vk::DeviceSize{kViewportSize} * kViewportSize * 16;
  for (const BankSet& variant : variants) {
    for (Bank& bank : banks) {
      const BankContents& contents = bank.stage == &vertex ? variant.vertex : variant.fragment;
      const auto found = contents.find(bank.bank);
      if (found == contents.end()) {
        throw Error(fmt::format("harness: the scene has no constant bank c[{}] for the {} program", bank.bank,
                                bank.stage == &vertex ? "vertex" : "fragment"));
      }
      std::memset(bank.buffer.mapped, 0, kBankBytes);
      std::memcpy(bank.buffer.mapped, found->second.data(), std::min<size_t>(found->second.size() * 4, kBankBytes));
    }
    std::vector<vulkan::Image> targets;
    std::vector<vulkan::Buffer> readback;
    for (size_t i = 0; i < target_count; ++i) {
      targets.push_back(vulkan::create_image_2d(context_, kTargetFormat, extent, vk::ImageUsageFlagBits::eColorAttachment | vk::ImageUsageFlagBits::eTransferSrc));
      readback.push_back(vulkan::create_host_buffer(context_, target_bytes, vk::BufferUsageFlagBits::eTransferDst));
    }
    context_.submit_and_wait([&](vk::CommandBuffer commands) {
      std::vector<vk::RenderingAttachmentInfo> attachments;
      for (const vulkan::Image& target : targets) {
        transition(commands, *target.image, vk::ImageLayout::eUndefined, vk::ImageLayout::eColorAttachmentOptimal, vk::PipelineStageFlagBits2::eNone, {},
                   vk::PipelineStageFlagBits2::eColorAttachmentOutput, vk::AccessFlagBits2::eColorAttachmentWrite);
        attachments.emplace_back(*target.view, vk::ImageLayout::eColorAttachmentOptimal, vk::ResolveModeFlagBits::eNone, nullptr,
                                 vk::ImageLayout::eUndefined, vk::AttachmentLoadOp::eClear, vk::AttachmentStoreOp::eStore,
                                 vk::ClearValue(vk::ClearColorValue(std::array<float, 4>{kClearValue, kClearValue, kClearValue, kClearValue})));
      }
      commands.beginRendering(vk::RenderingInfo({}, {{0, 0}, extent}, 1, 0, attachments));
      commands.bindPipeline(vk::PipelineBindPoint::eGraphics, pipeline.pipeline());
      if (!pipeline.descriptor_sets().empty()) {
        commands.bindDescriptorSets(vk::PipelineBindPoint::eGraphics, pipeline.layout(), 0, pipeline.descriptor_sets(), {});
      }
      commands.bindVertexBuffers(0, *resources_->vertices.buffer, vk::DeviceSize{0});
      commands.setViewport(0, vk::Viewport(0, 0, kViewportSize, kViewportSize, 0, 1));
      commands.setScissor(0, vk::Rect2D({0, 0}, extent));
      commands.draw(tessellated ? 3 : 4, 1, 0, 0);
      commands.endRendering();
      for (size_t i = 0; i < targets.size(); ++i) {
        transition(commands, *targets[i].image, vk::ImageLayout::eColorAttachmentOptimal, vk::ImageLayout::eTransferSrcOptimal,
                   vk::PipelineStageFlagBits2::eColorAttachmentOutput, vk::AccessFlagBits2::eColorAttachmentWrite, vk::PipelineStageFlagBits2::eCopy,
                   vk::AccessFlagBits2::eTransferRead);
        const vk::BufferImageCopy region(0, 0, 0, {vk::ImageAspectFlagBits::eColor, 0, 0, 1}, {0, 0, 0}, vk::Extent3D(extent, 1));
        commands.copyImageToBuffer(*targets[i].image, vk::ImageLayout::eTransferSrcOptimal, *readback[i].buffer, region);
      }
      const vk::MemoryBarrier2 to_host(vk::PipelineStageFlagBits2::eCopy, vk::AccessFlagBits2::eTransferWrite, vk::PipelineStageFlagBits2::eHost,
                                       vk::AccessFlagBits2::eHostRead);
      commands.pipelineBarrier2(vk::DependencyInfo({}, to_host, {}, {}));
    });
    RenderedImage image;
    for (size_t i = 0; i < target_count; ++i) {
      if (fragment.color_masks[i] == 0) {
        image.targets.emplace_back();
        continue;
      }
      std::vector<float> texels(target_bytes / 4);
      std::memcpy(texels.data(), readback[i].mapped, target_bytes);
      image.targets.push_back(std::move(texels));
    }
    results.push_back(std::move(image));
  }
  return results;
}

std::filesystem::path maxwell_corpus() {
  return std::filesystem::path(KILN_SHARED_DIR) / "corpus" / "nvidia-headsurface" / "maxwell";
}

std::vector<float> draw_behind_corpus_vertex_program(
    const std::vector<uint8_t>& fragment_program, uint64_t scene_seed, graphics::TranslateOptions fragment_options,
    const graphics::Translation* geometry,
    std::pair<const graphics::Translation*, const graphics::Translation*> tessellation) {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  std::mt19937_64 random(scene_seed);
  const HeadsurfaceScene scene = make_headsurface_scene(random);
  HeadsurfaceRenderer renderer(context, scene);
  const auto vertex =
      graphics::translate_graphics(read_file(maxwell_corpus() / "00_nvidia_headsurface_vertex.bin"), graphics::Arch::sm53, "vertex");
  fragment_options.backend.descriptor_set = 1;
  const auto fragment = graphics::translate_graphics(fragment_program, graphics::Arch::sm53, "fragment", fragment_options);
  BankSet banks;
  banks.vertex[3] = scene.vertex_uniforms;
  const auto images = renderer.draw(vertex, fragment, std::span(&banks, 1), geometry, tessellation);
  for (const std::string& message : context.validation_log().messages()) UNSCOPED_INFO(message);
  CHECK(context.validation_log().count() == 0);
  return images.at(0).targets.at(0);
}

size_t count_wrong_rgb(const std::vector<float>& texels,
                       const std::function<std::array<float, 3>(uint32_t, uint32_t)>& expected) {
  size_t wrong = 0;
  for (uint32_t y = 0; y < kViewportSize; ++y) {
    for (uint32_t x = 0; x < kViewportSize; ++x) {
      const float* pixel = &texels[(y * kViewportSize + x) * 4];
      const std::array<float, 3> want = expected(x, y);
      for (int c = 0; c < 3; ++c) {
        if (std::memcmp(&pixel[c], &want[c], sizeof(float)) != 0 && wrong++ < 4) {
          UNSCOPED_INFO("pixel (" << x << ", " << y << ") component " << c << ": " << pixel[c] << ", expected " << want[c]);
        }
      }
    }
  }
  return wrong;
}

} // namespace kiln::test
