// A frame recorded while the renderer draws it: the capture holds the programs, vertex data and target memory
// the renderer read, so `kiln gpu replay --png` can render it again without the test (tests/gpu/renderer's
// CMakeLists runs that command on the file written here).
#include <catch2/catch.hpp>

#include <bit>
#include <filesystem>

#include "runtime/gpu/maxwell/capture.h"
#include "runtime/gpu/vulkan/context.h"
#include "tests/gpu/renderer/renderer_scene.h"

using namespace kiln;
using namespace kiln::test;

TEST_CASE("a frame drawn through the renderer is captured with the memory the renderer read", "[gpu][renderer]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  RendererScene scene(context);
  scene.write_pass_through_programs();
  // One full-screen triangle in (1, 0.5, 0, 1) over a 32x16 RGBA8 target: 255, 128 (127.5 rounds to even or
  // up: 128 on every IEEE round-to-nearest path), 0, 255.
  const std::vector<float> vertices = {-1, -1, 0.5f, 1, 1, 0.5f, 0, 1, 3, -1, 0.5f, 1, 1, 0.5f, 0, 1, -1, 3, 0.5f, 1, 1, 0.5f, 0, 1};
  scene.write_floats(kVertices, vertices);
  maxwell::CaptureRecorder recorder(scene.gpu);
  maxwell::StreamBuilder s;
  scene.setup(s, 0xd5, 32, 16);
  s.method(0, "BEGIN", 4).method(0, "SET_VERTEX_ARRAY_START", 0).method(0, "DRAW_VERTEX_ARRAY", 3).method(0, "END", 0);
  scene.run(s);
  const maxwell::Capture capture = recorder.finish();
  const auto path = std::filesystem::path(KILN_RENDERER_OUTPUT_DIR) / "renderer_frame.kgc";
  std::filesystem::create_directories(path.parent_path());
  capture.save(path);
  // The programs and the vertex data are among the captured pages.
  CHECK(capture.pages.count(kVertices) == 1);
  CHECK(capture.pages.count(kPrograms) == 1);
  CHECK(capture.pages.count(kPrograms + kFragmentProgramOffset) == 1);
  const auto pixels = scene.read_target(kColorTarget, 32, 16, 4);
  CHECK(std::array<uint8_t, 4>{pixels[0], pixels[1], pixels[2], pixels[3]} == std::array<uint8_t, 4>{255, 128, 0, 255});
  CHECK(context.validation_log().count() == 0);
}
