// Draws through the command processor and the Vulkan renderer on lavapipe, checked against values derived by
// hand in each test. Targets are read back from guest memory (block-linear, 1-GOB blocks), so each test also
// covers upload, rendering and the write-back re-swizzle.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>

#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/vulkan/context.h"
#include "tests/gpu/renderer/renderer_scene.h"

using namespace kiln;
using namespace kiln::test;

namespace {

constexpr uint32_t kRgba8 = 0xd5;   // SET_COLOR_TARGET_FORMAT A8B8G8R8: bytes R, G, B, A
constexpr uint32_t kRgba32f = 0xc0; // RF32_GF32_BF32_AF32

/// One vertex: position (x, y, z, w = 1) then colour (r, g, b, a).
std::vector<float> vertex(float x, float y, float z, std::array<float, 4> color) {
  return {x, y, z, 1.0f, color[0], color[1], color[2], color[3]};
}

std::vector<float> concat(std::initializer_list<std::vector<float>> parts) {
  std::vector<float> out;
  for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

void draw_arrays(maxwell::StreamBuilder& s, uint32_t first, uint32_t count, uint32_t op = 4 /* TRIANGLES */) {
  s.method(0, "BEGIN", op).method(0, "SET_VERTEX_ARRAY_START", first).method(0, "DRAW_VERTEX_ARRAY", count).method(0, "END", 0);
}

/// A triangle covering the whole NDC square: (-1, -1), (3, -1), (-1, 3).
std::vector<float> fullscreen(float z, std::array<float, 4> color) {
  return concat({vertex(-1, -1, z, color), vertex(3, -1, z, color), vertex(-1, 3, z, color)});
}

[[maybe_unused]] float texel_f32(const std::vector<uint8_t>& pixels, uint32_t width, uint32_t x, uint32_t y, uint32_t c) {
  float value;
  std::memcpy(&value, &pixels[(size_t{y} * width + x) * 16 + 4 * c], 4);
  return value;
}

} // namespace

TEST_CASE("a full-screen triangle fills an RGBA8 block-linear target with its colour", "[gpu][renderer]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  RendererScene scene(context);
  scene.write_pass_through_programs();
  // Colour (1, 0.25, 0, 1) on every vertex: UNORM8 stores round(c * 255): 255, 63.75 -> 64, 0, 255.
  scene.write_floats(kVertices, fullscreen(0.5f, {1.0f, 0.25f, 0.0f, 1.0f}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 64, 32);
  draw_arrays(s, 0, 3);
  scene.run(s);
  const auto pixels = scene.read_target(kColorTarget, 64, 32, 4);
  size_t wrong = 0;
  for (size_t i = 0; i < 64 * 32; ++i) {
    if (pixels[4 * i] != 255 || pixels[4 * i + 1] != 64 || pixels[4 * i + 2] != 0 || pixels[4 * i + 3] != 255) ++wrong;
  }
  CHECK(wrong == 0);
  CHECK(scene.renderer->statistics().target_write_backs == 1);
  CHECK(context.validation_log().count() == 0);
  for (const auto& message : context.validation_log().messages()) UNSCOPED_INFO(message);
}
