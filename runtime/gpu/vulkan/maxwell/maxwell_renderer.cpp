// MaxwellRenderer: batches (command buffers + staging memory + descriptors), render passes over guest
// surfaces, and the translation of one draw snapshot into Vulkan commands.
#include "runtime/gpu/vulkan/maxwell/maxwell_renderer.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/base/hash.h"
#include "runtime/base/log.h"
#include "runtime/base/png_image.h"
#include "runtime/gpu/textures/blocklinear/swizzle.h"
#include "runtime/gpu/vulkan/memory.h"
#include "runtime/gpu/vulkan/maxwell/formats.h"
#include "runtime/gpu/vulkan/maxwell/guest_surface.h"
#include "runtime/gpu/vulkan/maxwell/pipelines.h"
#include "runtime/gpu/vulkan/maxwell/renderer_state.h"

namespace kiln::vulkan {

MaxwellRenderer::MaxwellRenderer(Context& context, maxwell::AddressSpace& memory, const MaxwellRendererOptions& options)
    : state_(std::make_unique<State>(context, memory, options)) {}

MaxwellRenderer::~MaxwellRenderer() {
  try {
    state_->submit();
    state_->wait_all();
    save_pipeline_cache();
  } catch (const std::exception& error) {
    log::error("gpu renderer: {}", error.what());
  }
}

const MaxwellRendererStatistics& MaxwellRenderer::statistics() const {
  MaxwellRendererStatistics& s = state_->statistics;
  s.pipelines_created = state_->pipelines.pipelines_created;
  s.pipeline_cache_hits = state_->pipelines.pipeline_hits;
  s.shaders_translated = state_->pipelines.shaders_translated;
  s.shader_cache_hits = state_->pipelines.shader_hits;
  return s;
}

const std::vector<std::string>& MaxwellRenderer::diagnostics() const { return state_->diagnostics; }
const HostProfile& MaxwellRenderer::host_profile() const { return state_->pipelines.profile(); }
void MaxwellRenderer::save_pipeline_cache() {
  const std::lock_guard guard(state_->lock);
  state_->pipelines.save();
}

void MaxwellRenderer::draw(std::shared_ptr<const maxwell::DrawSnapshot> draw) {
  if (!draw->render_enabled) return;
  const std::lock_guard guard(state_->lock);
  try {
    if (state_->sample_queries.full()) state_->sum_sample_queries();
    state_->record_draw(*draw);
    ++state_->statistics.draws;
    if (++state_->current().draws >= state_->options.draws_per_submission) state_->submit();
  } catch (const std::exception& error) {
    ++state_->statistics.skipped_draws;
    state_->diagnose(fmt::format("draw {} skipped: {}", draw->draw_index, error.what()));
  }
}

void MaxwellRenderer::clear(const maxwell::ClearSnapshot& clear) {
  if (!clear.render_enabled) return;
  const std::lock_guard guard(state_->lock);
  try {
    state_->record_clear(clear);
    ++state_->statistics.clears;
  } catch (const std::exception& error) {
    state_->diagnose(fmt::format("clear of target {} skipped: {}", clear.target, error.what()));
  }
}

void MaxwellRenderer::dispatch(const maxwell::DispatchSnapshot& dispatch) {
  const std::lock_guard guard(state_->lock);
  try {
    state_->record_dispatch(dispatch);
  } catch (const std::exception& error) {
    ++state_->statistics.skipped_dispatches;
    state_->diagnose(fmt::format("compute dispatch of the QMD at GPU {:#x} skipped: {}", dispatch.qmd_address, error.what()));
  }
}

void MaxwellRenderer::flush() {
  const std::lock_guard guard(state_->lock);
  const auto started = std::chrono::steady_clock::now();
  state_->flush();
  state_->statistics.flush_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

uint64_t MaxwellRenderer::samples_passed() {
  const std::lock_guard guard(state_->lock);
  state_->sum_sample_queries();
  return state_->sample_queries.samples();
}

void MaxwellRenderer::reset_samples_passed() {
  const std::lock_guard guard(state_->lock);
  state_->sum_sample_queries(); // frees the query slots (their results are dropped with the sum)
  state_->sample_queries.reset();
}

void MaxwellRenderer::synchronize_memory(uint64_t address, uint64_t size, maxwell::MemoryAccess access) {
  if (size == 0) return;
  const std::lock_guard guard(state_->lock);
  try {
    state_->write_back(address, size);
    const Batch* batch = state_->batches.recording();
    if (access != maxwell::MemoryAccess::write || !batch) return;
    // A texture sampled earlier in this batch was uploaded by the batch's upload commands, which run before all
    // of its draws: new bytes must go to a later batch, so this one is closed (the next checks the hash again).
    for (const auto& [key, texture] : state_->texture_cache.textures) {
      if (texture->checked_serial == batch->serial && texture->address() < address + size &&
          address < texture->address() + texture->guest_size()) {
        state_->submit();
        return;
      }
    }
  } catch (const std::exception& error) {
    state_->diagnose(fmt::format("write-back before an engine access of GPU {:#x} (+{:#x}) failed: {}", address, size, error.what()));
  }
}

void MaxwellRenderer::State::flush() {
  ++statistics.flushes;
  write_back(0, UINT64_MAX);
  submit();
  wait_all();
}

std::vector<std::filesystem::path> MaxwellRenderer::write_color_targets_png(const std::filesystem::path& directory, std::string_view prefix) {
  const std::lock_guard guard(state_->lock);
  flush();
  std::filesystem::create_directories(directory);
  std::vector<GuestSurface*> targets;
  for (auto& [key, s] : state_->surfaces) {
    if (!s->is_depth()) targets.push_back(s.get());
  }
  std::sort(targets.begin(), targets.end(), [](auto* a, auto* b) { return a->ordinal() < b->ordinal(); });
  std::vector<std::filesystem::path> paths;
  for (size_t n = 0; n < targets.size(); ++n) {
    const auto path = directory / fmt::format("{}_{}.png", prefix, n);
    try {
      write_png(path, targets[n]->read_rgba8(state_->memory));
      paths.push_back(path);
    } catch (const Error& error) {
      state_->diagnose(fmt::format("{} not written: {}", path.string(), error.what()));
    }
  }
  return paths;
}

} // namespace kiln::vulkan
