#pragma once
// A GPU with one mapped arena, the Vulkan renderer as its backend, and helpers that write the pushbuffer state a
// driver writes for a simple draw (programs, a colour target, viewport 0, one vertex stream).
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/stream_builder.h"
#include "runtime/gpu/textures/blocklinear/surface.h"
#include "runtime/gpu/vulkan/context.h"
#include "runtime/gpu/vulkan/renderer/maxwell_renderer.h"

namespace kiln::test {

inline constexpr uint64_t kArena = 0x100000000, kArenaSize = 0x800000;
inline constexpr uint64_t kPushbuffers = kArena, kPrograms = kArena + 0x100000, kVertices = kArena + 0x200000,
                          kIndices = kArena + 0x220000, kConstants = kArena + 0x240000, kColorTarget = kArena + 0x300000,
                          kDepthTarget = kArena + 0x400000;
inline constexpr uint32_t kVertexProgramOffset = 0x0, kFragmentProgramOffset = 0x1000;

inline uint32_t high(uint64_t address) { return static_cast<uint32_t>(address >> 32); }
inline uint32_t low(uint64_t address) { return static_cast<uint32_t>(address); }

/// Vertex SPH: reads generic 0..inputs-1 (xyzw each), writes position and generic 0 (xyzw).
std::vector<uint8_t> vertex_header(uint32_t inputs);
/// Pixel SPH: reads generic 0 (xyzw, perspective), writes colour target 0 (RGBA).
std::vector<uint8_t> pixel_header();
/// SPH + code bytes.
std::vector<uint8_t> program(const std::vector<uint8_t>& header, const std::vector<uint64_t>& code);

struct RendererScene {
  explicit RendererScene(vulkan::Context& context);

  vulkan::Context& context;
  maxwell::Gpu gpu;
  std::unique_ptr<vulkan::MaxwellRenderer> renderer;
  uint64_t next_pushbuffer = kPushbuffers;

  /// The standard programs: position = generic 0, colour = generic 1 passed through; fragment colour = the
  /// interpolated generic 0.
  void write_pass_through_programs();
  /// Binds the programs, colour target 0 (`format`, `width` x `height`, block-linear with 1-GOB blocks), CT
  /// write mask RGBA, viewport 0 mapping NDC onto the whole target (z: 0..1 mode, z_window = z_ndc), vertex
  /// stream 0 at kVertices with `stride` and attributes 0 (position) and 1 (colour) as RGBA32F at 0 and 16.
  void setup(maxwell::StreamBuilder& s, uint32_t format, uint32_t width, uint32_t height, uint32_t stride = 32);
  /// Places and runs `s`, then flushes the renderer; requires the processor to go idle.
  void run(const maxwell::StreamBuilder& s);
  void write_floats(uint64_t address, const std::vector<float>& values);
  /// The colour target read back from guest memory, deswizzled (1-GOB block-linear, `bytes` per texel).
  std::vector<uint8_t> read_target(uint64_t address, uint32_t width, uint32_t height, uint32_t bytes) const;
};

} // namespace kiln::test
