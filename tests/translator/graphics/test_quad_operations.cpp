// Fragment quad operations on lavapipe against hand-derived values: the IR Shuffle with a quad-local lane
// (how SHFL.BFLY inside a quad is lowered) must return the neighbour's value. Each fragment shuffles its own
// window coordinate, so the expected colour of pixel (x, y) follows from the quad layout alone: lane bit 0 = x,
// bit 1 = y, so lane ^ 1 is the fragment at (x ^ 1, y), lane ^ 2 at (x, y ^ 1), lane ^ 3 at (x ^ 1, y ^ 1).
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>

#include "runtime/base/file_writer.h"
#include "runtime/gpu/vulkan/context.h"
#include "tests/translator/graphics/headsurface_renderer.h"
#include "translator/ir/builder.h"
#include "translator/ir/passes.h"
#include "translator/spirv/validate.h"

namespace {

using namespace kiln;

/// out0 = (x of lane ^ 1, y of lane ^ 2, x of lane ^ 3, y of lane ^ 3), x/y = the fragment's window coordinate.
graphics::Translation quad_shuffle_program() {
  ir::Function function;
  function.kernel.name = "main";
  ir::Builder b(function);
  const ir::ValueId x = b.emit(ir::Op::LoadAttribute, ir::Type::U32, {}, 0x70);
  const ir::ValueId y = b.emit(ir::Op::LoadAttribute, ir::Type::U32, {}, 0x74);
  const ir::ValueId lane = b.emit(ir::Op::QuadLane, ir::Type::U32, {});
  const std::pair<ir::ValueId, uint32_t> picks[] = {{x, 1}, {y, 2}, {x, 3}, {y, 3}};
  for (uint32_t component = 0; component < 4; ++component) {
    const auto [value, distance] = picks[component];
    const ir::ValueId shuffled = b.emit(ir::Op::Shuffle, ir::Type::U32, {value, b.op(ir::Op::Xor, lane, b.u32(distance))});
    b.emit(ir::Op::StoreAttribute, ir::Type::Void, {shuffled}, component);
  }
  ir::run_passes(function);
  graphics::Translation translation;
  translation.stage = spirv::GraphicsStage::fragment;
  translation.spirv = spirv::emit_graphics(function, {.stage = spirv::GraphicsStage::fragment}, {.descriptor_set = 1});
  translation.resources = graphics::resource_bindings(translation.spirv);
  translation.color_masks[0] = 0xf;
  return translation;
}

} // namespace

TEST_CASE("quad shuffles in a fragment program read the neighbouring fragments", "[gpu][graphics]") {
  const auto corpus = std::filesystem::path(KILN_SHARED_DIR) / "corpus" / "nvidia-headsurface" / "maxwell";
  if (!std::filesystem::exists(corpus)) FAIL("corpus folder missing: " << corpus);
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  std::mt19937_64 random(1); // the scene only places the quad; any seed covers the viewport
  const test::HeadsurfaceScene scene = test::make_headsurface_scene(random);
  test::HeadsurfaceRenderer renderer(context, scene);
  graphics::TranslateOptions vertex_options;
  const auto vertex = graphics::translate_graphics(read_file(corpus / "00_nvidia_headsurface_vertex.bin"), graphics::Arch::sm53, "vertex", vertex_options);
  const graphics::Translation fragment = quad_shuffle_program();
  REQUIRE(spirv::validate(fragment.spirv).empty());

  test::BankSet banks;
  banks.vertex[3] = scene.vertex_uniforms;
  const auto images = renderer.draw(vertex, fragment, std::span(&banks, 1));
  const std::vector<float>& texels = images.at(0).targets.at(0);
  size_t wrong = 0;
  for (uint32_t y = 0; y < test::kViewportSize; ++y) {
    for (uint32_t x = 0; x < test::kViewportSize; ++x) {
      const float* pixel = &texels[(y * test::kViewportSize + x) * 4];
      const float expected[4] = {static_cast<float>(x ^ 1) + 0.5f, static_cast<float>(y ^ 1) + 0.5f, static_cast<float>(x ^ 1) + 0.5f,
                                 static_cast<float>(y ^ 1) + 0.5f};
      for (int c = 0; c < 4; ++c) {
        if (pixel[c] != expected[c] && wrong++ < 4) {
          UNSCOPED_INFO("pixel (" << x << ", " << y << ") component " << c << ": " << pixel[c] << ", expected " << expected[c]);
        }
      }
    }
  }
  CHECK(wrong == 0);
  CHECK(context.validation_log().count() == 0);
}
