#pragma once
// Translated shaders cached by guest code hash + translation options (the host profile's among them), and graphics
// pipelines cached by a hash of the shader pair and every piece of state they bake in (VkPipelineCache underneath,
// optionally on disk).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "runtime/gpu/maxwell/backend.h"
#include "runtime/gpu/vulkan/context.h"
#include "runtime/gpu/vulkan/host_profile.h"
#include "runtime/gpu/vulkan/maxwell/pipeline_state.h"
#include "translator/graphics/graphics.h"

namespace kiln::vulkan {

struct TranslatedShader {
  uint64_t hash = 0;                 ///< guest bytes + options
  graphics::Translation translation;
  vk::UniqueShaderModule module;
};

/// Resource layout of a shader pair: set 0 = vertex resources, set 1 = fragment resources.
struct ShaderPairLayout {
  std::vector<vk::UniqueDescriptorSetLayout> set_layouts;
  vk::UniquePipelineLayout layout;
};

struct VertexInputState {
  std::vector<vk::VertexInputBindingDescription> bindings;
  std::vector<vk::VertexInputAttributeDescription> attributes;
};

struct PipelineDescription {
  const TranslatedShader* vertex = nullptr;
  const TranslatedShader* fragment = nullptr;
  VertexInputState input;
  vk::PrimitiveTopology topology = vk::PrimitiveTopology::eTriangleList;
  bool primitive_restart = false;
  std::vector<vk::Format> color_formats;
  vk::Format depth_format = vk::Format::eUndefined;
  bool stencil = false;
  FixedFunctionState fixed;
  uint32_t viewport_count = 1; ///< all of Maxwell's viewports when the vertex program writes the viewport index
  uint64_t hash() const;
};

/// The shader cache key of a graphics program: its bytes (SPH + code), the architecture it is decoded for, the
/// host profile's options, and the descriptor set and blend specialisation it is translated for.
uint64_t graphics_shader_key(std::span<const uint8_t> bytes, graphics::Arch arch, const HostProfile& profile, uint32_t descriptor_set,
                             bool second_blend_source);
/// The cache key of a compute program: its code, the memory sizes and constant bank layout the QMD gives its
/// module, the host profile's options and the warp model it is translated for.
uint64_t compute_program_key(std::span<const uint8_t> code, const maxwell::DispatchSnapshot& dispatch, const HostProfile& profile,
                             spirv::WarpModel warp_model);

class PipelineCache {
public:
  /// `profile`: the translation options for the context's driver; every program is translated with them.
  PipelineCache(const Context& context, HostProfile profile, std::filesystem::path file);
  ~PipelineCache();

  /// The translated program at `bytes` (SPH + code of architecture `arch`), translated once per content,
  /// architecture, descriptor set and specialisation (`second_blend_source`: a fragment program's colour output 1
  /// is the second blend source).
  const TranslatedShader& shader(std::span<const uint8_t> bytes, graphics::Arch arch, uint32_t descriptor_set, std::string_view name,
                                 bool second_blend_source = false);
  const ShaderPairLayout& layout(const TranslatedShader& vertex, const TranslatedShader& fragment);
  vk::Pipeline pipeline(const PipelineDescription& description);
  void save() const;
  const HostProfile& profile() const { return profile_; }

  uint64_t shaders_translated = 0, shader_hits = 0, pipelines_created = 0, pipeline_hits = 0;
  bool depth_clip_control = false; ///< VK_EXT_depth_clip_control enabled on the device
  bool provoking_vertex = false;   ///< VK_EXT_provoking_vertex enabled on the device
  bool dual_source_blend = false;  ///< dualSrcBlend enabled on the device
  bool multi_viewport = false;     ///< multiViewport and vertex-stage viewport index output enabled on the device

private:
  const Context& context_;
  HostProfile profile_;
  std::filesystem::path file_;
  vk::UniquePipelineCache cache_;
  std::unordered_map<uint64_t, std::unique_ptr<TranslatedShader>> shaders_;
  std::unordered_map<uint64_t, std::unique_ptr<ShaderPairLayout>> layouts_;
  std::unordered_map<uint64_t, vk::UniquePipeline> pipelines_;
};

} // namespace kiln::vulkan
