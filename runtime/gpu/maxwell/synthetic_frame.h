#pragma once
// A synthetic, draw-heavy frame built with the stream builder: state setup, constant buffer updates, draws
// issued directly and through an MME macro, clears, reports and a copy. The benchmark measures it, and
// `kiln gpu capture --synthetic` records it to demonstrate capture and replay.
#include <cstdint>

namespace kiln::maxwell {

class Gpu;

struct SyntheticFrameOptions {
  uint32_t draws = 1000;   ///< draws issued directly (as many again through the macro)
  uint64_t base = 0x200000000; ///< GPU address of the frame's memory (mapped here)
};

/// Maps memory, writes the frame's pushbuffers and submits them on a new channel. Returns the method words.
uint64_t submit_synthetic_frame(Gpu& gpu, const SyntheticFrameOptions& options = {});

} // namespace kiln::maxwell
