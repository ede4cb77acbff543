// CPU time per frame of a draw-heavy frame (textured, depth-tested, blended quads with constant buffer updates
// between draws) through maxwell::Gpu + vulkan::MaxwellRenderer on the default device (lavapipe here), split
// into command processing (the same stream through a CountingBackend, measured in the same run), state
// translation, command recording and submission (the renderer's statistics timers), and flush (GPU wait +
// write-back). Validation layers are off. Not a test.
// Usage: bench_renderer [--frames N] [--draws N] [--png DIR]  (--png writes the last frame, to look at it)
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/renderer/frame_scene.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/vulkan/context.h"
#include "runtime/gpu/vulkan/maxwell/maxwell_renderer.h"

using namespace kiln;
using clock_type = std::chrono::steady_clock;

namespace {

double seconds_since(clock_type::time_point start) { return std::chrono::duration<double>(clock_type::now() - start).count(); }

void require_idle(maxwell::Gpu& gpu, const maxwell::RunResult& result, const char* what) {
  if (result.idle && gpu.error_count() == 0) return;
  fmt::print(stderr, "{}: processor failed: {}\n", what, gpu.diagnostics().empty() ? "not idle" : gpu.diagnostics()[0].describe());
  std::exit(1);
}

// Median of per-frame values: robust against the other processes sharing the machine.
double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

struct FrameTimes {
  std::vector<double> processing, run, translation, recording, submission, flush;
};

} // namespace

int main(int argc, char** argv) {
  uint32_t frames = 20;
  bench::FrameSceneOptions options;
  std::string png_directory;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--png") {
      png_directory = argv[i + 1];
      continue;
    }
    const auto value = static_cast<uint32_t>(std::stoul(argv[i + 1]));
    if (flag == "--frames") frames = std::max(2u, value);
    else if (flag == "--draws") options.draws = std::max(1u, value);
  }
  const maxwell::StreamBuilder frame = bench::build_frame(options);

  // Reference: the command processor alone, the same words into a backend that only counts.
  FrameTimes times;
  {
    maxwell::CountingBackend counting;
    maxwell::Gpu gpu(&counting);
    bench::write_scene_memory(gpu.memory(), options);
    gpu.create_channel();
    const maxwell::GpfifoEntry entry = frame.place(gpu.memory(), bench::kScenePushbuffer);
    for (uint32_t f = 0; f < frames; ++f) {
      gpu.submit(0, entry);
      const auto start = clock_type::now();
      require_idle(gpu, gpu.run(), "counting backend");
      times.processing.push_back(seconds_since(start));
    }
    if (counting.draws != uint64_t{frames} * options.draws) {
      fmt::print(stderr, "counting backend saw {} draws, expected {}\n", counting.draws, uint64_t{frames} * options.draws);
      return 1;
    }
  }

  vulkan::Context context({.validation = false});
  maxwell::Gpu gpu;
  bench::write_scene_memory(gpu.memory(), options);
  vulkan::MaxwellRenderer renderer(context, gpu.memory());
  gpu.set_backend(&renderer);
  gpu.create_channel();
  const maxwell::GpfifoEntry entry = frame.place(gpu.memory(), bench::kScenePushbuffer);
  // Frame 0 translates shaders, creates pipelines and uploads textures: reported apart from the steady state.
  double first_frame = 0;
  for (uint32_t f = 0; f <= frames; ++f) {
    const vulkan::MaxwellRendererStatistics before = renderer.statistics();
    gpu.submit(0, entry);
    const auto start = clock_type::now();
    require_idle(gpu, gpu.run(), "renderer");
    const double run = seconds_since(start);
    renderer.flush();
    const vulkan::MaxwellRendererStatistics& after = renderer.statistics();
    if (f == 0) {
      first_frame = seconds_since(start);
      continue;
    }
    times.run.push_back(run);
    times.translation.push_back(after.translation_seconds - before.translation_seconds);
    times.recording.push_back(after.recording_seconds - before.recording_seconds);
    times.submission.push_back(after.submission_seconds - before.submission_seconds);
    times.flush.push_back(after.flush_seconds - before.flush_seconds);
  }
  const vulkan::MaxwellRendererStatistics& stats = renderer.statistics();
  if (!renderer.diagnostics().empty() || stats.skipped_draws != 0) {
    fmt::print(stderr, "renderer diagnostics: {}\n", renderer.diagnostics().empty() ? "skipped draws" : renderer.diagnostics()[0]);
    return 1;
  }

  const double processing = median(times.processing), run = median(times.run), translation = median(times.translation),
               recording = median(times.recording), submission = median(times.submission), flush = median(times.flush);
  // Time inside Gpu::run that is neither processing nor the renderer's timed sections: draw() entry, locking,
  // snapshot hand-over and clears.
  const double other = std::max(0.0, run - processing - translation - recording - submission);
  const double total = run + flush;
  fmt::print("device: {}\n", context.physical_device().getProperties().deviceName.data());
  fmt::print("frame: {} draws (textured, depth-tested, blended, 2 constant buffer updates each), {} frames (medians), "
             "{} pipelines, {} shaders translated\n",
             options.draws, frames, stats.pipelines_created, stats.shaders_translated);
  fmt::print("first frame (translation, pipeline creation, uploads): {:.2f} ms\n", first_frame * 1e3);
  auto row = [&](const char* name, double seconds) {
    fmt::print("  {:<34} {:8.3f} ms/frame {:7.2f} us/draw {:6.1f}% of frame {:6.2f}x processing\n", name, seconds * 1e3,
               seconds * 1e6 / options.draws, 100 * seconds / total, seconds / processing);
  };
  row("command processing (counting)", processing);
  row("state translation", translation);
  row("Vulkan recording", recording);
  row("Vulkan submission (vkQueueSubmit)", submission);
  row("other in Gpu::run (draw hand-over)", other);
  row("flush (GPU wait + write-back)", flush);
  row("frame total (run + flush)", total);
  if (!png_directory.empty()) {
    for (const auto& path : renderer.write_color_targets_png(png_directory, "bench_frame")) fmt::print("wrote {}\n", path.string());
  }
  fmt::print("CPU before flush: {:.3f} ms/frame = {:.2f}x command processing alone\n", run * 1e3, run / processing);
  return 0;
}
