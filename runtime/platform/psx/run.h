#pragma once
// Running a PS1 program headless, the same way whether it was recompiled or is interpreted: the command-line
// options, frame output (PNG of the displayed area), the SPU's sound (WAV), scripted controller input, the
// BIOS-call trace, and the final state.
#include <functional>
#include <string>
#include <vector>

#include "runtime/base/png_image.h"
#include "runtime/platform/psx/machine.h"
#include "runtime/platform/psx/pad/pad_source.h"
#include "runtime/platform/psx/spu/audio_sink.h"

namespace kiln::psx {

struct RunOptions {
  unsigned frames = 0;       ///< --frames N: stop after N frames (0: run until the program exits)
  std::string frame_prefix;  ///< --frame-prefix P: write P000.png, P001.png... at each VBLANK
  std::string vram_out;      ///< --vram FILE: VRAM at the end (1 MiB, 16-bit little endian)
  std::string trace_out;     ///< --trace FILE: one line per BIOS call, one per frame (with RAM/VRAM hashes)
  std::string state_out;     ///< --state FILE: registers, HI/LO, PC and RAM/VRAM hashes at the end
  std::string audio_out;     ///< --audio FILE: the SPU's output as a 44.1 kHz stereo 16-bit WAV file
  std::string pad_script;    ///< --pad-script FILE: a controller on port 1 playing this script (scripted_pad.h)
  std::function<void(std::string_view)> tty; ///< where printed text goes (default: stdout)
  AudioSink* audio_sink = nullptr; ///< a host's audio output (also with --audio: both get every frame)
  PadSource* pad_source = nullptr; ///< a host's controller on port 1 (instead of --pad-script)
  PadKind pad_kind = PadKind::dualshock;
  /// A host's display: the displayed area at each VBLANK (after --frame-prefix's file); false stops the
  /// program (the window was closed).
  std::function<bool(const RgbaImage&)> present;
};

/// Parses the options above; throws kiln::Error naming an unknown or malformed one.
RunOptions parse_run_options(const std::vector<std::string>& arguments);
/// Loads the image, runs `execute` until the program stops, writes the outputs. Returns the exit code.
int run(const ProgramImage& image, const RunOptions& options, const std::function<void(Machine&)>& execute);
/// The text --state writes (also what the differential tests compare).
std::string describe_state(Machine& m);

} // namespace kiln::psx
