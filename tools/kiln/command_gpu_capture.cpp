// `kiln gpu replay|dump|capture|compile-macros`: Maxwell command captures (runtime/gpu/maxwell).
#include <fmt/format.h>

#include <algorithm>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/base/log.h"
#include "runtime/gpu/maxwell/capture.h"
#include "runtime/gpu/maxwell/describe.h"
#include "runtime/gpu/maxwell/mme/codegen.h"
#include "runtime/gpu/maxwell/mme/macro_registry.h"
#include "runtime/gpu/maxwell/replay.h"
#include "runtime/gpu/maxwell/synthetic_frame.h"
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

void setup_gpu_capture_commands(CLI::App& root) {
  CLI::App& group = kiln::cli::command_group(root, "gpu", "the Vulkan device kiln renders with");

  auto* replay_command = group.add_subcommand("replay", "replay a Maxwell command capture without the title");
  static std::string replay_file;
  static int64_t dump_state = -1;
  static bool interpret_only = false;
  replay_command->add_option("file", replay_file, "capture file (.kgc)")->required();
  replay_command->add_option("--dump-state", dump_state, "print the 3D state of draw N (0-based)");
  replay_command->add_flag("--interpret-only", interpret_only, "run every macro in the interpreter");
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
