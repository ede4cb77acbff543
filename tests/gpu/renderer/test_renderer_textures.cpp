// Texture formats and header swizzles, sampled with nearest filtering onto an 8x8 RGBA8 target (one texel per
// pixel) and read back from guest memory. Expectations: the texel values written by the test through the format
// definition (UNORM n-bit: round(v * 255 / (2^n - 1)) on the 8-bit target), the header's component sources, and
// for BC1 kiln's CPU BCn decoder (runtime/gpu/textures/formats/bcn.h), which the renderer does not use (lavapipe
// samples BC1 natively).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "runtime/gpu/textures/blocklinear/surface.h"
#include "runtime/gpu/textures/blocklinear/swizzle.h"
#include "runtime/gpu/textures/formats/bcn.h"
#include "runtime/gpu/vulkan/context.h"
#include "tests/gpu/renderer/renderer_scene.h"
#include "translator/sass/sm5x/text_assembler.h"

using namespace kiln;
using namespace kiln::test;

namespace {

constexpr uint32_t kSize = 8;
constexpr uint64_t kTexture = kArena + 0x500000, kHeaders = kArena + 0x510000, kSamplers = kArena + 0x520000;

// TIC component sources (clb197tex.h TEXHEAD_BL X/Y/Z/W_SOURCE).
enum Source : uint32_t { ZERO = 0, R = 2, G = 3, B = 4, A = 5, ONE_INT = 6, ONE_FLOAT = 7 };

/// Writes `linear` (elements of `element`) block-linear with 1-GOB blocks, a TIC 0 with `components` (UNORM)
/// and the sources, a nearest-filtering TSC 0, draws a quad with (u, v) from (0, 0) to (1, 1) over the 8x8
/// RGBA8 target, and returns the target.
std::vector<uint8_t> sample(RendererScene& scene, uint32_t components, textures::ElementFormat element, const std::vector<uint8_t>& linear,
                            std::array<Source, 4> sources) {
  textures::SurfaceDescription description;
  description.width = kSize;
  description.height = kSize;
  description.element = element;
  description.block_height_log2 = 0;
  const auto layout = textures::SurfaceLayout::compute(description);
  std::vector<uint8_t> guest(layout.total_size());
  textures::swizzle(layout, 0, 0, textures::whole_level(layout, 0), linear, guest);
  scene.gpu.memory().write(kTexture, guest);
  // TEXHEAD_BL word 0: COMPONENTS 6:0, R/G/B/A data types (2 = UNORM) at 7, 10, 13, 16, X/Y/Z/W sources at 19,
  // 22, 25, 28; word 2: address high, HEADER_VERSION BLOCKLINEAR (3) at 21; words 4/5: width/height - 1, 2D.
  const uint32_t tic[8] = {components | (2u << 7) | (2u << 10) | (2u << 13) | (2u << 16) | (sources[0] << 19) | (sources[1] << 22) |
                               (sources[2] << 25) | (sources[3] << 28),
                           low(kTexture), high(kTexture) | (3u << 21), 0, (kSize - 1) | (1u << 23), (kSize - 1) | (1u << 31), 0, 0};
  const uint32_t tsc[8] = {2u | (2u << 3) | (2u << 6), 1u | (1u << 4) | (1u << 6), 0, 0, 0, 0, 0, 0}; // clamp, point, no mips
  scene.gpu.memory().write(kHeaders, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(tic), 32));
  scene.gpu.memory().write(kSamplers, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(tsc), 32));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, kSize, kSize);
  s.method(0, "SET_TEX_HEADER_POOL_A", high(kHeaders)).method(0, "SET_TEX_HEADER_POOL_B", low(kHeaders)).method(0, "SET_TEX_HEADER_POOL_C", 0);
  s.method(0, "SET_TEX_SAMPLER_POOL_A", high(kSamplers)).method(0, "SET_TEX_SAMPLER_POOL_B", low(kSamplers)).method(0, "SET_TEX_SAMPLER_POOL_C", 0);
  const uint32_t selector[] = {0x100, high(kConstants), low(kConstants)};
  s.incrementing(0, "SET_CONSTANT_BUFFER_SELECTOR_A", selector);
  s.method(0, "LOAD_CONSTANT_BUFFER_OFFSET", 0).method(0, "LOAD_CONSTANT_BUFFER", 0, 0); // handle: TIC 0, TSC 0
  s.method(0, "BIND_GROUP_CONSTANT_BUFFER", 4, 1u | (2u << 4));                       // fragment group, c[2]
  draw_arrays(s, 0, 4, 7);                                                             // QUADS
  scene.run(s);
  return scene.read_target(kColorTarget, kSize, kSize, 4);
}

void prepare(RendererScene& scene) {
  scene.write_pass_through_programs();
  const auto fragment = program(pixel_header(), sass::sm5x::assemble_program({"IPA.PASS R0, a[0x80], RZ", "IPA.PASS R1, a[0x84], RZ",
                                                                              "TEX R0, R0, RZ, 0x0, 2D, 0xf", "EXIT"}));
  scene.gpu.memory().write(kPrograms + kFragmentProgramOffset, fragment);
  // Pixel centre (x + 0.5) / 8 lies in the middle of texel x: nearest filtering reads texel (x, y).
  scene.write_floats(kVertices, concat({vertex(-1, -1, 0.5f, {0, 0, 0, 1}), vertex(1, -1, 0.5f, {1, 0, 0, 1}), vertex(1, 1, 0.5f, {1, 1, 0, 1}),
                                        vertex(-1, 1, 0.5f, {0, 1, 0, 1})}));
}

uint8_t select(Source source, const std::array<uint8_t, 4>& texel) {
  switch (source) {
  case ZERO: return 0;
  case R: return texel[0];
  case G: return texel[1];
  case B: return texel[2];
  case A: return texel[3];
  default: return 255; // ONE_INT, ONE_FLOAT on a UNORM view: 1.0
  }
}

} // namespace

TEST_CASE("RGBA8 textures read through each kind of header component source", "[gpu][renderer][golden]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  RendererScene scene(context);
  prepare(scene);
  auto texel_at = [](uint32_t x, uint32_t y) {
    return std::array<uint8_t, 4>{static_cast<uint8_t>(32 * x), static_cast<uint8_t>(32 * y), 200, static_cast<uint8_t>(100 + x + 8 * y)};
  };
  std::vector<uint8_t> linear(kSize * kSize * 4);
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) std::memcpy(&linear[(y * kSize + x) * 4], texel_at(x, y).data(), 4);
  }
  const std::array<Source, 4> swizzles[] = {{R, G, B, A}, {A, B, G, R}, {ONE_FLOAT, ZERO, R, R}, {G, G, G, ONE_INT}, {ZERO, A, ZERO, B}};
  for (const auto& sources : swizzles) {
    const auto pixels = sample(scene, 0x08, {4, 1, 1}, linear, sources); // A8B8G8R8
    size_t wrong = 0;
    for (uint32_t y = 0; y < kSize; ++y) {
      for (uint32_t x = 0; x < kSize; ++x) {
        const auto texel = texel_at(x, y);
        const std::array<uint8_t, 4> expected{select(sources[0], texel), select(sources[1], texel), select(sources[2], texel), select(sources[3], texel)};
        wrong += texel8(pixels, kSize, x, y) != expected;
      }
    }
    INFO("sources " << sources[0] << " " << sources[1] << " " << sources[2] << " " << sources[3]);
    CHECK(wrong == 0);
  }
  check_no_validation_messages(context);
}

TEST_CASE("a B5G6R5 texture reads red from its low bits and expands each field to the UNORM value it encodes", "[gpu][renderer][golden]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  RendererScene scene(context);
  prepare(scene);
  // COMPONENTS B5G6R5 (0x15), fields named from the most significant bit: R in bits 0-4, G in 5-10, B in 11-15
  // (Mesa's nouveau format table samples gallium's B5G6R5_UNORM, red in bits 11-15, from it with sources B, G, R).
  auto fields = [](uint32_t x, uint32_t y) { return std::array<uint32_t, 3>{4 * x + (y & 3), 9 * y, 31 - 3 * x}; };
  std::vector<uint8_t> linear(kSize * kSize * 2);
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      const auto [r, g, b] = fields(x, y);
      const auto texel = static_cast<uint16_t>(r | (g << 5) | (b << 11));
      std::memcpy(&linear[(y * kSize + x) * 2], &texel, 2);
    }
  }
  const auto pixels = sample(scene, 0x15, {2, 1, 1}, linear, {R, G, B, ONE_FLOAT});
  size_t wrong = 0;
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      const auto [r, g, b] = fields(x, y);
      const long expected[3] = {std::lround(r * 255.0 / 31), std::lround(g * 255.0 / 63), std::lround(b * 255.0 / 31)};
      // Vulkan lets the UNORM-to-float conversion of narrow fields be approximate; lavapipe replicates bits
      // (v << 3 | v >> 2), which differs from round(v * 255 / 31) by at most 1: 1 step of tolerance, alpha exact.
      const auto got = texel8(pixels, kSize, x, y);
      bool ok = got[3] == 255;
      for (int c = 0; c < 3; ++c) ok &= std::abs(long{got[c]} - expected[c]) <= 1;
      if (!ok && wrong++ < 4) {
        UNSCOPED_INFO("texel (" << x << ", " << y << "): " << int(texel8(pixels, kSize, x, y)[0]) << " " << int(texel8(pixels, kSize, x, y)[1]) << " "
                                << int(texel8(pixels, kSize, x, y)[2]) << ", expected " << expected[0] << " " << expected[1] << " " << expected[2]);
      }
    }
  }
  CHECK(wrong == 0);
  check_no_validation_messages(context);
}

TEST_CASE("BC1 blocks in four-colour and transparent modes sample as the CPU decoder decodes them", "[gpu][renderer][golden]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  RendererScene scene(context);
  prepare(scene);
  // 2x2 blocks (row-major): colour0 > colour1 gives four colours (two interpolated thirds); colour0 <= colour1
  // gives three and transparent black for index 3. Indices: 2 bits per texel, row-major from bit 0.
  auto block = [](uint16_t c0, uint16_t c1, uint32_t indices) {
    std::array<uint8_t, 8> b{};
    std::memcpy(&b[0], &c0, 2);
    std::memcpy(&b[2], &c1, 2);
    std::memcpy(&b[4], &indices, 4);
    return b;
  };
  const std::array<uint8_t, 8> blocks[4] = {block(0xf800, 0x001f, 0xe4e4e4e4), block(0x07e0, 0x0000, 0x1b1b1b1b),
                                            block(0x001f, 0xffe0, 0xe4e4e4e4), block(0x0000, 0xffff, 0x4e4e4e4e)};
  std::vector<uint8_t> linear;
  for (const auto& b : blocks) linear.insert(linear.end(), b.begin(), b.end());
  const RgbaImage reference = textures::decode_bc(textures::BcFormat::bc1, kSize, kSize, linear, "bc1 test blocks");
  const auto pixels = sample(scene, 0x24, {8, 4, 4}, linear, {R, G, B, A}); // COMPONENTS DXT1
  size_t wrong = 0;
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      const auto got = texel8(pixels, kSize, x, y);
      const uint8_t* expected = &reference.pixels[(y * kSize + x) * 4];
      // The BC1 definition leaves the rounding of the interpolated thirds to the implementation: 1 step of
      // tolerance on colour channels; alpha (opaque or the transparent index) is exact.
      bool ok = got[3] == expected[3];
      for (int c = 0; c < 3; ++c) ok &= std::abs(int(got[c]) - int(expected[c])) <= 1;
      if (!ok && wrong++ < 4) {
        UNSCOPED_INFO("texel (" << x << ", " << y << "): " << int(got[0]) << " " << int(got[1]) << " " << int(got[2]) << " " << int(got[3])
                                << ", decoder " << int(expected[0]) << " " << int(expected[1]) << " " << int(expected[2]) << " " << int(expected[3]));
      }
    }
  }
  CHECK(wrong == 0);
  check_no_validation_messages(context);
}
