#pragma once
// A GPU with one mapped arena, the Vulkan renderer as its backend, and helpers that write the pushbuffer state a
// driver writes for a simple draw (programs, a colour target, viewport 0, one vertex stream).
#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/stream_builder.h"
#include "runtime/gpu/textures/blocklinear/surface.h"
#include "runtime/gpu/vulkan/context.h"
#include "runtime/gpu/vulkan/renderer/maxwell_renderer.h"
#include "translator/sass/sm5x/sph_builder.h"

namespace kiln::test {

inline constexpr uint64_t kArena = 0x100000000, kArenaSize = 0x800000;
inline constexpr uint64_t kPushbuffers = kArena, kPrograms = kArena + 0x100000, kVertices = kArena + 0x200000,
                          kIndices = kArena + 0x220000, kConstants = kArena + 0x240000, kColorTarget = kArena + 0x300000,
                          kDepthTarget = kArena + 0x400000;
inline constexpr uint32_t kVertexProgramOffset = 0x0, kFragmentProgramOffset = 0x1000;

inline constexpr uint32_t kRgba8 = 0xd5;   // SET_COLOR_TARGET_FORMAT A8B8G8R8: bytes R, G, B, A
inline constexpr uint32_t kRgba32f = 0xc0; // RF32_GF32_BF32_AF32

inline uint32_t high(uint64_t address) { return static_cast<uint32_t>(address >> 32); }
inline uint32_t low(uint64_t address) { return static_cast<uint32_t>(address); }

using sass::sm5x::pixel_header;  // translator/sass/sm5x/sph_builder.h
using sass::sm5x::vertex_header;
/// SPH + code bytes.
std::vector<uint8_t> program(const std::vector<uint8_t>& header, const std::vector<uint64_t>& code);

/// One vertex: position (x, y, z, w = 1) then colour (r, g, b, a).
std::vector<float> vertex(float x, float y, float z, std::array<float, 4> color);
std::vector<float> concat(std::initializer_list<std::vector<float>> parts);
/// A triangle covering the whole NDC square: (-1, -1), (3, -1), (-1, 3).
std::vector<float> fullscreen(float z, std::array<float, 4> color);
void draw_arrays(maxwell::StreamBuilder& s, uint32_t first, uint32_t count, uint32_t op = 4 /* TRIANGLES */);
/// Clears colour target 0 (all channels) to `color`.
void clear_color(maxwell::StreamBuilder& s, std::array<float, 4> color);
/// RGBA8 texel (x, y) of a tightly packed read-back.
std::array<uint8_t, 4> texel8(const std::vector<uint8_t>& pixels, uint32_t width, uint32_t x, uint32_t y);
/// Channel c of RGBA32F texel (x, y) of a tightly packed read-back.
float texel_f32(const std::vector<uint8_t>& pixels, uint32_t width, uint32_t x, uint32_t y, uint32_t c);
/// Catch2 check: the context's validation layers reported nothing (messages shown when they did).
void check_no_validation_messages(const vulkan::Context& context);

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
