#pragma once
// Where vi's queued frames go: a process-wide sink (PNG files when headless; a test's own), and the host frame
// clock's vertical blanks that pace vi's vsync event in a window.
#include <functional>
#include <memory>

#include "runtime/base/png_image.h"

namespace kiln::hos {

class ServiceRegistry;

/// Receives every frame a layer's buffer queue presents, in queue order, as RGBA8 rows top to bottom.
using FrameSink = std::function<void(const RgbaImage& frame, uint64_t frame_number)>;
/// The headless sink: `$KILN_FRAME_DIR/frame_N.png` when that variable is set, otherwise a line in the log.
void write_frame_file(const RgbaImage& frame, uint64_t frame_number);
/// Replaces the sink (the default is write_frame_file).
void set_frame_sink(FrameSink sink);
/// How many frames vi has given to the sink so far (a pad script's frame number).
uint64_t presented_frames();
/// A vertical blank of the host's frame clock (the host session reports each one it presents a frame at): every
/// display's vsync event is signalled now, and vi's own 60 Hz clock stays silent for a period after it.
void host_vblank();
/// A new layer on the process's display, as am's ISelfController CreateManagedDisplayLayer makes one for the
/// title; vi's OpenLayer then opens it by this id.
uint64_t create_managed_display_layer(ServiceRegistry& registry);

} // namespace kiln::hos
