#pragma once
// A GPU with one mapped arena, the Vulkan renderer as its backend, and helpers that write the pushbuffer state a
// driver writes for a simple draw (programs, a colour target, viewport 0, one vertex stream).
#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/stream_builder.h"
#include "runtime/gpu/textures/blocklinear/surface.h"
#include "runtime/gpu/vulkan/context.h"
#include "runtime/gpu/vulkan/maxwell/maxwell_renderer.h"
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
/// An SM86 program as the Ampere 3D class reads it: `header` padded (graphics::raw_program), then `lines`
/// assembled by kiln's SM86 assembler.
std::vector<uint8_t> sm86_program(const std::vector<uint8_t>& header, const std::vector<std::string_view>& lines);

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
/// How many texels of a tightly packed RGBA8 read-back differ from `expected(x, y)` (the first few are logged).
size_t count_wrong_texels(const std::vector<uint8_t>& pixels, uint32_t width, uint32_t height,
                          const std::function<std::array<uint8_t, 4>(uint32_t, uint32_t)>& expected);
/// The same with one colour everywhere.
size_t count_wrong_texels(const std::vector<uint8_t>& pixels, uint32_t width, uint32_t height, std::array<uint8_t, 4> expected);

/// Texture header (clb197tex.h TEXHEAD_BL) of a block-linear A8B8G8R8 UNORM texture with identity swizzle, one
/// level, 1-GOB blocks (height and depth), normalized coordinates: `type` 1 = 2D (see TextureHeader for others).
std::array<uint32_t, 8> rgba8_texture_header(uint64_t address, uint32_t width, uint32_t height, uint32_t depth = 1, uint32_t type = 1);
/// TSC with CLAMP_TO_EDGE in U, V, P and nearest filtering without mipmaps.
std::array<uint32_t, 8> nearest_clamp_sampler();
/// A pixel program that samples texture handle 0 at generic 0 with `tex` ("TEX R0, R0, RZ, 0x0, 2D, 0xf" style
/// text, coordinates in R0..) and writes the result as colour 0.
std::vector<uint8_t> sampling_fragment_program(const std::vector<std::string>& code);

struct RendererScene {
  explicit RendererScene(vulkan::Context& context);

  vulkan::Context& context;
  maxwell::Gpu gpu;
  std::unique_ptr<vulkan::MaxwellRenderer> renderer;
  uint64_t next_pushbuffer = kPushbuffers;
  /// The 3D class setup() binds: B197 (programs by offset into the program region) or C797 (programs by GPU
  /// address; they must then be SM86 programs).
  maxwell::ClassId threed = maxwell::ClassId::threed;

  /// The standard programs: position = generic 0, colour = generic 1 passed through; fragment colour = the
  /// interpolated generic 0. `sm86`: the same programs for the Ampere 3D class (SM86, the SPH padded to 0x80).
  void write_pass_through_programs(bool sm86 = false);
  /// Binds the programs, colour target 0 (`format`, `width` x `height`, block-linear with 1-GOB blocks), CT
  /// write mask RGBA, viewport 0 mapping NDC onto the whole target (z: 0..1 mode, z_window = z_ndc), vertex
  /// stream 0 at kVertices with `stride` and attributes 0 (position) and 1 (colour) as RGBA32F at 0 and 16.
  void setup(maxwell::StreamBuilder& s, uint32_t format, uint32_t width, uint32_t height, uint32_t stride = 32);
  /// Places and runs `s`, then flushes the renderer; requires the processor to go idle.
  void run(const maxwell::StreamBuilder& s);
  void write_floats(uint64_t address, const std::vector<float>& values);
  void write_words(uint64_t address, std::span<const uint32_t> words);
  /// Points the TIC/TSC pools at `headers` / `samplers` (their limits as given) and puts the bindless handle
  /// `handle` (TIC index | TSC index << 20) in c[2][0] of the fragment group, where the TEX of the programs reads it.
  void bind_textures(maxwell::StreamBuilder& s, uint64_t headers, uint64_t samplers, uint32_t handle = 0, uint32_t limit = 0);
  /// The colour target read back from guest memory, deswizzled (1-GOB block-linear, `bytes` per texel).
  std::vector<uint8_t> read_target(uint64_t address, uint32_t width, uint32_t height, uint32_t bytes) const;
};

/// A test fixture: a validating context (synchronization validation on) and a scene with the pass-through
/// programs written.
struct PassThroughScene {
  PassThroughScene() { scene.write_pass_through_programs(); }
  vulkan::Context context{{.validation = true, .synchronization_validation = true}};
  RendererScene scene{context};
};

} // namespace kiln::test
