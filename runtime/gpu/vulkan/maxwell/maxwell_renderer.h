#pragma once
// The Maxwell 3D backend on Vulkan: renders the draw and clear snapshots the command processor emits
// (runtime/gpu/maxwell/backend.h) with shaders translated from the guest's SASS, into images backed by guest
// GPU memory. Construct it beside a kiln::maxwell::Gpu and hand it to Gpu::set_backend:
//
//   kiln::vulkan::Context context({.validation = true});
//   kiln::maxwell::Gpu gpu;
//   kiln::vulkan::MaxwellRenderer renderer(context, gpu.memory());
//   gpu.set_backend(&renderer);
//   ... gpu.submit(...); gpu.run(); ...
//   renderer.flush();   // when the guest waits on a fence or syncpoint: its memory now holds the GPU's pixels
//
// Draws are recorded into command buffers; submission never waits. flush() waits for the recorded work and
// writes every render target the GPU changed back into guest memory in its guest layout (block-linear or
// pitch), so the guest CPU and later copies see the pixels. Guest mistakes (no shader bound, unmapped memory,
// unsupported formats) are logged with the draw index and GPU address, kept in diagnostics(), and the draw is
// skipped; rendering goes on. All calls may come from any thread (one lock serialises them), e.g. draws from
// the thread that runs the Gpu and flush() from the one that waits on a syncpoint. See docs/renderer.md.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "recompiler/config/title_config.h"
#include "runtime/gpu/maxwell/address_space.h"
#include "runtime/gpu/maxwell/backend.h"
#include "runtime/gpu/vulkan/context.h"
#include "runtime/gpu/vulkan/host_profile.h"

namespace kiln::vulkan {

struct MaxwellRendererOptions {
  /// Vulkan pipeline cache file: loaded at construction when it exists, written by save_pipeline_cache() and
  /// at destruction (empty: in memory only).
  std::filesystem::path pipeline_cache_file;
  /// Draws recorded into one command buffer before it is submitted (without waiting).
  uint32_t draws_per_submission = 256;
  /// The title's kiln.toml [gpu] overrides of the host profile (an override the host cannot honour is an Error
  /// at construction).
  config::GpuSettings gpu_settings;
};

struct MaxwellRendererStatistics {
  uint64_t draws = 0, clears = 0, skipped_draws = 0, submissions = 0, flushes = 0;
  uint64_t pipelines_created = 0, pipeline_cache_hits = 0;
  uint64_t shaders_translated = 0, shader_cache_hits = 0;
  uint64_t target_uploads = 0, target_write_backs = 0, texture_uploads = 0;
  /// Compute: dispatches run, skipped (diagnosed), programs translated and found in the cache, guest pages the
  /// dispatches changed and wrote back.
  uint64_t dispatches = 0, skipped_dispatches = 0, compute_programs_translated = 0, compute_programs_reused = 0;
  uint64_t compute_pages_written_back = 0;
  /// CPU seconds (steady clock) spent in draw(): translating the snapshot (programs, attachments, fixed-function
  /// decode, indices, vertex input, pipeline lookup or creation, descriptor sets) and then recording its commands;
  /// in vkQueueSubmit (every submission, flush's included); in flush() as a whole (GPU wait and write-back).
  double translation_seconds = 0, recording_seconds = 0, submission_seconds = 0, flush_seconds = 0;
};

class MaxwellRenderer final : public maxwell::Backend {
public:
  /// `context` and `memory` must outlive the renderer. The context needs dynamic rendering and synchronization2.
  MaxwellRenderer(Context& context, maxwell::AddressSpace& memory, const MaxwellRendererOptions& options = {});
  ~MaxwellRenderer() override;
  MaxwellRenderer(const MaxwellRenderer&) = delete;
  MaxwellRenderer& operator=(const MaxwellRenderer&) = delete;

  void draw(std::shared_ptr<const maxwell::DrawSnapshot> draw) override;
  void clear(const maxwell::ClearSnapshot& clear) override;
  void dispatch(const maxwell::DispatchSnapshot& dispatch) override;
  /// A copy, 2D or inline-to-memory access in command order: render targets the GPU wrote that overlap the
  /// range are written back into guest memory first (waiting only for the submission that reads them back);
  /// before a write, textures this batch samples from the range get their bytes checked again after it.
  void synchronize_memory(uint64_t address, uint64_t size, maxwell::MemoryAccess access) override;
  /// Samples that passed depth and stencil tests in the draws since the last reset (Vulkan occlusion queries,
  /// precise where the device offers it); waits for those draws. Before the first reset nothing is counted.
  uint64_t samples_passed() override;
  void reset_samples_passed() override;

  /// Submits what is recorded, waits for all submitted work, and writes the render targets the GPU wrote back
  /// into guest memory. Call it where the guest waits for the GPU (fences, syncpoint waits) or reads its output.
  /// The translation options chosen for the context's driver at construction (host_profile.h).
  const HostProfile& host_profile() const;

  void flush();

  /// Flushes, then writes every colour target rendered to since construction as `<prefix>_<n>.png` in
  /// `directory` (n counts targets in first-use order; the PNG is decoded from guest memory). Returns the paths
  /// written; a target whose format has no PNG conversion is left out with a diagnostic.
  std::vector<std::filesystem::path> write_color_targets_png(const std::filesystem::path& directory,
                                                             std::string_view prefix = "target");

  void save_pipeline_cache();
  const MaxwellRendererStatistics& statistics() const;
  /// Every diagnostic logged so far ("draw 3: ...").
  const std::vector<std::string>& diagnostics() const;

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace kiln::vulkan
