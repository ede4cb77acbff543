#pragma once
// MaxwellRenderer's private state, shared by its source files: batches (command buffers + staging memory +
// descriptors kept alive until their fence), the render pass being recorded, the caches.
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include "runtime/base/bits.h"
#include "runtime/base/log.h"
#include "runtime/gpu/vulkan/memory.h"
#include "runtime/gpu/vulkan/renderer/clear_pipelines.h"
#include "runtime/gpu/vulkan/renderer/guest_surface.h"
#include "runtime/gpu/vulkan/renderer/guest_texture.h"
#include "runtime/gpu/vulkan/renderer/maxwell_renderer.h"
#include "runtime/gpu/vulkan/renderer/pipelines.h"
#include "runtime/gpu/vulkan/renderer/resources.h"
#include "translator/sass/sm5x/sph.h"

namespace kiln::vulkan {


constexpr uint32_t kBankBytes = 65536;      // what a translated module declares per constant bank
constexpr vk::DeviceSize kChunkBytes = 8 << 20;
constexpr uint32_t kVertexSet = 0, kFragmentSet = 1;

/// Host-visible staging memory handed out linearly for one batch (vertex, index and constant data).
class Arena {
public:
  struct Slice {
    vk::Buffer buffer;
    vk::DeviceSize offset = 0;
    uint8_t* data = nullptr;
  };
  Slice allocate(const Context& context, vk::DeviceSize size, vk::DeviceSize alignment) {
    size = std::max<vk::DeviceSize>(size, 4);
    if (current_ < chunks_.size()) {
      Chunk& chunk = chunks_[current_];
      const vk::DeviceSize offset = align_up(chunk.used, alignment);
      if (offset + size <= chunk.buffer.size) {
        chunk.used = offset + size;
        return {*chunk.buffer.buffer, offset, static_cast<uint8_t*>(chunk.buffer.mapped) + offset};
      }
      ++current_;
      return allocate(context, size, alignment);
    }
    const vk::BufferUsageFlags usage = vk::BufferUsageFlagBits::eVertexBuffer | vk::BufferUsageFlagBits::eIndexBuffer |
                                       vk::BufferUsageFlagBits::eUniformBuffer | vk::BufferUsageFlagBits::eTransferSrc |
                                       vk::BufferUsageFlagBits::eTransferDst;
    chunks_.push_back({create_host_buffer(context, std::max(kChunkBytes, size), usage), 0});
    return allocate(context, size, alignment);
  }
  void reset() {
    for (Chunk& chunk : chunks_) chunk.used = 0;
    current_ = 0;
  }

private:
  struct Chunk {
    Buffer buffer;
    vk::DeviceSize used = 0;
  };
  std::vector<Chunk> chunks_;
  size_t current_ = 0;
};

/// One submission's worth of work and everything it needs kept alive until its fence signals.
struct Batch {
  vk::UniqueCommandPool pool;
  vk::CommandBuffer uploads, commands;
  vk::UniqueFence fence;
  Arena arena;
  std::vector<Buffer> staging;           ///< surface uploads
  std::vector<vk::UniqueDescriptorPool> descriptor_pools;
  std::map<std::tuple<uint64_t, uint32_t, uint64_t>, Arena::Slice> constant_buffers; ///< (address, size, content hash)
  bool recording = false;
  uint64_t draws = 0;
  uint64_t serial = 0; ///< distinct for every recording of the batch
};

struct Pass {
  std::vector<GuestSurface*> colors;
  GuestSurface* depth = nullptr;
  vk::Extent2D extent;
  bool operator==(const Pass& other) const { return colors == other.colors && depth == other.depth; }
};

/// Occlusion queries behind ZPASS_PIXEL_COUNT reports: once the guest resets the counter, every draw made with
/// SET_ZPASS_PIXEL_COUNT enabled runs inside a query of its own; a report submits, waits and sums the results
/// since the reset.
struct SampleQueries {
  static constexpr uint32_t capacity = 4096;
  vk::UniqueQueryPool pool;
  bool counting = false;   ///< the guest reset the counter at least once
  uint32_t used = 0;       ///< queries recorded since the results were last summed
  uint64_t samples = 0;    ///< samples summed so far since the reset
};

struct MaxwellRenderer::State {
  State(Context& context_, maxwell::AddressSpace& memory_, const MaxwellRendererOptions& options_)
      : context(context_), memory(memory_), options(options_), pipelines(context_, options_.pipeline_cache_file),
        resources(context_), clears(context_) {
    ubo_alignment = context.physical_device().getProperties().limits.minUniformBufferOffsetAlignment;
    anisotropy = context.physical_device().getFeatures().samplerAnisotropy;
    precise_occlusion = context.physical_device().getFeatures().occlusionQueryPrecise;
    for (const vk::ExtensionProperties& extension : context.physical_device().enumerateDeviceExtensionProperties()) {
      if (std::string_view(extension.extensionName) != VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME) continue;
      const auto offered = context.physical_device()
                               .getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceCustomBorderColorFeaturesEXT>()
                               .get<vk::PhysicalDeviceCustomBorderColorFeaturesEXT>();
      custom_border_color = offered.customBorderColors && offered.customBorderColorWithoutFormat;
    }
  }

  std::recursive_mutex lock; ///< serialises the public calls (flush may come from another thread)
  Context& context;
  maxwell::AddressSpace& memory;
  MaxwellRendererOptions options;
  PipelineCache pipelines;
  DefaultResources resources;
  ClearPipelines clears;
  std::map<SurfaceKey, std::unique_ptr<GuestSurface>> surfaces;
  std::vector<std::unique_ptr<Batch>> free_batches;
  std::vector<std::unique_ptr<Batch>> in_flight;
  std::unique_ptr<Batch> batch;
  std::optional<Pass> pass;
  MaxwellRendererStatistics statistics;
  std::vector<std::string> diagnostics;
  vk::DeviceSize ubo_alignment = 256;
  uint64_t batch_serial = 0;
  std::map<uint64_t, std::unique_ptr<GuestTexture>> textures; ///< by hash of the texture header
  std::map<uint64_t, std::string> texture_failures;           ///< headers that cannot be sampled (reported once)
  std::map<uint64_t, vk::UniqueSampler> samplers;             ///< by hash of the sampler words
  bool anisotropy = false;
  std::map<vk::Format, bool> vertex_format_support; ///< bufferFeatures has eVertexBuffer
  bool custom_border_color = false; ///< VK_EXT_custom_border_color (without format) enabled by the context
  SampleQueries sample_queries;
  bool precise_occlusion = false;

  /// Adds the queries recorded so far to the sum (submits and waits when there are any).
  void sum_sample_queries() {
    if (sample_queries.used == 0) return;
    submit();
    wait_all();
    std::vector<uint64_t> results(sample_queries.used);
    (void)context.device().getQueryPoolResults(*sample_queries.pool, 0, sample_queries.used, results.size() * 8, results.data(), 8,
                                               vk::QueryResultFlagBits::e64 | vk::QueryResultFlagBits::eWait);
    for (uint64_t r : results) sample_queries.samples += r;
    sample_queries.used = 0;
  }
  /// Begins the query of a draw about to be recorded into `b`'s pass, when the guest counts samples.
  std::optional<uint32_t> begin_sample_query(Batch& b) {
    if (!sample_queries.counting) return std::nullopt;
    if (!sample_queries.pool) {
      sample_queries.pool = context.device().createQueryPoolUnique({{}, vk::QueryType::eOcclusion, SampleQueries::capacity});
    }
    if (sample_queries.used == SampleQueries::capacity) return std::nullopt; // summed before the draw (see draw())
    const uint32_t query = sample_queries.used++;
    b.uploads.resetQueryPool(*sample_queries.pool, query, 1); // the uploads run before this batch's draws
    b.commands.beginQuery(*sample_queries.pool, query, precise_occlusion ? vk::QueryControlFlagBits::ePrecise : vk::QueryControlFlags{});
    return query;
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

  Batch& current() {
    if (batch && batch->recording) return *batch;
    if (!batch) {
      if (!free_batches.empty()) {
        batch = std::move(free_batches.back());
        free_batches.pop_back();
      } else {
        batch = std::make_unique<Batch>();
        const vk::Device device = context.device();
        batch->pool = device.createCommandPoolUnique({vk::CommandPoolCreateFlagBits::eTransient, context.queue_family()});
        auto buffers = device.allocateCommandBuffers({*batch->pool, vk::CommandBufferLevel::ePrimary, 2});
        batch->uploads = buffers[0];
        batch->commands = buffers[1];
        batch->fence = device.createFenceUnique({});
      }
    }
    batch->uploads.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
    batch->commands.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
    batch->recording = true;
    batch->serial = ++batch_serial;
    return *batch;
  }

  void end_pass() {
    if (!pass) return;
    batch->commands.endRendering();
    pass.reset();
  }

  /// Submits the recorded batch without waiting.
  void submit() {
    if (!batch || !batch->recording) return;
    end_pass();
    batch->uploads.end();
    batch->commands.end();
    const std::array<vk::CommandBuffer, 2> buffers = {batch->uploads, batch->commands};
    const auto started = std::chrono::steady_clock::now();
    context.queue().submit(vk::SubmitInfo({}, {}, buffers), *batch->fence);
    statistics.submission_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    batch->recording = false;
    in_flight.push_back(std::move(batch));
    ++statistics.submissions;
  }

  void retire(std::unique_ptr<Batch> done) {
    const vk::Device device = context.device();
    (void)device.waitForFences(*done->fence, VK_TRUE, UINT64_MAX);
    device.resetFences(*done->fence);
    device.resetCommandPool(*done->pool);
    done->arena.reset();
    done->staging.clear();
    done->descriptor_pools.clear();
    done->constant_buffers.clear();
    done->draws = 0;
    free_batches.push_back(std::move(done));
  }

  void wait_all() {
    for (auto& done : in_flight) retire(std::move(done));
    in_flight.clear();
  }

  GuestSurface& surface(const SurfaceKey& key) {
    auto found = surfaces.find(key);
    if (found == surfaces.end()) {
      found = surfaces.emplace(key, std::make_unique<GuestSurface>(context, key, static_cast<uint32_t>(surfaces.size()))).first;
    }
    GuestSurface& s = *found->second;
    if (!s.gpu_dirty && s.needs_upload(memory)) {
      Batch& b = current();
      // The image may be an attachment of the pass being recorded; uploads run before this batch's commands.
      if (pass && (std::find(pass->colors.begin(), pass->colors.end(), &s) != pass->colors.end() || pass->depth == &s)) {
        submit();
        return surface(key);
      }
      b.staging.push_back(create_host_buffer(context, s.host_bytes(), vk::BufferUsageFlagBits::eTransferSrc));
      try {
        s.record_upload(memory, b.uploads, b.staging.back());
      } catch (...) { // unmapped guest memory: forget the surface (nothing was recorded before the read failed)
        surfaces.erase(found);
        throw;
      }
      ++statistics.target_uploads;
    }
    return s;
  }

  void begin_pass(const Pass& wanted) {
    if (pass && *pass == wanted) return;
    end_pass();
    Batch& b = current();
    // Attachments written by an earlier pass are read and written again by this one.
    const vk::MemoryBarrier2 barrier(
        vk::PipelineStageFlagBits2::eColorAttachmentOutput | vk::PipelineStageFlagBits2::eEarlyFragmentTests |
            vk::PipelineStageFlagBits2::eLateFragmentTests,
        vk::AccessFlagBits2::eColorAttachmentWrite | vk::AccessFlagBits2::eDepthStencilAttachmentWrite,
        vk::PipelineStageFlagBits2::eColorAttachmentOutput | vk::PipelineStageFlagBits2::eEarlyFragmentTests |
            vk::PipelineStageFlagBits2::eLateFragmentTests,
        vk::AccessFlagBits2::eColorAttachmentRead | vk::AccessFlagBits2::eColorAttachmentWrite |
            vk::AccessFlagBits2::eDepthStencilAttachmentRead | vk::AccessFlagBits2::eDepthStencilAttachmentWrite);
    b.commands.pipelineBarrier2(vk::DependencyInfo({}, barrier, {}, {}));
    std::vector<vk::RenderingAttachmentInfo> colors;
    for (GuestSurface* s : wanted.colors) {
      if (!s) { // a disabled target (format 0) keeps its slot: no attachment
        colors.emplace_back();
        continue;
      }
      colors.emplace_back(s->view(), s->attachment_layout(), vk::ResolveModeFlagBits::eNone, nullptr, vk::ImageLayout::eUndefined,
                          vk::AttachmentLoadOp::eLoad, vk::AttachmentStoreOp::eStore);
      s->gpu_dirty = true;
    }
    vk::RenderingAttachmentInfo depth, stencil;
    vk::RenderingInfo info({}, {{0, 0}, wanted.extent}, 1, 0, colors);
    if (wanted.depth) {
      depth = vk::RenderingAttachmentInfo(wanted.depth->view(), wanted.depth->attachment_layout(), vk::ResolveModeFlagBits::eNone, nullptr,
                                          vk::ImageLayout::eUndefined, vk::AttachmentLoadOp::eLoad, vk::AttachmentStoreOp::eStore);
      info.pDepthAttachment = &depth;
      if (wanted.depth->has_stencil()) {
        stencil = depth;
        info.pStencilAttachment = &stencil;
      }
      wanted.depth->gpu_dirty = true;
    }
    b.commands.beginRendering(info);
    pass = wanted;
  }

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
  VertexBindings bind_vertex_input(Batch& b, const maxwell::DrawSnapshot& draw, const sass::sm5x::ShaderProgramHeader& vertex_header,
                                   uint64_t vertex_end, VertexInputState& input);
  void record_clear(const maxwell::ClearSnapshot& clear);
  /// A clear drawn with a pipeline carrying the channel / stencil mask, in its own pass over `target`.
  void record_masked_clear(const maxwell::ClearSnapshot& clear, GuestSurface& target);
  void flush();
  /// Writes the render targets the GPU wrote that overlap [address, address + size) back into guest memory:
  /// their readbacks go into the current batch, which is submitted and waited for. Returns how many.
  size_t write_back(uint64_t address, uint64_t size);
  vk::DescriptorSet allocate_set(Batch& b, vk::DescriptorSetLayout layout);
  void bind_stage_resources(Batch& b, const maxwell::DrawSnapshot& draw, const maxwell::ShaderProgram& program,
                            const TranslatedShader& shader, const StageTextures& textures, vk::DescriptorSet set);
};

} // namespace kiln::vulkan
