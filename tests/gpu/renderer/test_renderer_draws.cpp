// Draws through the command processor and the Vulkan renderer on lavapipe, checked against values derived by
// hand in each test. Targets are read back from guest memory (block-linear, 1-GOB blocks), so each test also
// covers upload, rendering and the write-back re-swizzle.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <filesystem>

#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/textures/blocklinear/swizzle.h"
#include "translator/sass/sm5x/text_assembler.h"
#include "runtime/gpu/vulkan/context.h"
#include "tests/gpu/renderer/renderer_scene.h"

using namespace kiln;
using namespace kiln::test;
using kiln::sass::sm5x::assemble_program;
using kiln::sass::sm5x::assemble_sass;


TEST_CASE_METHOD(PassThroughScene, "a full-screen triangle fills an RGBA8 block-linear target with its colour", "[gpu][renderer]") {
  // Colour (1, 0.25, 0, 1) on every vertex: UNORM8 stores round(c * 255): 255, 63.75 -> 64, 0, 255.
  scene.write_floats(kVertices, fullscreen(0.5f, {1.0f, 0.25f, 0.0f, 1.0f}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 64, 32);
  draw_arrays(s, 0, 3);
  scene.run(s);
  const auto pixels = scene.read_target(kColorTarget, 64, 32, 4);
  CHECK(count_wrong_texels(pixels, 64, 32, std::array<uint8_t, 4>{255, 64, 0, 255}) == 0);
  CHECK(scene.renderer->statistics().target_write_backs == 1);
  check_no_validation_messages(context);
}


TEST_CASE_METHOD(PassThroughScene, "a clear cut by scissor 0 changes only the pixels inside the rectangle", "[gpu][renderer]") {
  // The target's guest memory starts as 0x11 bytes: the renderer must upload it, and the write-back must keep
  // it outside the scissor.
  scene.gpu.memory().write(kColorTarget, std::vector<uint8_t>(64 * 32 * 4, 0x11));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 64, 32);
  for (uint32_t c = 0; c < 4; ++c) s.method(0, "SET_COLOR_CLEAR_VALUE", c, std::bit_cast<uint32_t>(c % 2 == 1 ? 1.0f : 0.0f));
  s.method(0, "SET_SCISSOR_ENABLE", 0, 1);
  s.method(0, "SET_SCISSOR_HORIZONTAL", 0, 8u | (24u << 16)).method(0, "SET_SCISSOR_VERTICAL", 0, 4u | (20u << 16));
  s.method(0, "SET_CLEAR_SURFACE_CONTROL", 1u << 8); // USE_SCISSOR0
  s.method(0, "CLEAR_SURFACE", 0xfu << 2);
  scene.run(s);
  const auto pixels = scene.read_target(kColorTarget, 64, 32, 4);
  CHECK(count_wrong_texels(pixels, 64, 32, [&](uint32_t x, uint32_t y) {
    const bool inside = x >= 8 && x < 24 && y >= 4 && y < 20; // scissor [x_min, x_max) x [y_min, y_max)
    const std::array<uint8_t, 4> expected = inside ? std::array<uint8_t, 4>{0, 255, 0, 255} : std::array<uint8_t, 4>{0x11, 0x11, 0x11, 0x11};
    return expected;
  }) == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "depth-tested draws keep the nearer colour and write their depth", "[gpu][renderer]") {
  const std::array<float, 4> red{1, 0, 0, 1}, green{0, 1, 0, 1}, blue{0, 0, 1, 1};
  // Left half x in [-1, 0] -> window x in [0, 32): two triangles.
  const std::vector<float> left = concat({vertex(-1, -1, 0.25f, blue), vertex(0, -1, 0.25f, blue), vertex(-1, 1, 0.25f, blue),
                                          vertex(0, -1, 0.25f, blue), vertex(0, 1, 0.25f, blue), vertex(-1, 1, 0.25f, blue)});
  scene.write_floats(kVertices, concat({fullscreen(0.5f, red), fullscreen(0.75f, green), left}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 64, 32);
  s.method(0, "SET_ZT_A", high(kDepthTarget)).method(0, "SET_ZT_B", low(kDepthTarget));
  s.method(0, "SET_ZT_FORMAT", 0x0a).method(0, "SET_ZT_BLOCK_SIZE", 0); // ZF32, 1-GOB blocks
  s.method(0, "SET_ZT_SIZE_A", 64).method(0, "SET_ZT_SIZE_B", 32).method(0, "SET_ZT_SIZE_C", 1).method(0, "SET_ZT_SELECT", 1);
  clear_color(s, {0, 0, 0, 0});
  s.method(0, "SET_Z_CLEAR_VALUE", std::bit_cast<uint32_t>(1.0f)).method(0, "CLEAR_SURFACE", 1); // Z
  s.method(0, "SET_DEPTH_TEST", 1).method(0, "SET_DEPTH_WRITE", 1).method(0, "SET_DEPTH_FUNC", 0x201); // OGL LESS
  draw_arrays(s, 0, 3); // red at 0.5: passes against 1.0
  draw_arrays(s, 3, 3); // green at 0.75: fails against 0.5
  draw_arrays(s, 6, 6); // blue at 0.25 on the left half: passes
  scene.run(s);
  const auto pixels = scene.read_target(kColorTarget, 64, 32, 4);
  const auto depth = scene.read_target(kDepthTarget, 64, 32, 4);
  size_t wrong_color = 0, wrong_depth = 0;
  for (uint32_t y = 0; y < 32; ++y) {
    for (uint32_t x = 0; x < 64; ++x) {
      const bool left_half = x < 32;
      const std::array<uint8_t, 4> expected = left_half ? std::array<uint8_t, 4>{0, 0, 255, 255} : std::array<uint8_t, 4>{255, 0, 0, 255};
      wrong_color += texel8(pixels, 64, x, y) != expected;
      float z;
      std::memcpy(&z, &depth[(size_t{y} * 64 + x) * 4], 4);
      // z_window = scale_z * z_ndc + offset_z = z_ndc (scale 1, offset 0, 0..1 mode): exactly 0.25 or 0.5.
      wrong_depth += z != (left_half ? 0.25f : 0.5f);
    }
  }
  CHECK(wrong_color == 0);
  CHECK(wrong_depth == 0);
  // Three draws with the same programs and state: two translations, one pipeline, reused twice.
  CHECK(scene.renderer->statistics().shaders_translated == 2);
  CHECK(scene.renderer->statistics().pipelines_created == 1);
  CHECK(scene.renderer->statistics().pipeline_cache_hits == 2);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "blending follows the blend equation on an RGBA32F target", "[gpu][renderer]") {
  scene.write_floats(kVertices, fullscreen(0.5f, {1.0f, 0.0f, 0.0f, 0.5f}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba32f, 16, 8);
  clear_color(s, {0, 0, 1, 1});
  s.method(0, "SET_BLEND", 0, 1).method(0, "SET_BLEND_SEPARATE_FOR_ALPHA", 0);
  s.method(0, "SET_BLEND_COLOR_OP", 0x8006);                                               // OGL FUNC_ADD
  s.method(0, "SET_BLEND_COLOR_SOURCE_COEFF", 0x4302).method(0, "SET_BLEND_COLOR_DEST_COEFF", 0x4303); // SRC_ALPHA, 1 - SRC_ALPHA
  draw_arrays(s, 0, 3);
  scene.run(s);
  // result = src * src.a + dst * (1 - src.a) with src (1, 0, 0, 0.5), dst (0, 0, 1, 1), alpha the same way:
  // r = 0.5, g = 0, b = 0.5, a = 0.5 * 0.5 + 1 * 0.5 = 0.75 (all exact in binary floating point).
  const auto pixels = scene.read_target(kColorTarget, 16, 8, 16);
  const float expected[4] = {0.5f, 0.0f, 0.5f, 0.75f};
  size_t wrong = 0;
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 16; ++x) {
      for (uint32_t c = 0; c < 4; ++c) wrong += texel_f32(pixels, 16, x, y, c) != expected[c];
    }
  }
  CHECK(wrong == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "triangle edges through pixel centres follow the top-left rule", "[gpu][renderer]") {
  // On an 8x8 target the viewport maps window = 4 * ndc + 4. The triangle (0.5, 0.5), (4.5, 0.5), (0.5, 4.5) in
  // window coordinates has its top edge on the centres of row 0, its left edge on the centres of column 0, and
  // its hypotenuse x + y = 5 on the centres with x + y = 4 (pixel (x, y) has centre (x + 0.5, y + 0.5)).
  // Top-left rule: centres on a top or left edge are inside, on the hypotenuse (a right/bottom edge) outside.
  // Covered: x >= 0, y >= 0, x + y < 4: 4 + 3 + 2 + 1 = 10 pixels.
  const std::array<float, 4> white{1, 1, 1, 1};
  auto ndc = [](float window) { return (window - 4.0f) / 4.0f; };
  scene.write_floats(kVertices, concat({vertex(ndc(0.5f), ndc(0.5f), 0.5f, white), vertex(ndc(4.5f), ndc(0.5f), 0.5f, white),
                                        vertex(ndc(0.5f), ndc(4.5f), 0.5f, white)}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 8, 8);
  clear_color(s, {0, 0, 0, 0});
  draw_arrays(s, 0, 3);
  scene.run(s);
  const auto pixels = scene.read_target(kColorTarget, 8, 8, 4);
  size_t wrong = 0, covered = 0;
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 8; ++x) {
      const bool inside = x + y < 4;
      const bool lit = texel8(pixels, 8, x, y)[0] == 255;
      covered += lit;
      if (lit != inside) {
        ++wrong;
        UNSCOPED_INFO("pixel (" << x << ", " << y << ") lit " << lit);
      }
    }
  }
  CHECK(covered == 10);
  CHECK(wrong == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "8-bit indices with a primitive restart index that is not all ones split the strip", "[gpu][renderer]") {
  const std::array<float, 4> red{1, 0, 0, 1}, green{0, 1, 0, 1}, blue{0, 0, 1, 1};
  // Vertices 0-3: a strip quad over x in [-1, -0.5] (window x 0..8 of 32); 4: unused; 5: a blue vertex in the
  // middle, which is also the restart index; 6-9: a strip quad over x in [0.5, 1] (window x 24..32).
  // Indices 0 1 2 3 5 6 7 8 9 with restart index 5: two quads and nothing between them. Were 5 drawn as a
  // vertex, triangles (2, 3, 5) and (3, 5, 6) would paint the middle columns blue.
  scene.write_floats(kVertices, concat({vertex(-1, -1, 0.5f, red), vertex(-1, 1, 0.5f, red), vertex(-0.5f, -1, 0.5f, red),
                                        vertex(-0.5f, 1, 0.5f, red), vertex(0, 0, 0.5f, blue), vertex(0, 0, 0.5f, blue),
                                        vertex(0.5f, -1, 0.5f, green), vertex(0.5f, 1, 0.5f, green), vertex(1, -1, 0.5f, green),
                                        vertex(1, 1, 0.5f, green)}));
  const std::vector<uint8_t> indices = {0, 1, 2, 3, 5, 6, 7, 8, 9};
  scene.gpu.memory().write(kIndices, indices);
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 32, 8);
  clear_color(s, {0, 0, 0, 0});
  s.method(0, "SET_INDEX_BUFFER_A", high(kIndices)).method(0, "SET_INDEX_BUFFER_B", low(kIndices));
  s.method(0, "SET_INDEX_BUFFER_C", high(kIndices + 0xff)).method(0, "SET_INDEX_BUFFER_D", low(kIndices + 0xff));
  s.method(0, "SET_INDEX_BUFFER_E", 0).method(0, "SET_INDEX_BUFFER_F", 0); // ONE_BYTE indices from index 0
  s.method(0, "SET_DA_PRIMITIVE_RESTART", 1);
  // SET_DA_PRIMITIVE_RESTART_INDEX (0x1648, clb197.h) is missing from the generated method names: by offset.
  s.header(maxwell::HeaderKind::increasing, 0, 0x1648, 1).word(5);
  s.method(0, "BEGIN", 5).method(0, "DRAW_INDEX_BUFFER", 9).method(0, "END", 0); // TRIANGLE_STRIP
  scene.run(s);
  const auto pixels = scene.read_target(kColorTarget, 32, 8, 4);
  CHECK(count_wrong_texels(pixels, 32, 8, [&](uint32_t x, uint32_t) {
    std::array<uint8_t, 4> expected{0, 0, 0, 0};
    if (x < 8) expected = {255, 0, 0, 255};
    if (x >= 24) expected = {0, 255, 0, 255};
    return expected;
  }) == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "scaled, 3-component vertex formats are widened and quads are drawn as two triangles", "[gpu][renderer]") {
  // Stride 12: position R16G16B16A16 SSCALED (-1/+1 integers read as floats), colour R8G8B8 UNORM (alpha reads
  // 1). The colour (255, 51, 0) reads (1.0, 0.2, 0.0, 1.0) and stores back as (255, 51, 0, 255).
  // BEGIN QUADS with the four corners: one quad covering the whole target.
  std::vector<uint8_t> bytes;
  const int16_t corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  for (const auto& corner : corners) {
    const int16_t position[4] = {corner[0], corner[1], 0, 1};
    const uint8_t* raw = reinterpret_cast<const uint8_t*>(position);
    bytes.insert(bytes.end(), raw, raw + 8);
    bytes.insert(bytes.end(), {255, 51, 0, 0xee}); // the fourth byte is padding the attribute must not read
  }
  scene.gpu.memory().write(kVertices, bytes);
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 16, 16, 12);
  clear_color(s, {0, 0, 0, 0});
  s.method(0, "SET_VERTEX_ATTRIBUTE_A", 0, 0u | (0u << 7) | (0x03u << 21) | (6u << 27)); // R16G16B16A16 SSCALED
  s.method(0, "SET_VERTEX_ATTRIBUTE_A", 1, 0u | (8u << 7) | (0x13u << 21) | (2u << 27)); // R8G8B8 UNORM
  draw_arrays(s, 0, 4, 7); // QUADS
  scene.run(s);
  const auto pixels = scene.read_target(kColorTarget, 16, 16, 4);
  CHECK(count_wrong_texels(pixels, 16, 16, std::array<uint8_t, 4>{255, 51, 0, 255}) == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "a colour clear with a channel mask writes only the masked channels", "[gpu][renderer]") {
  scene.gpu.memory().write(kColorTarget, std::vector<uint8_t>(16 * 8 * 4, 0x11));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 16, 8);
  for (uint32_t c = 0; c < 4; ++c) s.method(0, "SET_COLOR_CLEAR_VALUE", c, std::bit_cast<uint32_t>(1.0f));
  s.method(0, "SET_SCISSOR_ENABLE", 0, 1);
  s.method(0, "SET_SCISSOR_HORIZONTAL", 0, 4u | (12u << 16)).method(0, "SET_SCISSOR_VERTICAL", 0, 0u | (8u << 16));
  s.method(0, "SET_CLEAR_SURFACE_CONTROL", 1u << 8);      // USE_SCISSOR0
  s.method(0, "CLEAR_SURFACE", (1u << 3) | (1u << 5));    // G and A only
  scene.run(s);
  // Inside x in [4, 12): G and A become 1.0 -> 255, R and B keep 0x11. Outside: all 0x11.
  const auto pixels = scene.read_target(kColorTarget, 16, 8, 4);
  CHECK(count_wrong_texels(pixels, 16, 8, [&](uint32_t x, uint32_t) {
    const bool inside = x >= 4 && x < 12;
    const std::array<uint8_t, 4> expected = inside ? std::array<uint8_t, 4>{0x11, 255, 0x11, 255} : std::array<uint8_t, 4>{0x11, 0x11, 0x11, 0x11};
    return expected;
  }) == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "a stencil clear under a write mask keeps the unmasked stencil bits and the depth", "[gpu][renderer]") {
  // Z24S8 (SET_ZT_FORMAT 0x14): components named MSB first, so each word is depth << 8 | stencil. Start with
  // depth 0x123456 and stencil 0xa5 everywhere; clear stencil to 0x3c under mask 0x0f:
  // (0xa5 & ~0x0f) | (0x3c & 0x0f) = 0xa0 | 0x0c = 0xac; the depth stays 0x123456.
  std::vector<uint8_t> initial(16 * 8 * 4);
  for (size_t i = 0; i < 16 * 8; ++i) {
    const uint32_t word = (0x123456u << 8) | 0xa5u;
    std::memcpy(&initial[4 * i], &word, 4);
  }
  scene.gpu.memory().write(kDepthTarget, initial);
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 16, 8);
  s.method(0, "SET_ZT_A", high(kDepthTarget)).method(0, "SET_ZT_B", low(kDepthTarget));
  s.method(0, "SET_ZT_FORMAT", 0x14).method(0, "SET_ZT_BLOCK_SIZE", 0);
  s.method(0, "SET_ZT_SIZE_A", 16).method(0, "SET_ZT_SIZE_B", 8).method(0, "SET_ZT_SIZE_C", 1).method(0, "SET_ZT_SELECT", 1);
  s.method(0, "SET_STENCIL_MASK", 0x0f).method(0, "SET_STENCIL_CLEAR_VALUE", 0x3c);
  s.method(0, "SET_CLEAR_SURFACE_CONTROL", 1); // RESPECT_STENCIL_MASK
  s.method(0, "CLEAR_SURFACE", 1u << 1);      // stencil only
  scene.run(s);
  const auto words = scene.read_target(kDepthTarget, 16, 8, 4);
  size_t wrong = 0;
  for (size_t i = 0; i < 16 * 8; ++i) {
    uint32_t word;
    std::memcpy(&word, &words[4 * i], 4);
    wrong += word != ((0x123456u << 8) | 0xacu);
  }
  CHECK(wrong == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "a textured quad with nearest filtering reproduces the texture through the header's swizzle", "[gpu][renderer]") {
  // Fragment program: (u, v) from generic 0, TEX through bound texture 0 (its handle in c[2][0]).
  const auto fragment = sampling_fragment_program({"TEX R0, R0, RZ, 0x0, 2D, 0xf"});
  scene.gpu.memory().write(kPrograms + kFragmentProgramOffset, fragment);
  // An 8x8 A8B8G8R8 UNORM texture, block-linear with 1-GOB blocks: texel (x, y) = (32x, 32y, 200, 255).
  const uint64_t texture = kArena + 0x500000, headers = kArena + 0x510000, samplers = kArena + 0x520000;
  std::vector<uint8_t> texels(8 * 8 * 4);
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 8; ++x) {
      const uint8_t texel[4] = {static_cast<uint8_t>(32 * x), static_cast<uint8_t>(32 * y), 200, 255};
      std::memcpy(&texels[(y * 8 + x) * 4], texel, 4);
    }
  }
  textures::SurfaceDescription description;
  description.width = 8;
  description.height = 8;
  description.element.bytes = 4;
  description.block_height_log2 = 0;
  const auto layout = textures::SurfaceLayout::compute(description);
  std::vector<uint8_t> guest(layout.total_size());
  textures::swizzle(layout, 0, 0, textures::whole_level(layout, 0), texels, guest);
  scene.gpu.memory().write(texture, guest);
  // TIC 3 (clb197tex.h TEXHEAD_BL): COMPONENTS A8B8G8R8 (8), R/G/B/A UNORM (2), sources X = B (4), Y = G (3),
  // Z = R (2), W = A (5); address; HEADER_VERSION BLOCKLINEAR (3); 1-GOB blocks, one level; 2D (1), 8x8,
  // normalized coordinates. The swizzle swaps red and blue, so pixel (x, y) must read (200, 32y, 32x, 255).
  const uint32_t tic[8] = {0x08u | (2u << 7) | (2u << 10) | (2u << 13) | (2u << 16) | (4u << 19) | (3u << 22) | (2u << 25) | (5u << 28),
                           low(texture) & 0xfffffe00u, high(texture) | (3u << 21), 0, 7u | (1u << 23), 7u | (1u << 31), 0, 0};
  // TSC 1: CLAMP_TO_EDGE (2) in U, V, P; MAG_POINT (1), MIN_POINT (1), MIP_NONE (1).
  const auto tsc = nearest_clamp_sampler();
  scene.write_words(headers + 3 * 32, tic);
  scene.write_words(samplers + 1 * 32, tsc);
  // A quad over the whole target, (u, v) = (0, 0) at the top-left corner to (1, 1): pixel centre (x + 0.5) / 8
  // lies in the middle of texel x, so nearest filtering picks texel (x, y) exactly.
  scene.write_floats(kVertices, concat({vertex(-1, -1, 0.5f, {0, 0, 0, 1}), vertex(1, -1, 0.5f, {1, 0, 0, 1}), vertex(1, 1, 0.5f, {1, 1, 0, 1}),
                                        vertex(-1, 1, 0.5f, {0, 1, 0, 1})}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 8, 8);
  scene.bind_textures(s, headers, samplers, 3u | (1u << 20), 15); // handle: TIC 3, TSC 1
  draw_arrays(s, 0, 4, 7); // QUADS
  scene.run(s);
  const auto pixels = scene.read_target(kColorTarget, 8, 8, 4);
  CHECK(count_wrong_texels(pixels, 8, 8, [](uint32_t x, uint32_t y) {
          return std::array<uint8_t, 4>{200, static_cast<uint8_t>(32 * y), static_cast<uint8_t>(32 * x), 255};
        }) == 0);
  CHECK(scene.renderer->statistics().texture_uploads == 1);
  check_no_validation_messages(context);
}

TEST_CASE("the window origin decides which rows a triangle lands on, not which winding is front-facing", "[gpu][renderer]") {
  // NDC y grows upwards here (GL). Bottom half y in [-1, 0]: two counter-clockwise triangles, front faces under
  // OGL_SET_FRONT_FACE CCW; top half y in [0, 1]: two clockwise triangles, culled as back faces. Window
  // y = 16 * ndc + 16. LOWER_LEFT counts window rows from the bottom of the surface, so the bottom half is memory
  // rows 16..31; UPPER_LEFT counts from the top, so it is rows 0..15. Facing follows GL, which keeps the NDC
  // winding meaning under an upper-left origin (the area's sign is reversed there): red survives either way.
  for (const bool lower_left : {true, false}) {
    vulkan::Context context({.validation = true, .synchronization_validation = true});
    RendererScene scene(context);
    scene.write_pass_through_programs();
    const std::array<float, 4> red{1, 0, 0, 1}, blue{0, 0, 1, 1};
    scene.write_floats(kVertices, concat({vertex(-1, -1, 0.5f, red), vertex(1, -1, 0.5f, red), vertex(1, 0, 0.5f, red),
                                          vertex(-1, -1, 0.5f, red), vertex(1, 0, 0.5f, red), vertex(-1, 0, 0.5f, red),
                                          vertex(-1, 0, 0.5f, blue), vertex(-1, 1, 0.5f, blue), vertex(1, 1, 0.5f, blue),
                                          vertex(-1, 0, 0.5f, blue), vertex(1, 1, 0.5f, blue), vertex(1, 0, 0.5f, blue)}));
    maxwell::StreamBuilder s;
    scene.setup(s, kRgba8, 16, 32);
    clear_color(s, {0, 0, 0, 0});
    s.method(0, "SET_WINDOW_ORIGIN", lower_left ? 1 : 0);
    s.method(0, "OGL_SET_CULL", 1).method(0, "OGL_SET_FRONT_FACE", 0x901); // front faces counter-clockwise
    s.header(maxwell::HeaderKind::increasing, 0, 0x1920, 1).word(0x405);   // OGL_SET_CULL_FACE BACK (not in the generated names)
    draw_arrays(s, 0, 12);
    scene.run(s);
    const auto pixels = scene.read_target(kColorTarget, 16, 32, 4);
    INFO("lower-left " << lower_left);
    CHECK(count_wrong_texels(pixels, 16, 32, [&](uint32_t, uint32_t y) {
            const bool red_row = lower_left ? y >= 16 : y < 16;
            return red_row ? std::array<uint8_t, 4>{255, 0, 0, 255} : std::array<uint8_t, 4>{0, 0, 0, 0};
          }) == 0);
    check_no_validation_messages(context);
  }
}

TEST_CASE_METHOD(PassThroughScene, "a render target sampled by a later draw shows what the GPU rendered into it", "[gpu][renderer]") {
  const auto sampling = sampling_fragment_program({"TEX R0, R0, RZ, 0x0, 2D, 0xf"});
  constexpr uint32_t kSamplingOffset = 0x2000;
  scene.gpu.memory().write(kPrograms + kSamplingOffset, sampling);
  const uint64_t second_target = kArena + 0x380000, headers = kArena + 0x510000, samplers = kArena + 0x520000;
  // Pass 1 fills the 8x8 target at kColorTarget with (0.2, 0.4, 0.6, 1.0): UNORM8 51, 102, 153, 255 (exact:
  // 0.2 * 255 = 51). Pass 2 samples that target as an 8x8 A8B8G8R8 texture (identity swizzle, nearest) over a
  // quad into a second target: every pixel must read 51, 102, 153, 255, which only holds if the first pass's
  // pixels reached guest memory (or the texture) before the second draw sampled them.
  const auto tic = rgba8_texture_header(kColorTarget, 8, 8);
  const auto tsc = nearest_clamp_sampler();
  scene.write_words(headers, tic);
  scene.write_words(samplers, tsc);
  scene.write_floats(kVertices, concat({fullscreen(0.5f, {0.2f, 0.4f, 0.6f, 1.0f}), vertex(-1, -1, 0.5f, {0, 0, 0, 1}),
                                        vertex(1, -1, 0.5f, {1, 0, 0, 1}), vertex(1, 1, 0.5f, {1, 1, 0, 1}), vertex(-1, 1, 0.5f, {0, 1, 0, 1})}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 8, 8);
  draw_arrays(s, 0, 3);
  s.method(0, "SET_COLOR_TARGET_A", 0, high(second_target)).method(0, "SET_COLOR_TARGET_B", 0, low(second_target));
  s.method(0, "SET_PIPELINE_PROGRAM", 5, kSamplingOffset);
  scene.bind_textures(s, headers, samplers); // handle: TIC 0, TSC 0
  draw_arrays(s, 3, 4, 7);
  scene.run(s);
  const auto pixels = scene.read_target(second_target, 8, 8, 4);
  CHECK(count_wrong_texels(pixels, 8, 8, std::array<uint8_t, 4>{51, 102, 153, 255}) == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "the -w..w depth clip range maps NDC z through the viewport's z scale and offset", "[gpu][renderer]") {
  // SET_VIEWPORT_Z_CLIP NEGATIVE_W_TO_POSITIVE_W with GL's depth range: scale_z = offset_z = 0.5, so
  // z_window = 0.5 * z_ndc + 0.5. A triangle at z_ndc = -0.5 is inside the -w..w clip volume (a 0..w clip would
  // discard it) and stores depth 0.25 exactly.
  scene.write_floats(kVertices, fullscreen(-0.5f, {0, 1, 0, 1}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 16, 8);
  s.method(0, "SET_VIEWPORT_Z_CLIP", 0);
  s.method(0, "SET_VIEWPORT_SCALE_Z", 0, std::bit_cast<uint32_t>(0.5f)).method(0, "SET_VIEWPORT_OFFSET_Z", 0, std::bit_cast<uint32_t>(0.5f));
  s.method(0, "SET_ZT_A", high(kDepthTarget)).method(0, "SET_ZT_B", low(kDepthTarget));
  s.method(0, "SET_ZT_FORMAT", 0x0a).method(0, "SET_ZT_BLOCK_SIZE", 0);
  s.method(0, "SET_ZT_SIZE_A", 16).method(0, "SET_ZT_SIZE_B", 8).method(0, "SET_ZT_SIZE_C", 1).method(0, "SET_ZT_SELECT", 1);
  clear_color(s, {0, 0, 0, 0});
  s.method(0, "SET_Z_CLEAR_VALUE", std::bit_cast<uint32_t>(1.0f)).method(0, "CLEAR_SURFACE", 1);
  s.method(0, "SET_DEPTH_TEST", 1).method(0, "SET_DEPTH_WRITE", 1).method(0, "SET_DEPTH_FUNC", 0x207); // OGL ALWAYS
  draw_arrays(s, 0, 3);
  scene.run(s);
  const auto pixels = scene.read_target(kColorTarget, 16, 8, 4);
  const auto depth = scene.read_target(kDepthTarget, 16, 8, 4);
  size_t wrong = 0;
  for (size_t i = 0; i < 16 * 8; ++i) {
    float z;
    std::memcpy(&z, &depth[4 * i], 4);
    wrong += z != 0.25f;
    wrong += texel8(pixels, 16, static_cast<uint32_t>(i % 16), static_cast<uint32_t>(i / 16)) != std::array<uint8_t, 4>{0, 255, 0, 255};
  }
  CHECK(wrong == 0);
  check_no_validation_messages(context);
}

TEST_CASE("the pipeline cache is written to its file and read back by the next renderer", "[gpu][renderer]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  const auto file = std::filesystem::path(KILN_RENDERER_OUTPUT_DIR) / "pipeline_cache.bin";
  std::filesystem::create_directories(file.parent_path());
  std::filesystem::remove(file);
  {
    RendererScene scene(context);
    scene.renderer = std::make_unique<vulkan::MaxwellRenderer>(context, scene.gpu.memory(), vulkan::MaxwellRendererOptions{.pipeline_cache_file = file});
    scene.gpu.set_backend(scene.renderer.get());
    scene.write_pass_through_programs();
    scene.write_floats(kVertices, fullscreen(0.5f, {1, 1, 1, 1}));
    maxwell::StreamBuilder s;
    scene.setup(s, kRgba8, 8, 8);
    draw_arrays(s, 0, 3);
    scene.run(s);
    CHECK(scene.renderer->statistics().pipelines_created == 1);
  } // the renderer saves its cache when destroyed
  REQUIRE(std::filesystem::exists(file));
  CHECK(std::filesystem::file_size(file) > 0);
  // A second renderer starts from the file (Vulkan checks its header) and draws the same frame.
  RendererScene scene(context);
  scene.renderer = std::make_unique<vulkan::MaxwellRenderer>(context, scene.gpu.memory(), vulkan::MaxwellRendererOptions{.pipeline_cache_file = file});
  scene.gpu.set_backend(scene.renderer.get());
  scene.write_pass_through_programs();
  scene.write_floats(kVertices, fullscreen(0.5f, {1, 1, 1, 1}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 8, 8);
  draw_arrays(s, 0, 3);
  scene.run(s);
  CHECK(scene.read_target(kColorTarget, 8, 8, 4)[0] == 255);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "a stencil written by one draw masks the next", "[gpu][renderer]") {
  // Draw A (left half, blue): stencil ALWAYS, ZPASS REPLACE with reference 1. Draw B (whole target, green):
  // stencil EQUAL 1, all ops KEEP. Left half: green over blue, stencil 1; right half: the black clear, stencil 0.
  const std::array<float, 4> blue{0, 0, 1, 1}, green{0, 1, 0, 1};
  const std::vector<float> left = concat({vertex(-1, -1, 0.5f, blue), vertex(0, -1, 0.5f, blue), vertex(-1, 1, 0.5f, blue),
                                          vertex(0, -1, 0.5f, blue), vertex(0, 1, 0.5f, blue), vertex(-1, 1, 0.5f, blue)});
  scene.write_floats(kVertices, concat({left, fullscreen(0.5f, green)}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 16, 8);
  s.method(0, "SET_ZT_A", high(kDepthTarget)).method(0, "SET_ZT_B", low(kDepthTarget));
  s.method(0, "SET_ZT_FORMAT", 0x14).method(0, "SET_ZT_BLOCK_SIZE", 0); // Z24S8: depth << 8 | stencil
  s.method(0, "SET_ZT_SIZE_A", 16).method(0, "SET_ZT_SIZE_B", 8).method(0, "SET_ZT_SIZE_C", 1).method(0, "SET_ZT_SELECT", 1);
  clear_color(s, {0, 0, 0, 0});
  s.method(0, "SET_STENCIL_CLEAR_VALUE", 0).method(0, "SET_Z_CLEAR_VALUE", std::bit_cast<uint32_t>(1.0f)).method(0, "CLEAR_SURFACE", 3);
  auto stencil_reference = [&](uint32_t value) { // SET_STENCIL_FUNC_REF (0x1394) and _FUNC_MASK (0x1398) by offset
    s.header(maxwell::HeaderKind::increasing, 0, 0x1394, 2).word(value).word(0xff);
  };
  s.method(0, "SET_STENCIL_TEST", 1).method(0, "SET_STENCIL_MASK", 0xff);
  s.method(0, "SET_STENCIL_OP_FAIL", 0x1e00).method(0, "SET_STENCIL_OP_ZFAIL", 0x1e00).method(0, "SET_STENCIL_OP_ZPASS", 0x1e01);
  s.method(0, "SET_STENCIL_FUNC", 0x207); // ALWAYS
  stencil_reference(1);
  draw_arrays(s, 0, 6);
  s.method(0, "SET_STENCIL_OP_ZPASS", 0x1e00).method(0, "SET_STENCIL_FUNC", 0x202); // KEEP, EQUAL
  draw_arrays(s, 6, 3);
  scene.run(s);
  const auto pixels = scene.read_target(kColorTarget, 16, 8, 4);
  const auto depth_stencil = scene.read_target(kDepthTarget, 16, 8, 4);
  size_t wrong = 0;
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 16; ++x) {
      const bool left_half = x < 8;
      wrong += texel8(pixels, 16, x, y) != (left_half ? std::array<uint8_t, 4>{0, 255, 0, 255} : std::array<uint8_t, 4>{0, 0, 0, 0});
      wrong += depth_stencil[(y * 16 + x) * 4] != (left_half ? 1 : 0); // the stencil byte is the low byte of the word
    }
  }
  CHECK(wrong == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "SET_CT_SELECT routes fragment outputs to the named colour target slots", "[gpu][renderer]") {
  // Fragment outputs: colour target 0 = the interpolated colour (R0-R3), colour target 1 = (0, 0, 1, 1) from
  // MOV32I (R4-R7). SET_CT_SELECT count 2, output 0 -> slot 1, output 1 -> slot 0: the memory of slot 1 must
  // hold the vertex colour (1, 0.25, 0, 1) -> (255, 64, 0, 255) and slot 0 blue.
  std::vector<uint8_t> header = pixel_header();
  for (uint32_t c = 0; c < 4; ++c) header[(576 + 4 + c) / 8] |= static_cast<uint8_t>(1u << ((576 + 4 + c) % 8)); // target 1 RGBA
  const auto fragment = program(header, assemble_program({"IPA.PASS R0, a[0x80], RZ", "IPA.PASS R1, a[0x84], RZ", "IPA.PASS R2, a[0x88], RZ",
                                                          "IPA.PASS R3, a[0x8c], RZ", "MOV32I R4, 0x0", "MOV32I R5, 0x0", "MOV32I R6, 0x3f800000",
                                                          "MOV32I R7, 0x3f800000", "EXIT"}));
  scene.gpu.memory().write(kPrograms + kFragmentProgramOffset, fragment);
  scene.write_floats(kVertices, fullscreen(0.5f, {1.0f, 0.25f, 0.0f, 1.0f}));
  const uint64_t slot1 = kArena + 0x380000;
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 8, 8);
  s.method(0, "SET_COLOR_TARGET_A", 1, high(slot1)).method(0, "SET_COLOR_TARGET_B", 1, low(slot1));
  s.method(0, "SET_COLOR_TARGET_WIDTH", 1, 8).method(0, "SET_COLOR_TARGET_HEIGHT", 1, 8);
  s.method(0, "SET_COLOR_TARGET_FORMAT", 1, kRgba8).method(0, "SET_COLOR_TARGET_MEMORY", 1, 0);
  s.method(0, "SET_CT_WRITE", 1, 0x1111);
  s.method(0, "SET_CT_SELECT", 2u | (1u << 4) | (0u << 7)); // TARGET_COUNT 2, TARGET0 = slot 1, TARGET1 = slot 0
  draw_arrays(s, 0, 3);
  scene.run(s);
  const auto first = scene.read_target(slot1, 8, 8, 4);
  const auto second = scene.read_target(kColorTarget, 8, 8, 4);
  CHECK(count_wrong_texels(first, 8, 8, std::array<uint8_t, 4>{255, 64, 0, 255}) == 0);
  CHECK(count_wrong_texels(second, 8, 8, std::array<uint8_t, 4>{0, 0, 255, 255}) == 0);
  check_no_validation_messages(context);
}

TEST_CASE("flat inputs come from the vertex SET_PROVOKING_VERTEX names", "[gpu][renderer]") {
  // A pixel program whose generic 0 is constant-interpolated (PixelImap 1 in the SPH): each pixel reads one
  // vertex's colour. Vertices red, green, blue: FIRST gives red everywhere, LAST (NVN's default) blue.
  for (const bool last : {false, true}) {
    vulkan::Context context({.validation = true, .synchronization_validation = true});
    RendererScene scene(context);
    scene.write_pass_through_programs();
    std::vector<uint8_t> header = pixel_header();
    for (uint32_t c = 0; c < 4; ++c) {
      header[(192 + 2 * c) / 8] |= static_cast<uint8_t>(1u << ((192 + 2 * c) % 8));      // low bit: 1
      header[(192 + 2 * c + 1) / 8] &= static_cast<uint8_t>(~(1u << ((192 + 2 * c + 1) % 8))); // high bit: 0
    }
    const auto fragment = program(header, assemble_program({"IPA.CONSTANT R0, a[0x80], RZ", "IPA.CONSTANT R1, a[0x84], RZ",
                                                            "IPA.CONSTANT R2, a[0x88], RZ", "IPA.CONSTANT R3, a[0x8c], RZ", "EXIT"}));
    scene.gpu.memory().write(kPrograms + kFragmentProgramOffset, fragment);
    scene.write_floats(kVertices, concat({vertex(-1, -1, 0.5f, {1, 0, 0, 1}), vertex(3, -1, 0.5f, {0, 1, 0, 1}), vertex(-1, 3, 0.5f, {0, 0, 1, 1})}));
    maxwell::StreamBuilder s;
    scene.setup(s, kRgba8, 8, 8);
    s.method(0, "SET_PROVOKING_VERTEX", last ? 1 : 0);
    draw_arrays(s, 0, 3);
    scene.run(s);
    const auto pixels = scene.read_target(kColorTarget, 8, 8, 4);
    const std::array<uint8_t, 4> expected = last ? std::array<uint8_t, 4>{0, 0, 255, 255} : std::array<uint8_t, 4>{255, 0, 0, 255};
    CHECK(count_wrong_texels(pixels, 8, 8, expected) == 0);
    check_no_validation_messages(context);
  }
}

TEST_CASE_METHOD(PassThroughScene, "a coordinate outside the texture reads the sampler's border colour", "[gpu][renderer]") {
  const auto fragment = sampling_fragment_program({"TEX R0, R0, RZ, 0x0, 2D, 0xf"});
  scene.gpu.memory().write(kPrograms + kFragmentProgramOffset, fragment);
  // (u, v) = (2, 2) at every vertex, outside [0, 1]; TSC ADDRESS_U/V/P BORDER (3) with border colour
  // (0.2, 0.4, 0.6, 1.0): every pixel reads it, stored as 51, 102, 153, 255 (0.2 * 255 = 51 exactly). None of
  // Vulkan's three built-in border colours is this one, so only a custom border colour passes.
  const uint64_t texture = kArena + 0x500000, headers = kArena + 0x510000, samplers = kArena + 0x520000;
  const auto tic = rgba8_texture_header(texture, 8, 8);
  const uint32_t tsc[8] = {3u | (3u << 3) | (3u << 6), 1u | (1u << 4) | (1u << 6), 0, 0,
                           std::bit_cast<uint32_t>(0.2f), std::bit_cast<uint32_t>(0.4f), std::bit_cast<uint32_t>(0.6f), std::bit_cast<uint32_t>(1.0f)};
  scene.write_words(headers, tic);
  scene.write_words(samplers, tsc);
  scene.write_floats(kVertices, fullscreen(0.5f, {2, 2, 0, 1}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 8, 8);
  scene.bind_textures(s, headers, samplers); // TIC 0, TSC 0
  draw_arrays(s, 0, 3);
  scene.run(s);
  const auto pixels = scene.read_target(kColorTarget, 8, 8, 4);
  CHECK(count_wrong_texels(pixels, 8, 8, std::array<uint8_t, 4>{51, 102, 153, 255}) == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "guest mistakes are diagnosed with the draw and the guest address, and rendering goes on", "[gpu][renderer]") {
  const auto sampling = sampling_fragment_program({"TEX R0, R0, RZ, 0x0, 2D, 0xf"});
  scene.gpu.memory().write(kPrograms + kFragmentProgramOffset, sampling);
  // TIC 0 points at GPU 0x7000000000, which nothing maps. Draw 0 samples it: diagnosed, drawn with the zeroed
  // placeholder texture, so its pixels become (0, 0, 0, 0) over the red clear. Draw 1 has no fragment program:
  // diagnosed and skipped, the pixels stay as draw 0 left them.
  const uint64_t headers = kArena + 0x510000, samplers = kArena + 0x520000, unmapped = 0x7000000000;
  const auto tic = rgba8_texture_header(unmapped, 8, 8);
  scene.write_words(headers, tic);
  scene.write_floats(kVertices, fullscreen(0.5f, {0.5f, 0.5f, 0, 1}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 8, 8);
  clear_color(s, {1, 0, 0, 1});
  scene.bind_textures(s, headers, samplers);
  draw_arrays(s, 0, 3);
  s.method(0, "SET_PIPELINE_SHADER", 5, 5u << 4); // PIXEL, not enabled
  draw_arrays(s, 0, 3);
  const maxwell::GpfifoEntry entry = s.place(scene.gpu.memory(), kPushbuffers);
  scene.gpu.submit(0, entry);
  REQUIRE(scene.gpu.run(maxwell::RunOptions{std::chrono::milliseconds(20)}).idle);
  scene.renderer->flush();
  const auto& diagnostics = scene.renderer->diagnostics();
  REQUIRE(diagnostics.size() == 2);
  CHECK_THAT(diagnostics[0], Catch::Contains("draw 0: texture header 0 at GPU 0x100510000") && Catch::Contains("0x7000000000"));
  CHECK_THAT(diagnostics[1], Catch::Contains("draw 1 skipped: no vertex or fragment program is bound"));
  CHECK(scene.renderer->statistics().draws == 1);
  CHECK(scene.renderer->statistics().skipped_draws == 1);
  const auto pixels = scene.read_target(kColorTarget, 8, 8, 4);
  CHECK(count_wrong_texels(pixels, 8, 8, std::array<uint8_t, 4>{0, 0, 0, 0}) == 0);
  check_no_validation_messages(context);
}

TEST_CASE("draws split over many submissions blend in command order", "[gpu][renderer]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  RendererScene scene(context);
  // One draw per submission: six batches in flight before the flush waits, each adding to the same target.
  scene.renderer = std::make_unique<vulkan::MaxwellRenderer>(context, scene.gpu.memory(), vulkan::MaxwellRendererOptions{.draws_per_submission = 1});
  scene.gpu.set_backend(scene.renderer.get());
  scene.write_pass_through_programs();
  // ONE + ONE blending of (0.125, 0.25, 0, 0.5) six times over a (0, 0, 0, 0) clear: (0.75, 1.5, 0, 3), exact
  // in binary floating point; any reordering or lost draw across batches changes it.
  scene.write_floats(kVertices, fullscreen(0.5f, {0.125f, 0.25f, 0.0f, 0.5f}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba32f, 8, 8);
  clear_color(s, {0, 0, 0, 0});
  s.method(0, "SET_BLEND", 0, 1).method(0, "SET_BLEND_SEPARATE_FOR_ALPHA", 0).method(0, "SET_BLEND_COLOR_OP", 0x8006);
  s.method(0, "SET_BLEND_COLOR_SOURCE_COEFF", 0x4001).method(0, "SET_BLEND_COLOR_DEST_COEFF", 0x4001); // ONE, ONE
  for (int i = 0; i < 6; ++i) draw_arrays(s, 0, 3);
  scene.run(s);
  CHECK(scene.renderer->statistics().submissions >= 6);
  const auto pixels = scene.read_target(kColorTarget, 8, 8, 16);
  const float expected[4] = {0.75f, 1.5f, 0.0f, 3.0f};
  size_t wrong = 0;
  for (uint32_t y = 0; y < 8; ++y) {
    for (uint32_t x = 0; x < 8; ++x) {
      for (uint32_t c = 0; c < 4; ++c) wrong += texel_f32(pixels, 8, x, y, c) != expected[c];
    }
  }
  CHECK(wrong == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "a texture the guest CPU rewrites between frames is uploaded again", "[gpu][renderer]") {
  const auto sampling = sampling_fragment_program({"TEX R0, R0, RZ, 0x0, 2D, 0xf"});
  scene.gpu.memory().write(kPrograms + kFragmentProgramOffset, sampling);
  // An 8x8 texture filled with one colour: frame 1 samples (10, 20, 30, 40), the CPU then writes
  // (50, 60, 70, 80) into every texel (in both layouts a uniform fill is the same bytes), frame 2 must sample it.
  const uint64_t texture = kArena + 0x500000, headers = kArena + 0x510000, samplers = kArena + 0x520000;
  auto fill = [&](std::array<uint8_t, 4> texel) {
    std::vector<uint8_t> bytes(512);
    for (size_t i = 0; i < 512; i += 4) std::memcpy(&bytes[i], texel.data(), 4);
    scene.gpu.memory().write(texture, bytes);
  };
  const auto tic = rgba8_texture_header(texture, 8, 8);
  const auto tsc = nearest_clamp_sampler();
  scene.write_words(headers, tic);
  scene.write_words(samplers, tsc);
  scene.write_floats(kVertices, fullscreen(0.5f, {0.5f, 0.5f, 0, 1}));
  fill({10, 20, 30, 40});
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 8, 8);
  scene.bind_textures(s, headers, samplers);
  draw_arrays(s, 0, 3);
  scene.run(s);
  CHECK(texel8(scene.read_target(kColorTarget, 8, 8, 4), 8, 3, 3) == std::array<uint8_t, 4>{10, 20, 30, 40});
  fill({50, 60, 70, 80});
  maxwell::StreamBuilder frame2;
  frame2.assume_bound(0, maxwell::ClassId::threed);
  draw_arrays(frame2, 0, 3);
  scene.run(frame2);
  const auto pixels = scene.read_target(kColorTarget, 8, 8, 4);
  CHECK(count_wrong_texels(pixels, 8, 8, std::array<uint8_t, 4>{50, 60, 70, 80}) == 0);
  CHECK(scene.renderer->statistics().texture_uploads == 2);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "inline indices and the global base vertex pick the vertices they name", "[gpu][renderer]") {
  // Vertices 0-2: a full-screen red triangle; 3-5: a full-screen green one; 6-11: two blue triangles covering
  // the left half (x in [-1, 0]). Draw 1: inline 32-bit indices 3 4 5 -> all green (red never drawn). Draw 2:
  // 16-bit index buffer 0..5 with SET_GLOBAL_BASE_VERTEX_INDEX 6 -> vertices 6..11: the left half turns blue.
  const std::vector<float> left = concat({vertex(-1, -1, 0.5f, {0, 0, 1, 1}), vertex(0, -1, 0.5f, {0, 0, 1, 1}), vertex(-1, 1, 0.5f, {0, 0, 1, 1})});
  const std::vector<float> left_top = concat({vertex(0, -1, 0.5f, {0, 0, 1, 1}), vertex(0, 1, 0.5f, {0, 0, 1, 1}), vertex(-1, 1, 0.5f, {0, 0, 1, 1})});
  scene.write_floats(kVertices, concat({fullscreen(0.5f, {1, 0, 0, 1}), fullscreen(0.5f, {0, 1, 0, 1}), left, left_top}));
  const uint16_t indices[6] = {0, 1, 2, 3, 4, 5};
  scene.gpu.memory().write(kIndices, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(indices), sizeof(indices)));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 16, 8);
  clear_color(s, {0, 0, 0, 0});
  s.method(0, "BEGIN", 4);
  const uint32_t inline_indices[] = {3, 4, 5};
  s.non_incrementing(0, "DRAW_INLINE_INDEX", inline_indices);
  s.method(0, "END", 0);
  s.method(0, "SET_INDEX_BUFFER_A", high(kIndices)).method(0, "SET_INDEX_BUFFER_B", low(kIndices));
  s.method(0, "SET_INDEX_BUFFER_C", high(kIndices + 0xff)).method(0, "SET_INDEX_BUFFER_D", low(kIndices + 0xff));
  s.method(0, "SET_INDEX_BUFFER_E", 1).method(0, "SET_INDEX_BUFFER_F", 0); // TWO_BYTES from index 0
  s.method(0, "SET_GLOBAL_BASE_VERTEX_INDEX", 6);
  s.method(0, "BEGIN", 4).method(0, "DRAW_INDEX_BUFFER", 6).method(0, "END", 0);
  scene.run(s);
  const auto pixels = scene.read_target(kColorTarget, 16, 8, 4);
  CHECK(count_wrong_texels(pixels, 16, 8, [&](uint32_t x, uint32_t) {
    const std::array<uint8_t, 4> expected = x < 8 ? std::array<uint8_t, 4>{0, 0, 255, 255} : std::array<uint8_t, 4>{0, 255, 0, 255};
    return expected;
  }) == 0);
  check_no_validation_messages(context);
}
