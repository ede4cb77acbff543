#include "runtime/platform/psx/run.h"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/base/hash.h"
#include "runtime/base/png_image.h"
#include "runtime/gpu/psx/display.h"
#include "runtime/gpu/psx/replay.h"
#include "runtime/platform/psx/pad/scripted_pad.h"
#include "runtime/platform/psx/spu/wav_writer.h"

namespace kiln::psx {
namespace {

uint64_t ram_hash(Machine& m) { return hash64(m.ram()); }

/// The SPU's frames to the WAV file and to a host's sink alike.
struct BothSinks final : AudioSink {
  AudioSink* first = nullptr;
  AudioSink* second = nullptr;
  void push(std::span<const StereoFrame> frames) override {
    if (first) first->push(frames);
    if (second) second->push(frames);
  }
};
uint64_t vram_hash(Machine& m) {
  const auto& pixels = m.gpu.vram().pixels;
  return hash64(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(pixels.data()), pixels.size() * 2));
}

} // namespace

RunOptions parse_run_options(const std::vector<std::string>& arguments) {
  RunOptions options;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const std::string& a = arguments[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= arguments.size()) throw Error(fmt::format("option {} needs a value", a));
      return arguments[++i];
    };
    if (a == "--frames") {
      const std::string& v = value();
      char* end = nullptr;
      const unsigned long n = std::strtoul(v.c_str(), &end, 10);
      if (v.empty() || *end != 0 || n > 1000000) throw Error(fmt::format("--frames: '{}' is not a frame count", v));
      options.frames = static_cast<unsigned>(n);
    } else if (a == "--frame-prefix") options.frame_prefix = value();
    else if (a == "--vram") options.vram_out = value();
    else if (a == "--trace") options.trace_out = value();
    else if (a == "--state") options.state_out = value();
    else if (a == "--audio") options.audio_out = value();
    else if (a == "--pad-script") options.pad_script = value();
    else throw Error(fmt::format("unknown option '{}' (known: --frames N, --frame-prefix P, --vram FILE, --trace FILE, --state FILE, "
                                 "--audio FILE, --pad-script FILE)", a));
  }
  return options;
}

std::string describe_state(Machine& m) {
  std::string s;
  for (unsigned r = 0; r < 32; ++r) s += fmt::format("r{}={:08x}{}", r, m.cpu.gpr[r], r % 8 == 7 ? "\n" : " ");
  s += fmt::format("hi={:08x} lo={:08x} pc={:08x} sr={:08x}\n", m.cpu.hi, m.cpu.lo, m.cpu.pc, m.cpu.cop0[r3000::cop0::status]);
  s += fmt::format("frames={} ram={:016x} vram={:016x} spu_ram={:016x}\n", m.frames(), ram_hash(m), vram_hash(m), hash64(m.spu.ram()));
  return s;
}

int run(const ProgramImage& image, const RunOptions& options, const std::function<void(Machine&)>& execute) {
  std::ofstream trace;
  if (!options.trace_out.empty()) {
    trace.open(options.trace_out, std::ios::binary);
    if (!trace) throw Error(in_file(options.trace_out), "cannot write the trace");
  }
  Machine::Options machine_options;
  machine_options.frame_limit = options.frames;
  machine_options.tty = options.tty;
  machine_options.on_frame = [&](unsigned frame, Machine& m) {
    if (trace.is_open()) trace << fmt::format("frame {} ram={:016x} vram={:016x}\n", frame, ram_hash(m), vram_hash(m));
    if (options.frame_prefix.empty() && !options.present) return;
    const RgbaImage displayed = scan_out(m.gpu.vram(), m.gpu.display());
    if (!options.frame_prefix.empty()) write_png(fmt::format("{}{:03}.png", options.frame_prefix, frame - 1), displayed);
    if (options.present && !options.present(displayed)) throw ProgramStop{"the window was closed", 0};
  };
  if (trace.is_open()) machine_options.on_trace = [&](std::string_view line) { trace << line << '\n'; };
  auto machine = std::make_unique<Machine>(std::move(machine_options));
  Machine& m = *machine;
  WavFileSink audio;
  BothSinks sinks;
  sinks.first = options.audio_out.empty() ? nullptr : &audio;
  sinks.second = options.audio_sink;
  m.spu.set_sink(&sinks);
  std::unique_ptr<ScriptedPad> pad_script;
  std::unique_ptr<Controller> pad;
  if (!options.pad_script.empty()) {
    pad_script = std::make_unique<ScriptedPad>(ScriptedPad::from_file(options.pad_script));
    pad = std::make_unique<Controller>(pad_script->kind(), *pad_script);
  } else if (options.pad_source) {
    pad = std::make_unique<Controller>(options.pad_kind, *options.pad_source);
  }
  if (pad) m.sio0.connect(0, pad.get());
  m.load(image);
  uint32_t exit_code = 0;
  try {
    execute(m);
    m.enter_hle(m.cpu.pc); // the entry function returned: to exit_address, which stops
    throw Error(fmt::format("psx: the entry function returned to {:#010x}", m.cpu.pc));
  } catch (const ProgramStop& stop) {
    std::fflush(stdout);
    std::fprintf(stderr, "kiln: program stopped: %s (frames: %u)\n", stop.reason.c_str(), m.frames());
    exit_code = stop.exit_code;
  }
  if (!options.vram_out.empty()) write_file_if_changed(options.vram_out, vram_to_bytes(m.gpu.vram()));
  if (!options.state_out.empty()) write_file_if_changed(options.state_out, describe_state(m));
  if (!options.audio_out.empty()) audio.write(options.audio_out);
  return static_cast<int>(exit_code & 0xFF);
}

} // namespace kiln::psx
