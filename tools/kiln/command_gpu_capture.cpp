// `kiln gpu replay|dump|capture|compile-macros`: Maxwell command captures (runtime/gpu/maxwell).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/base/log.h"
#include "runtime/gpu/maxwell/capture.h"
#include "runtime/gpu/maxwell/describe.h"
#include "runtime/gpu/maxwell/mme/codegen.h"
#include "runtime/gpu/maxwell/mme/macro_registry.h"
#include "runtime/gpu/maxwell/replay.h"
#include "runtime/gpu/maxwell/synthetic_frame.h"
#include "runtime/gpu/vulkan/context.h"
#include "runtime/gpu/vulkan/maxwell/maxwell_renderer.h"
#include "tools/kiln/command_registry.h"

namespace {

using namespace kiln::maxwell;

void print_event(const RecordingBackend::Event& event) {
  if (const auto* draw = std::get_if<std::shared_ptr<const DrawSnapshot>>(&event)) {
    fmt::print("{}", describe_draw(**draw));
  } else if (const auto* clear = std::get_if<ClearSnapshot>(&event)) {
    fmt::print("{}\n", describe_clear(*clear));
  } else {
    fmt::print("{}\n", describe_dispatch(std::get<DispatchSnapshot>(event)));
  }
}

void fail_on_errors(const ReplayResult& result) {
  for (const Diagnostic& diagnostic : result.diagnostics) fmt::print(stderr, "{}\n", diagnostic.describe());
  if (result.error_count() != 0) throw kiln::Error(fmt::format("{} error(s) while replaying", result.error_count()));
}

/// Maps the capture's pages like map_capture_memory, plus fresh zeroed pages for every render target the
/// snapshots name: targets live in memory the command processor never reads, so a capture holds none of their
/// pages (new memory reads as zero on the Switch too). Contiguous pages become one mapping, so a surface
/// spanning captured and fresh pages is readable in one piece.
void map_memory_with_targets(Gpu& gpu, const Capture& capture, const std::vector<RecordingBackend::Event>& events) {
  std::set<uint64_t> pages;
  for (const auto& [address, hash] : capture.pages) pages.insert(address);
  auto add_target = [&](const RenderTarget& target) {
    if (target.format == 0 || target.address == 0) return;
    // Upper bound of a block-linear surface: rows padded to GOBs (64 bytes), height to 32-GOB blocks.
    const uint64_t bytes = ((uint64_t{target.width} * 16 + 63) & ~uint64_t{63}) * ((uint64_t{target.height} + 255) & ~uint64_t{255});
    for (uint64_t page = target.address & ~(AddressSpace::page_size - 1);
         page < target.address + bytes && page < AddressSpace::address_limit; page += AddressSpace::page_size) {
      pages.insert(page);
    }
  };
  for (const auto& event : events) {
    if (const auto* draw = std::get_if<std::shared_ptr<const DrawSnapshot>>(&event)) {
      for (const RenderTarget& target : (*draw)->color_targets) add_target(target);
      if ((*draw)->depth_target_enabled) add_target((*draw)->depth_target);
    } else if (const auto* clear = std::get_if<ClearSnapshot>(&event)) {
      add_target(clear->color_target);
      if (clear->depth || clear->stencil) add_target(clear->depth_target);
    }
  }
  for (auto it = pages.begin(); it != pages.end();) {
    const uint64_t first = *it;
    uint64_t end = first;
    while (it != pages.end() && *it == end) {
      end += AddressSpace::page_size;
      ++it;
    }
    gpu.memory().map_owned(first, end - first);
  }
  for (const auto& [address, hash] : capture.pages) {
    const std::vector<uint8_t>& bytes = capture.blobs.at(hash);
    gpu.memory().write(address, std::span<const uint8_t>(bytes.data(), std::min<size_t>(bytes.size(), AddressSpace::page_size)));
  }
}

/// Replays `capture` again with the Vulkan renderer as the backend and writes every colour target it rendered
/// as a PNG into `directory` (decoded from guest memory after the final flush); prints the paths.
void render_capture_png(const Capture& capture, const std::vector<RecordingBackend::Event>& events, const MacroRegistry* macros,
                        const std::filesystem::path& directory, const std::string& prefix, bool validate) {
  kiln::vulkan::Context context({.validation = validate, .synchronization_validation = validate});
  Gpu gpu;
  if (macros) gpu.set_macro_registry(macros);
  kiln::vulkan::MaxwellRenderer renderer(context, gpu.memory());
  gpu.set_backend(&renderer);
  map_memory_with_targets(gpu, capture, events);
  for (uint32_t i = 0; i < capture.channel_count; ++i) gpu.create_channel(static_cast<ClassId>(capture.host_class(i)));
  const RunOptions between{std::chrono::milliseconds(0), false};
  for (const CaptureEvent& event : capture.events) {
    if (event.kind == CaptureEvent::Kind::submission) {
      gpu.submit(event.channel, event.entries);
    } else {
      renderer.flush(); // the CPU writes after the GPU's earlier work, as the title did
      gpu.memory().write(event.address, capture.blobs.at(event.content));
    }
    gpu.run(between);
  }
  gpu.run(RunOptions{std::chrono::milliseconds(0), false});
  const auto paths = renderer.write_color_targets_png(directory, prefix);
  for (const auto& message : renderer.diagnostics()) fmt::print(stderr, "{}\n", message);
  const auto& statistics = renderer.statistics();
  fmt::print("rendered on {}: {} draws ({} skipped), {} clears, {} pipelines, {} shaders translated\n", context.device_name(),
             statistics.draws, statistics.skipped_draws, statistics.clears, statistics.pipelines_created, statistics.shaders_translated);
  for (const auto& path : paths) fmt::print("wrote {}\n", path.string());
  if (validate) {
    for (const auto& message : context.validation_log().messages()) fmt::print(stderr, "validation: {}\n", message);
    fmt::print("{} validation message(s)\n", context.validation_log().count());
  }
}

void setup_gpu_capture_commands(CLI::App& root) {
  CLI::App& group = kiln::cli::command_group(root, "gpu", "the Vulkan device kiln renders with");

  auto* replay_command = group.add_subcommand("replay", "replay a Maxwell command capture without the title");
  static std::string replay_file;
  static int64_t dump_state = -1;
  static bool interpret_only = false;
  replay_command->add_option("file", replay_file, "capture file (.kgc)")->required();
  replay_command->add_option("--dump-state", dump_state, "print the 3D state of draw N (0-based)");
  replay_command->add_flag("--interpret-only", interpret_only, "run every macro in the interpreter");
  static std::string png_directory;
  static bool validate = false;
  replay_command->add_option("--png", png_directory, "also render the capture on Vulkan and write each colour target as OUTDIR/<capture>_<n>.png");
  replay_command->add_flag("--validate", validate, "with --png: enable the Vulkan validation layers and count their messages");
  replay_command->callback([] {
    const Capture capture = Capture::load(replay_file);
    MacroRegistry empty;
    ReplayOptions options;
    if (interpret_only) options.macros = &empty;
    const ReplayResult result = replay(capture, options);
    size_t draws = 0, clears = 0, dispatches = 0;
    for (const auto& event : result.events) {
      if (std::holds_alternative<std::shared_ptr<const DrawSnapshot>>(event)) {
        if (dump_state == static_cast<int64_t>(draws)) print_event(event);
        ++draws;
      } else if (std::holds_alternative<ClearSnapshot>(event)) {
        ++clears;
      } else {
        ++dispatches;
      }
    }
    if (dump_state >= static_cast<int64_t>(draws)) {
      throw kiln::Error(fmt::format("--dump-state {}: the capture has {} draws", dump_state, draws));
    }
    fmt::print("{}: {} methods, {} draws, {} clears, {} dispatches, macros {} compiled / {} interpreted, "
               "memory digest {:016x}\n",
               replay_file, result.methods, draws, clears, dispatches, result.macros_native,
               result.macros_interpreted, result.memory_digest);
    fail_on_errors(result);
    if (!png_directory.empty()) {
      render_capture_png(capture, result.events, options.macros, png_directory, std::filesystem::path(replay_file).stem().string(), validate);
    }
  });

  auto* dump_command = group.add_subcommand("dump", "print the method stream of a capture with method names");
  static std::string dump_file;
  static bool with_events = false;
  dump_command->add_option("file", dump_file, "capture file (.kgc)")->required();
  dump_command->add_flag("--events", with_events, "also print each draw, clear and dispatch where it happens");
  dump_command->callback([] {
    const Capture capture = Capture::load(dump_file);
    ReplayOptions options;
    size_t printed_events = 0;
    options.trace = [&](const MethodTrace& method) { fmt::print("{}\n", describe_method(method)); };
    const ReplayResult result = replay(capture, options);
    if (with_events) {
      for (const auto& event : result.events) {
        fmt::print("-- event {}\n", printed_events++);
        print_event(event);
      }
    }
    fail_on_errors(result);
  });

  auto* capture_command = group.add_subcommand("capture", "record a capture (titles: set KILN_GPU_CAPTURE=FILE)");
  static std::string capture_output;
  static bool synthetic = false;
  static uint32_t synthetic_draws = 100;
  capture_command->add_option("-o,--output", capture_output, "capture file to write")->required();
  capture_command->add_flag("--synthetic", synthetic, "record kiln's synthetic test frame")->required();
  capture_command->add_option("--draws", synthetic_draws, "direct draws in the synthetic frame")->capture_default_str();
  capture_command->callback([] {
    RecordingBackend backend;
    Gpu gpu(&backend);
    CaptureRecorder recorder(gpu);
    submit_synthetic_frame(gpu, SyntheticFrameOptions{synthetic_draws});
    gpu.run();
    if (gpu.error_count() != 0) throw kiln::Error(gpu.diagnostics().front().describe());
    const Capture capture = recorder.finish();
    capture.save(capture_output);
    kiln::log::info("wrote {}: {} pages ({} distinct), {} submissions", capture_output, capture.pages.size(),
                    capture.blobs.size(), capture.events.size());
  });

  auto* compile = group.add_subcommand("compile-macros", "translate the MME macros a capture uploads into C++");
  static std::string compile_file, compile_output;
  compile->add_option("file", compile_file, "capture file (.kgc)")->required();
  compile->add_option("-o,--output", compile_output, "C++ file to write (rewritten only when it changes)")->required();
  compile->callback([] {
    const ReplayResult result = replay(Capture::load(compile_file));
    const auto written = kiln::write_file_if_changed(compile_output, mme::compile_macro_file(result.uploaded_macros));
    kiln::log::info("{} macro(s) -> {} ({})", result.uploaded_macros.size(), compile_output,
                    written == kiln::WriteResult::written ? "written" : "unchanged");
  });
}

} // namespace

KILN_REGISTER_COMMAND("gpu_capture", setup_gpu_capture_commands);
