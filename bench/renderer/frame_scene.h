#pragma once
// A draw-heavy frame in the style of the sample title: textured, depth-tested, blended quads with constant
// buffer updates between draws (a vertex transform per draw, a texture handle per draw), built with StreamBuilder
// and programs written as SASS text. Guest memory layout and pushbuffer only; the caller picks the backend.
#include <cstdint>

#include "runtime/gpu/maxwell/address_space.h"
#include "runtime/gpu/maxwell/stream_builder.h"

namespace kiln::bench {

struct FrameSceneOptions {
  uint32_t draws = 300;
  uint32_t width = 256, height = 256;
  uint32_t textures = 4; ///< 64x64 RGBA8 block-linear textures, the draws cycle through them
};

inline constexpr uint64_t kSceneArena = 0x100000000, kSceneArenaSize = 0x1000000;

/// Maps the arena into `memory` and writes programs, vertices, textures, TIC/TSC pools.
void write_scene_memory(maxwell::AddressSpace& memory, const FrameSceneOptions& options);
/// One frame: clear colour and depth, then `options.draws` draws, each after its constant buffer updates.
maxwell::StreamBuilder build_frame(const FrameSceneOptions& options);
/// Where build_frame's pushbuffer is placed.
inline constexpr uint64_t kScenePushbuffer = kSceneArena;

} // namespace kiln::bench
