#pragma once
// The PS1 in the host shell (runtime/host, docs/host.md): the host's pad as the controller on port 1, the SPU's
// 44.1 kHz stereo frames to the host's audio queue, the displayed area of VRAM presented at each VBLANK with
// the console's 4:3 picture, and the VBLANK paced by the host's frame clock at NTSC's 59.94 Hz. Built as its
// own library (kiln_psx_host, prebuilt for recompiled programs) so the PS1 runtime itself needs no SDL or Vulkan.
#include <functional>
#include <string>
#include <vector>

#include "runtime/host/pad_state.h"
#include "runtime/platform/psx/run.h"

namespace kiln::psx {

/// NTSC's field rate (the host clock paces VBLANK at it; --unthrottled does not wait).
constexpr double ntsc_vblank_hz = 60000.0 / 1001.0;

/// The host's platform-neutral pad as a PS1 pad (docs/psx.md lists the mapping): face buttons by position
/// (south = cross, east = circle, west = square, north = triangle), shoulders L1/R1, triggers L2/R2, stick
/// clicks L3/R3, start and select, sticks 00h..FFh with 80h at rest. The Analog button has no counterpart.
PadInput pad_input_from(const host::PadState& pad);

/// Runs the program with the host shell. `arguments` mix the host's options (--window, --fullscreen,
/// --capture DIR, --mute ...: host_options.h) and the run's (--frames N, --audio FILE ...: run.h; --frames 0
/// means until the program exits). In a window the pad, the sound and the picture are the host's (a
/// --pad-script still replaces the pad); headless, the default, runs as run() does, the frames also to
/// --capture when given. Throws kiln::Error for a bad option or a window that cannot open.
int run_with_host(const ProgramImage& image, std::vector<std::string> arguments, const std::string& title,
                  const std::function<void(Machine&)>& execute);
/// The same with the run's options already parsed (kiln psx run): `host_arguments` holds only host options.
int run_with_host(const ProgramImage& image, RunOptions run_options, std::vector<std::string> host_arguments,
                  const std::string& title, const std::function<void(Machine&)>& execute);

} // namespace kiln::psx
