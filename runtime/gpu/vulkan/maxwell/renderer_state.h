#pragma once
// MaxwellRenderer's private state, shared by its source files: the parts that own their state (batches, the
// pass being recorded, sample queries, pipelines, surfaces, textures) and the steps that coordinate them.
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include "runtime/base/bits.h"
#include "runtime/base/log.h"
#include "runtime/gpu/vulkan/memory.h"
#include "runtime/gpu/vulkan/maxwell/batches.h"
#include "runtime/gpu/vulkan/maxwell/clear_pipelines.h"
#include "runtime/gpu/vulkan/maxwell/guest_surface.h"
#include "runtime/gpu/vulkan/maxwell/guest_texture.h"
#include "runtime/gpu/vulkan/maxwell/maxwell_renderer.h"
#include "runtime/gpu/vulkan/maxwell/passes.h"
#include "runtime/gpu/vulkan/maxwell/pipelines.h"
#include "runtime/gpu/vulkan/maxwell/resources.h"
#include "runtime/gpu/vulkan/maxwell/sample_queries.h"
#include "translator/sass/sm86/cubin.h"

namespace kiln::vulkan {


constexpr uint32_t kBankBytes = 65536;      // what a translated module declares per constant bank
constexpr uint32_t kVertexSet = 0, kFragmentSet = 1;
constexpr uint64_t kMaxComputeProgram = 1 << 20;         // bytes searched for a compute program's end
constexpr uint64_t kMaxComputeAddressSpan = 1ull << 30;  // mapped GPU span a dispatch mirrors (compute.cpp)

/// Translated compute programs by a hash of their code and the memory layout their module declares, each with
/// its pipelines by block size (the workgroup size is specialised).
struct ComputeCache {
  struct Program {
    vk::UniqueShaderModule module;
    spirv::WarpModel warp_model = spirv::WarpModel::Emulated; ///< Subgroup: pipelines require 32-lane subgroups
    std::map<uint64_t, vk::UniquePipeline> pipelines;
  };
  vk::UniqueDescriptorSetLayout set_layout; ///< binding 0: the packed constant banks
  vk::UniquePipelineLayout layout;          ///< that set + the 8-byte global address bias push constant
  std::map<uint64_t, std::unique_ptr<Program>> programs;
};

/// Sampled textures and samplers made from the TIC/TSC pools, by the hash of their descriptor words.
struct TextureCache {
  std::map<uint64_t, std::unique_ptr<GuestTexture>> textures; ///< by hash of the texture header
  std::map<uint64_t, std::string> failures;                   ///< headers that cannot be sampled (reported once)
  std::map<uint64_t, vk::UniqueSampler> samplers;             ///< by hash of the sampler words
  bool anisotropy = false;          ///< samplerAnisotropy
  bool custom_border_color = false; ///< VK_EXT_custom_border_color (without format) enabled by the context
};

struct MaxwellRenderer::State {
  State(Context& context_, maxwell::AddressSpace& memory_, const MaxwellRendererOptions& options_)
      : context(context_), memory(memory_), options(options_),
        pipelines(context_, choose_host_profile(host_properties(context_.physical_device()), options_.gpu_settings),
                  options_.pipeline_cache_file),
        resources(context_), clears(context_), batches(context_), sample_queries(context_) {
    ubo_alignment = context.physical_device().getProperties().limits.minUniformBufferOffsetAlignment;
    texture_cache.anisotropy = context.physical_device().getFeatures().samplerAnisotropy;
    for (const vk::ExtensionProperties& extension : context.physical_device().enumerateDeviceExtensionProperties()) {
      if (std::string_view(extension.extensionName) != VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME) continue;
      const auto offered = context.physical_device()
                               .getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceCustomBorderColorFeaturesEXT>()
                               .get<vk::PhysicalDeviceCustomBorderColorFeaturesEXT>();
      texture_cache.custom_border_color = offered.customBorderColors && offered.customBorderColorWithoutFormat;
    }
  }

  std::recursive_mutex lock; ///< serialises the public calls (flush may come from another thread)
  Context& context;
  maxwell::AddressSpace& memory;
  MaxwellRendererOptions options;
  PipelineCache pipelines;
  DefaultResources resources;
  ClearPipelines clears;
  BatchRing batches;
  PassRecorder passes;
  SampleQueries sample_queries;
  std::map<SurfaceKey, std::unique_ptr<GuestSurface>> surfaces; ///< render targets and depth buffers
  TextureCache texture_cache;
  ComputeCache compute;
  MaxwellRendererStatistics statistics;
  std::vector<std::string> diagnostics;
  vk::DeviceSize ubo_alignment = 256;
  std::map<vk::Format, bool> vertex_format_support; ///< bufferFeatures has eVertexBuffer

  /// Adds the queries recorded so far to the sum (submits and waits when there are any).
  void sum_sample_queries() {
    if (!sample_queries.pending()) return;
    submit();
    wait_all();
    sample_queries.collect();
  }

  /// Descriptors of one stage: image views per sampled-image binding (in resource order), samplers.
  struct StageTextures {
    std::vector<std::vector<vk::ImageView>> views;
    std::vector<vk::Sampler> samplers;
  };
  /// Resolves the TIC/TSC pools for a stage's declared texture arrays, creating and uploading textures (a
  /// texture over render-target memory the GPU wrote first flushes it to guest memory). Call before the batch
  /// of the draw is taken: it may flush.
  StageTextures resolve_textures(const maxwell::DrawSnapshot& draw, const TranslatedShader& shader);

  void diagnose(std::string message) {
    log::warning("gpu renderer: {}", message);
    diagnostics.push_back(std::move(message));
  }

  Batch& current() { return batches.current(); }
  void end_pass() { passes.end(batches.recording()); }
  void begin_pass(const Pass& wanted) {
    if (const Pass* pass = passes.current(); pass && *pass == wanted) return;
    end_pass();
    passes.begin(current(), wanted);
  }

  /// Submits the recorded batch without waiting.
  void submit() {
    end_pass();
    if (const std::optional<double> seconds = batches.submit()) {
      statistics.submission_seconds += *seconds;
      ++statistics.submissions;
    }
  }
  void wait_all() { batches.wait_all(); }

  /// The surface of a render target or depth buffer, created on first use and uploaded when guest memory
  /// changed under it (render_targets.cpp).
  GuestSurface& surface(const SurfaceKey& key);

  /// A draw: a short sequence of the steps below, then its commands in the pass of its attachments.
  void record_draw(const maxwell::DrawSnapshot& draw);
  /// The pipeline's fixed-function state for the selected targets; whether target 0 blends with the pixel
  /// program's second output (false on hosts without dual-source blending, diagnosed).
  bool plan_blending(const maxwell::DrawSnapshot& draw, uint32_t selected_targets, PipelineDescription& description);
  /// The surfaces of the draw's attachments (uploaded when guest memory changed) and their formats.
  Pass plan_attachments(const maxwell::DrawSnapshot& draw, uint32_t attachment_count, PipelineDescription& description);
  struct VertexBindings {
    std::vector<vk::Buffer> buffers;
    std::vector<vk::DeviceSize> offsets;
  };
  /// Vertex data for the attributes the vertex program reads, copied into `b`'s arena (widened on the CPU
  /// where the host has no native format), and the pipeline's vertex input state.
  VertexBindings bind_vertex_input(Batch& b, const maxwell::DrawSnapshot& draw, const graphics::Translation& vertex,
                                   uint64_t vertex_end, VertexInputState& input);
  void record_clear(const maxwell::ClearSnapshot& clear);
  /// A clear drawn with a pipeline carrying the channel / stencil mask, in its own pass over `target`.
  void record_masked_clear(const maxwell::ClearSnapshot& clear, GuestSurface& target);
  void flush();
  /// A compute dispatch, run to completion (compute.cpp): flushes, runs the SM86 program over a mirror of the
  /// mapped GPU range and writes the pages it changed back into guest memory.
  void record_dispatch(const maxwell::DispatchSnapshot& dispatch);
  /// The translated program of a dispatch (cached); `kernel` (memory sizes and banks) gets the code.
  ComputeCache::Program& compute_program(const maxwell::DispatchSnapshot& dispatch, sass::sm86::Kernel& kernel);
  vk::Pipeline compute_pipeline(ComputeCache::Program& program, const std::array<uint32_t, 3>& block);
  /// Writes the render targets the GPU wrote that overlap [address, address + size) back into guest memory:
  /// their readbacks go into the current batch, which is submitted and waited for. Returns how many.
  size_t write_back(uint64_t address, uint64_t size);
  vk::DescriptorSet allocate_set(Batch& b, vk::DescriptorSetLayout layout) { return batches.allocate_set(b, layout); }
  void bind_stage_resources(Batch& b, const maxwell::DrawSnapshot& draw, const maxwell::ShaderProgram& program,
                            const TranslatedShader& shader, const StageTextures& textures, vk::DescriptorSet set);
};

} // namespace kiln::vulkan
