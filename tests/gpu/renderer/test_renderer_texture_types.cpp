// Texture types beyond 2D (TIC TEXTURE_TYPE 1D, 1D array, 2D array, 3D, cube) sampled by TEX with nearest
// filtering. Guest bytes are placed by hand from the block-linear definition (Tegra X1 TRM: a GOB is 64 bytes x
// 8 rows; a block is one GOB wide, 2^h GOBs high and 2^d GOBs deep, its GOBs ordered by row then by slice;
// blocks ordered by x, then y, then z; array layers and cube faces (+X, -X, +Y, -Y, +Z, -Z) follow each other,
// each padded to whole blocks), so the expected colours do not come from kiln's own swizzle code.
#include <catch2/catch.hpp>

#include <string>

#include <fmt/format.h>

#include "runtime/gpu/vulkan/context.h"
#include "tests/gpu/renderer/renderer_scene.h"
#include "translator/sass/sm5x/text_assembler.h"

using namespace kiln;
using namespace kiln::test;

namespace {

constexpr uint64_t kTexture = kArena + 0x500000, kHeaders = kArena + 0x510000, kSamplers = kArena + 0x520000;
using Rgba = std::array<uint8_t, 4>;

// Byte (x, y) of a GOB: x[3:0] -> bits 3:0, y[0] -> bit 4, x[4] -> bit 5, y[2:1] -> bits 7:6, x[5] -> bit 8.
uint32_t gob_byte(uint32_t x, uint32_t y) {
  return (x & 15) | ((y & 1) << 4) | (((x >> 4) & 1) << 5) | (((y >> 1) & 3) << 6) | (((x >> 5) & 1) << 8);
}

/// Offset of texel (x, y, z) of an RGBA8 block-linear level `width` texels wide, `height` rows high, with
/// 2^h x 2^d GOB blocks.
uint64_t texel_offset(uint32_t width, uint32_t height, uint32_t h, uint32_t d, uint32_t x, uint32_t y, uint32_t z) {
  const uint32_t xb = x * 4;
  const uint32_t gobs_x = (width * 4 + 63) / 64, gob_rows = (height + 7) / 8;
  const uint32_t block_rows = (gob_rows + (1u << h) - 1) >> h;
  const uint64_t block_bytes = uint64_t{512} << (h + d);
  const uint64_t block = (uint64_t{z >> d} * block_rows + ((y / 8) >> h)) * gobs_x + xb / 64;
  const uint32_t gob_in_block = ((z & ((1u << d) - 1)) << h) + ((y / 8) & ((1u << h) - 1));
  return block * block_bytes + uint64_t{gob_in_block} * 512 + gob_byte(xb % 64, y % 8);
}

/// One quad over NDC x in [x0, x1] (full height) whose colour attribute carries the texture coordinates:
/// (r, g, b) at the left-bottom corner, growing by (du, dv) towards the right and the top.
std::vector<float> quad(float x0, float x1, std::array<float, 3> at, float du, float dv) {
  auto v = [&](float x, float y, float u_step, float v_step) {
    return vertex(x, y, 0.5f, {at[0] + u_step, at[1] + v_step, at[2], 1});
  };
  // NDC y = -1 is window row 0 (upper-left origin): texture row 0.
  return concat({v(x0, -1, 0, 0), v(x1, -1, du, 0), v(x0, 1, 0, dv), v(x1, -1, du, 0), v(x1, 1, du, dv), v(x0, 1, 0, dv)});
}

float ndc(uint32_t window_x, uint32_t width) { return 2.0f * static_cast<float>(window_x) / static_cast<float>(width) - 1.0f; }

/// Runs `quads` draws (6 vertices each; draw q with the fragment program at kFragmentProgramOffset + 0x400 q)
/// over a `width` x `height` RGBA8 target sampling TIC 0 = `header`, and returns the target.
std::vector<uint8_t> render(RendererScene& scene, const std::array<uint32_t, 8>& header, const std::vector<float>& vertices,
                            uint32_t quads, uint32_t width, uint32_t height) {
  scene.write_words(kHeaders, header);
  scene.write_words(kSamplers, nearest_clamp_sampler());
  scene.write_floats(kVertices, vertices);
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, width, height);
  clear_color(s, {0, 0, 0, 0});
  scene.bind_textures(s, kHeaders, kSamplers);
  for (uint32_t q = 0; q < quads; ++q) {
    s.method(0, "SET_PIPELINE_PROGRAM", 5, kFragmentProgramOffset + 0x400 * q);
    draw_arrays(s, 6 * q, 6);
  }
  scene.run(s);
  return scene.read_target(kColorTarget, width, height, 4);
}

void write_program(RendererScene& scene, uint32_t q, const std::vector<std::string>& code) {
  scene.gpu.memory().write(kPrograms + kFragmentProgramOffset + 0x400 * q, sampling_fragment_program(code));
}

} // namespace

TEST_CASE_METHOD(PassThroughScene, "a 1D texture is sampled along x", "[gpu][renderer][golden]") {
  // 8 texels in the first GOB row: texel x = (32x, 255 - 32x, 7x, 255); texels 4-7 sit at GOB bytes 32-47.
  auto texel = [](uint32_t x) { return Rgba{uint8_t(32 * x), uint8_t(255 - 32 * x), uint8_t(7 * x), 255}; };
  std::vector<uint8_t> guest(512);
  for (uint32_t x = 0; x < 8; ++x) std::copy_n(texel(x).begin(), 4, guest.begin() + texel_offset(8, 1, 0, 0, x, 0, 0));
  scene.gpu.memory().write(kTexture, guest);
  write_program(scene, 0, {"TEX R0, R0, RZ, 0x0, 1D, 0xf"});
  // u from 0 to 1 across the 8-pixel target: pixel x's centre (x + 0.5) / 8 lies in texel x.
  const auto pixels = render(scene, rgba8_texture_header(kTexture, 8, 1, 1, 0), quad(-1, 1, {0, 0, 0}, 1, 0), 1, 8, 2);
  CHECK(count_wrong_texels(pixels, 8, 2, [&](uint32_t x, uint32_t) { return texel(x); }) == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "a 1D array texture reads the layer its integer index names", "[gpu][renderer][golden]") {
  // 3 layers of 4 texels; each layer is one 1-GOB block (512 bytes). Texel (l, x) = (60l + 10x, 200 - 50x, 80l, 255).
  auto texel = [](uint32_t l, uint32_t x) { return Rgba{uint8_t(60 * l + 10 * x), uint8_t(200 - 50 * x), uint8_t(80 * l), 255}; };
  std::vector<uint8_t> guest(3 * 512);
  for (uint32_t l = 0; l < 3; ++l) {
    for (uint32_t x = 0; x < 4; ++x) std::copy_n(texel(l, x).begin(), 4, guest.begin() + l * 512 + texel_offset(4, 1, 0, 0, x, 0, 0));
  }
  scene.gpu.memory().write(kTexture, guest);
  // ARRAY_1D reads the layer (an integer) from R0 and u from R1: quad l over pixels [4l, 4l + 4) with u 0..1 in
  // the colour's green, the layer a constant of program l.
  std::vector<float> vertices;
  for (uint32_t l = 0; l < 3; ++l) {
    write_program(scene, l, {fmt::format("MOV32I R0, 0x{:x}", l), "TEX R0, R0, RZ, 0x0, ARRAY_1D, 0xf"});
    const auto q = quad(ndc(4 * l, 12), ndc(4 * l + 4, 12), {0, 0, 0}, 0, 0);
    vertices.insert(vertices.end(), q.begin(), q.end());
  }
  // Green (generic 0's y) carries u: 0 at the quad's left edge, 1 at its right edge.
  for (size_t v = 0; v < vertices.size(); v += 8) vertices[v + 5] = (v / 8) % 6 == 1 || (v / 8) % 6 == 3 || (v / 8) % 6 == 4 ? 1.0f : 0.0f;
  const auto pixels = render(scene, rgba8_texture_header(kTexture, 4, 1, 3, 4), vertices, 3, 12, 2);
  CHECK(count_wrong_texels(pixels, 12, 2, [&](uint32_t x, uint32_t) { return texel(x / 4, x % 4); }) == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "a 2D array texture reads each layer from its own blocks", "[gpu][renderer][golden]") {
  // 3 layers of 8x8 (32 bytes x 8 rows: one GOB each). Texel (l, x, y) = (30l + 8x, 8y, 100 + 50l, 255).
  auto texel = [](uint32_t l, uint32_t x, uint32_t y) { return Rgba{uint8_t(30 * l + 8 * x), uint8_t(8 * y), uint8_t(100 + 50 * l), 255}; };
  std::vector<uint8_t> guest(3 * 512);
  for (uint32_t l = 0; l < 3; ++l) {
    for (uint32_t y = 0; y < 8; ++y) {
      for (uint32_t x = 0; x < 8; ++x) std::copy_n(texel(l, x, y).begin(), 4, guest.begin() + l * 512 + texel_offset(8, 8, 0, 0, x, y, 0));
    }
  }
  scene.gpu.memory().write(kTexture, guest);
  // ARRAY_2D: layer in R0, (u, v) in R1, R2 = the colour's green and blue.
  std::vector<float> vertices;
  for (uint32_t l = 0; l < 3; ++l) {
    write_program(scene, l, {fmt::format("MOV32I R0, 0x{:x}", l), "TEX R0, R0, RZ, 0x0, ARRAY_2D, 0xf"});
    const auto q = quad(ndc(8 * l, 24), ndc(8 * l + 8, 24), {0, 0, 0}, 0, 0);
    vertices.insert(vertices.end(), q.begin(), q.end());
  }
  for (size_t v = 0; v < vertices.size(); v += 8) {
    const size_t corner = (v / 8) % 6; // 0 (x0, -1), 1 (x1, -1), 2 (x0, 1), 3 (x1, -1), 4 (x1, 1), 5 (x0, 1)
    vertices[v + 5] = corner == 1 || corner == 3 || corner == 4 ? 1.0f : 0.0f;
    vertices[v + 6] = corner == 2 || corner == 4 || corner == 5 ? 1.0f : 0.0f;
  }
  const auto pixels = render(scene, rgba8_texture_header(kTexture, 8, 8, 3, 5), vertices, 3, 24, 8);
  CHECK(count_wrong_texels(pixels, 24, 8, [&](uint32_t x, uint32_t y) { return texel(x / 8, x % 8, y); }) == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "a 3D texture with 2-GOB-deep blocks reads each slice from its GOBs", "[gpu][renderer][golden]") {
  // 4x32 texels x 4 slices, blocks 2 GOBs high and 2 deep (2 KiB): slice z, GOB row r is the flat colour
  // (60z + 15, 60r + 15, 200, 255). Slice 1 rows 0-7 are the first block's third GOB (byte 1024); with 1-GOB-deep
  // blocks they would start at byte 2048, where slice 0's rows 16-23 are, so a wrong depth layout reads other colours.
  constexpr uint32_t width = 4, height = 32, depth = 4;
  auto colour = [](uint32_t z, uint32_t y) { return Rgba{uint8_t(60 * z + 15), uint8_t(60 * (y / 8) + 15), 200, 255}; };
  std::vector<uint8_t> guest(8 * 2048);
  for (uint32_t z = 0; z < depth; ++z) {
    for (uint32_t y = 0; y < height; ++y) {
      for (uint32_t x = 0; x < width; ++x) std::copy_n(colour(z, y).begin(), 4, guest.begin() + texel_offset(width, height, 1, 1, x, y, z));
    }
  }
  scene.gpu.memory().write(kTexture, guest);
  write_program(scene, 0, {"TEX R0, R0, RZ, 0x0, 3D, 0xf"});
  for (uint32_t z = 1; z < depth; ++z) write_program(scene, z, {"TEX R0, R0, RZ, 0x0, 3D, 0xf"});
  // Quad z over pixels [4z, 4z + 4) of a 16x32 target, (u, v) 0..1, w = (z + 0.5) / 4 (the middle of slice z).
  std::vector<float> vertices;
  for (uint32_t z = 0; z < depth; ++z) {
    const auto q = quad(ndc(4 * z, 16), ndc(4 * z + 4, 16), {0, 0, (static_cast<float>(z) + 0.5f) / depth}, 1, 1);
    vertices.insert(vertices.end(), q.begin(), q.end());
  }
  auto header = rgba8_texture_header(kTexture, width, height, depth, 2);
  header[3] |= (1u << 3) | (1u << 6); // GOBS_PER_BLOCK_HEIGHT 2 (log2 1), GOBS_PER_BLOCK_DEPTH 2 (log2 1)
  const auto pixels = render(scene, header, vertices, depth, 16, height);
  CHECK(count_wrong_texels(pixels, 16, height, [&](uint32_t x, uint32_t y) { return colour(x / 4, y); }) == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "a cube texture picks the face of the major axis, faces stored +X -X +Y -Y +Z -Z", "[gpu][renderer][golden]") {
  // Six 4x4 faces, one GOB (512 bytes) each, each a flat colour; quad f over pixels [4f, 4f + 4) of a 24x4 target
  // samples direction ±axis of face f (the colour's r, g, b), so it reads face f everywhere.
  const Rgba faces[6] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 0, 255}, {0, 255, 255, 255}, {255, 0, 255, 255}};
  const std::array<float, 3> directions[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  std::vector<uint8_t> guest(6 * 512);
  for (uint32_t f = 0; f < 6; ++f) {
    for (uint32_t i = 0; i < 512; i += 4) std::copy_n(faces[f].begin(), 4, guest.begin() + f * 512 + i);
  }
  scene.gpu.memory().write(kTexture, guest);
  std::vector<float> vertices;
  for (uint32_t f = 0; f < 6; ++f) {
    write_program(scene, f, {"TEX R0, R0, RZ, 0x0, CUBE, 0xf"});
    const auto q = quad(ndc(4 * f, 24), ndc(4 * f + 4, 24), directions[f], 0, 0);
    vertices.insert(vertices.end(), q.begin(), q.end());
  }
  const auto pixels = render(scene, rgba8_texture_header(kTexture, 4, 4, 1, 3), vertices, 6, 24, 4);
  CHECK(count_wrong_texels(pixels, 24, 4, [&](uint32_t x, uint32_t) { return faces[x / 4]; }) == 0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "a cube header with non-square faces is diagnosed with the draw and the header address", "[gpu][renderer]") {
  // TIC 0: a 4x8 cube (faces must be square). The draw is diagnosed, samples the zeroed placeholder cube and
  // rendering goes on: the second draw (a plain colour program) still paints the right half.
  scene.gpu.memory().write(kTexture, std::vector<uint8_t>(6 * 512, 0x7f));
  write_program(scene, 0, {"TEX R0, R0, RZ, 0x0, CUBE, 0xf"});
  scene.gpu.memory().write(kPrograms + kFragmentProgramOffset + 0x400,
                           program(pixel_header(), kiln::sass::sm5x::assemble_program({"IPA.PASS R0, a[0x80], RZ", "IPA.PASS R1, a[0x84], RZ",
                                                                                     "IPA.PASS R2, a[0x88], RZ", "IPA.PASS R3, a[0x8c], RZ", "EXIT"})));
  scene.write_words(kHeaders, rgba8_texture_header(kTexture, 4, 8, 1, 3));
  scene.write_words(kSamplers, nearest_clamp_sampler());
  scene.write_floats(kVertices, concat({quad(-1, 0, {1, 0, 0}, 0, 0), quad(0, 1, {0, 1, 0}, 0, 0)}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 8, 4);
  clear_color(s, {0, 0, 1, 1});
  scene.bind_textures(s, kHeaders, kSamplers);
  for (uint32_t q = 0; q < 2; ++q) {
    s.method(0, "SET_PIPELINE_PROGRAM", 5, kFragmentProgramOffset + 0x400 * q);
    draw_arrays(s, 6 * q, 6);
  }
  const maxwell::GpfifoEntry entry = s.place(scene.gpu.memory(), kPushbuffers);
  scene.gpu.submit(0, entry);
  REQUIRE(scene.gpu.run(maxwell::RunOptions{std::chrono::milliseconds(20)}).idle);
  scene.renderer->flush();
  const auto& diagnostics = scene.renderer->diagnostics();
  REQUIRE(diagnostics.size() == 1);
  CHECK_THAT(diagnostics[0], Catch::Contains("draw 0: texture header 0 at GPU 0x100510000") && Catch::Contains("0x100500000") &&
                                 Catch::Contains("not square"));
  CHECK(scene.renderer->statistics().draws == 2);
  CHECK(count_wrong_texels(scene.read_target(kColorTarget, 8, 4, 4), 8, 4, [](uint32_t x, uint32_t) {
          return x < 4 ? std::array<uint8_t, 4>{0, 0, 0, 0} : std::array<uint8_t, 4>{0, 255, 0, 255};
        }) == 0);
  check_no_validation_messages(context);
}
