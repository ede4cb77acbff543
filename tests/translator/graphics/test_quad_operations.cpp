// Fragment quad operations on lavapipe against hand-derived values: the IR Shuffle with a quad-local lane
// (how SHFL.BFLY inside a quad is lowered) must return the neighbour's value. Each fragment shuffles its own
// window coordinate, so the expected colour of pixel (x, y) follows from the quad layout alone: lane bit 0 = x,
// bit 1 = y, so lane ^ 1 is the fragment at (x ^ 1, y), lane ^ 2 at (x, y ^ 1), lane ^ 3 at (x ^ 1, y ^ 1).
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <filesystem>
#include <random>

#include "runtime/base/file_writer.h"
#include "runtime/gpu/vulkan/context.h"
#include "tests/translator/graphics/headsurface_renderer.h"
#include "translator/ir/builder.h"
#include "translator/ir/passes.h"
#include "translator/sass/sm5x/instruction.h"
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

namespace {

/// An instruction word from a corpus template with its operands changed (the assembler re-encodes it).
uint64_t from_template(uint64_t word, const std::function<void(sass::sm5x::Instruction&)>& change) {
  sass::sm5x::Instruction instruction = sass::sm5x::decode(word, 0, "template");
  change(instruction);
  return sass::sm5x::assemble(instruction);
}

} // namespace

TEST_CASE("SHFL.BFLY and FSWZADD of a hand-assembled fragment program give the hand-derived quad values", "[gpu][graphics]") {
  const auto corpus = std::filesystem::path(KILN_SHARED_DIR) / "corpus" / "nvidia-headsurface" / "maxwell";
  if (!std::filesystem::exists(corpus)) FAIL("corpus folder missing: " << corpus);
  // The SPH of program 01 (a pixel program writing color0.rgb from R0, R1, R2), then:
  //   IPA.PASS R2, a[0x70], RZ              R2 = x, the window coordinate (pixel + 0.5)
  //   SHFL.BFLY PT, R1, R2, 0x1, 0x1c03     R1 = x of the horizontal neighbour (lane ^ 1)
  //   FSWZADD R0, R1, R2, 0xe4              lane 0: a + b, 1: b - a, 2: a - b, 3: b (a = R1, b = R2)
  //   EXIT
  const std::vector<uint8_t> header_source = read_file(corpus / "01_nvidia_headsurface_fragment.bin");
  std::vector<uint8_t> bytes(header_source.begin(), header_source.begin() + 0x50);
  const uint64_t control = 0x001fc000e22007f0; // scheduling only; the translation ignores it
  const uint64_t code[] = {
      control,
      from_template(0xe003ff87cff7ff0b, [](auto& in) { in.operands.at(0).index = 2; in.operands.at(1).value = 0x70; }),
      from_template(0xef17700cf0270502, [](auto& in) { in.operands.at(1).index = 1; in.operands.at(2).index = 2; in.operands.at(3).value = 1; }),
      from_template(0x50f8000a50570202, [](auto& in) {
        in.operands.at(0).index = 0; in.operands.at(1).index = 1; in.operands.at(2).index = 2; in.operands.at(3).value = 0xe4;
      }),
      control, 0xe30000000007000f /* EXIT */, 0x50b0000000070f00 /* NOP */, 0x50b0000000070f00 /* NOP */};
  bytes.resize(0x50 + sizeof(code));
  std::memcpy(bytes.data() + 0x50, code, sizeof(code));
  CHECK(sass::sm5x::disassemble(sass::sm5x::decode(code[3], 0x18, "test")) == "FSWZADD R0, R1, R2, 0xe4");

  vulkan::Context context({.validation = true, .synchronization_validation = true});
  std::mt19937_64 random(2);
  const test::HeadsurfaceScene scene = test::make_headsurface_scene(random);
  test::HeadsurfaceRenderer renderer(context, scene);
  const auto vertex = graphics::translate_graphics(read_file(corpus / "00_nvidia_headsurface_vertex.bin"), graphics::Arch::sm53, "vertex");
  graphics::TranslateOptions options;
  options.backend.descriptor_set = 1;
  const auto fragment = graphics::translate_graphics(bytes, graphics::Arch::sm53, "quad_program", options);
  test::BankSet banks;
  banks.vertex[3] = scene.vertex_uniforms;
  const auto images = renderer.draw(vertex, fragment, std::span(&banks, 1));
  const std::vector<float>& texels = images.at(0).targets.at(0);
  size_t wrong = 0;
  for (uint32_t py = 0; py < test::kViewportSize; ++py) {
    for (uint32_t px = 0; px < test::kViewportSize; ++px) {
      const float x = static_cast<float>(px) + 0.5f;
      const float neighbour = static_cast<float>(px ^ 1) + 0.5f;
      const uint32_t lane = (px & 1) | (py & 1) << 1;
      const float swizzled[4] = {neighbour + x, x - neighbour, neighbour - x, x};
      const float expected[3] = {swizzled[lane], neighbour, x};
      const float* pixel = &texels[(py * test::kViewportSize + px) * 4];
      for (int c = 0; c < 3; ++c) {
        if (pixel[c] != expected[c] && wrong++ < 4) {
          UNSCOPED_INFO("pixel (" << px << ", " << py << ") component " << c << ": " << pixel[c] << ", expected " << expected[c]);
        }
      }
    }
  }
  CHECK(wrong == 0);
  CHECK(context.validation_log().count() == 0);
}
