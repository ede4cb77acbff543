#include "tests/gpu/renderer/renderer_scene.h"

#include <bit>
#include <cstring>

#include <catch2/catch.hpp>

#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/textures/blocklinear/swizzle.h"
#include "translator/graphics/graphics.h"
#include "translator/sass/sm5x/text_assembler.h"
#include "translator/sass/sm86/text_assembler.h"

namespace kiln::test {
using sass::sm5x::assemble_program;
using sass::sm5x::assemble_sass;
std::vector<uint8_t> program(const std::vector<uint8_t>& header, const std::vector<uint64_t>& code) {
  std::vector<uint8_t> bytes = header;
  const size_t at = bytes.size();
  bytes.resize(at + code.size() * 8);
  std::memcpy(bytes.data() + at, code.data(), code.size() * 8);
  return bytes;
}

std::vector<float> vertex(float x, float y, float z, std::array<float, 4> color) {
  return {x, y, z, 1.0f, color[0], color[1], color[2], color[3]};
}

std::vector<float> concat(std::initializer_list<std::vector<float>> parts) {
  std::vector<float> out;
  for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

std::vector<float> fullscreen(float z, std::array<float, 4> color) {
  return concat({vertex(-1, -1, z, color), vertex(3, -1, z, color), vertex(-1, 3, z, color)});
}

void draw_arrays(maxwell::StreamBuilder& s, uint32_t first, uint32_t count, uint32_t op) {
  s.method(0, "BEGIN", op).method(0, "SET_VERTEX_ARRAY_START", first).method(0, "DRAW_VERTEX_ARRAY", count).method(0, "END", 0);
}

void clear_color(maxwell::StreamBuilder& s, std::array<float, 4> color) {
  for (uint32_t c = 0; c < 4; ++c) s.method(0, "SET_COLOR_CLEAR_VALUE", c, std::bit_cast<uint32_t>(color[c]));
  s.method(0, "SET_CLEAR_SURFACE_CONTROL", 0);
  s.method(0, "CLEAR_SURFACE", 0xfu << 2); // R G B A of target 0
}

std::array<uint8_t, 4> texel8(const std::vector<uint8_t>& pixels, uint32_t width, uint32_t x, uint32_t y) {
  const uint8_t* p = &pixels[(size_t{y} * width + x) * 4];
  return {p[0], p[1], p[2], p[3]};
}

float texel_f32(const std::vector<uint8_t>& pixels, uint32_t width, uint32_t x, uint32_t y, uint32_t c) {
  float value;
  std::memcpy(&value, &pixels[(size_t{y} * width + x) * 16 + 4 * c], 4);
  return value;
}

void check_no_validation_messages(const vulkan::Context& context) {
  for (const auto& message : context.validation_log().messages()) UNSCOPED_INFO(message);
  CHECK(context.validation_log().count() == 0);
}

size_t count_wrong_texels(const std::vector<uint8_t>& pixels, uint32_t width, uint32_t height,
                          const std::function<std::array<uint8_t, 4>(uint32_t, uint32_t)>& expected) {
  size_t wrong = 0;
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      const auto want = expected(x, y), got = texel8(pixels, width, x, y);
      if (got != want && wrong++ < 4) {
        UNSCOPED_INFO("texel (" << x << ", " << y << ") = " << int(got[0]) << " " << int(got[1]) << " " << int(got[2]) << " "
                                << int(got[3]) << ", expected " << int(want[0]) << " " << int(want[1]) << " " << int(want[2]) << " "
                                << int(want[3]));
      }
    }
  }
  return wrong;
}

size_t count_wrong_texels(const std::vector<uint8_t>& pixels, uint32_t width, uint32_t height, std::array<uint8_t, 4> expected) {
  return count_wrong_texels(pixels, width, height, [&](uint32_t, uint32_t) { return expected; });
}

std::array<uint32_t, 8> rgba8_texture_header(uint64_t address, uint32_t width, uint32_t height, uint32_t depth, uint32_t type) {
  // Word 0: COMPONENTS A8B8G8R8 (8), R/G/B/A UNORM (2), sources X = R (2), Y = G (3), Z = B (4), W = A (5).
  // Word 1/2: address bits 31:9 / 47:32 and HEADER_VERSION BLOCKLINEAR (3) at 23:21; word 3: GOBS_PER_BLOCK 0.
  // Word 4: WIDTH_MINUS_ONE 15:0, TEXTURE_TYPE 26:23; word 5: HEIGHT_MINUS_ONE 15:0, DEPTH_MINUS_ONE 29:16
  // (layers of an array, slices of a 3D texture), NORMALIZED_COORDS 31.
  return {0x08u | (2u << 7) | (2u << 10) | (2u << 13) | (2u << 16) | (2u << 19) | (3u << 22) | (4u << 25) | (5u << 28),
          low(address) & 0xfffffe00u,
          high(address) | (3u << 21),
          0,
          (width - 1) | (type << 23),
          (height - 1) | ((depth - 1) << 16) | (1u << 31),
          0,
          0};
}

std::array<uint32_t, 8> nearest_clamp_sampler() {
  return {2u | (2u << 3) | (2u << 6), 1u | (1u << 4) | (1u << 6), 0, 0, 0, 0, 0, 0};
}

std::vector<uint8_t> sampling_fragment_program(const std::vector<std::string>& code) {
  std::vector<std::string> lines = {"IPA.PASS R0, a[0x80], RZ", "IPA.PASS R1, a[0x84], RZ", "IPA.PASS R2, a[0x88], RZ",
                                    "IPA.PASS R3, a[0x8c], RZ"};
  lines.insert(lines.end(), code.begin(), code.end());
  lines.push_back("EXIT");
  return program(pixel_header(), assemble_program(std::vector<std::string_view>(lines.begin(), lines.end())));
}

RendererScene::RendererScene(vulkan::Context& context_) : context(context_) {
  gpu.memory().map_owned(kArena, kArenaSize);
  renderer = std::make_unique<vulkan::MaxwellRenderer>(context, gpu.memory());
  gpu.set_backend(renderer.get());
  gpu.create_channel();
}

std::vector<uint8_t> sm86_program(const std::vector<uint8_t>& header, const std::vector<std::string_view>& lines) {
  return graphics::raw_program(graphics::Arch::sm86, header, sass::sm86::code_bytes(sass::sm86::assemble_program(lines)));
}

void RendererScene::write_pass_through_programs(bool sm86) {
  if (sm86) {
    // The same moves as below, in Ampere's encoding (Turing and Ampere have no IPA multiply mode: IPA.PASS).
    gpu.memory().write(kPrograms + kVertexProgramOffset, sm86_program(vertex_header(2), {
        "ALD R0, a[0x80]", "ALD R1, a[0x84]", "ALD R2, a[0x88]", "ALD R3, a[0x8c]",
        "ALD R4, a[0x90]", "ALD R5, a[0x94]", "ALD R6, a[0x98]", "ALD R7, a[0x9c]",
        "AST a[0x70], R0", "AST a[0x74], R1", "AST a[0x78], R2", "AST a[0x7c], R3",
        "AST a[0x80], R4", "AST a[0x84], R5", "AST a[0x88], R6", "AST a[0x8c], R7", "EXIT"}));
    gpu.memory().write(kPrograms + kFragmentProgramOffset, sm86_program(pixel_header(), {
        "IPA.PASS R0, a[0x80]", "IPA.PASS R1, a[0x84]", "IPA.PASS R2, a[0x88]", "IPA.PASS R3, a[0x8c]", "EXIT"}));
    return;
  }
  const auto vertex = program(vertex_header(2), assemble_program({
      "ALD R0, a[0x80]", "ALD R1, a[0x84]", "ALD R2, a[0x88]", "ALD R3, a[0x8c]",
      "ALD R4, a[0x90]", "ALD R5, a[0x94]", "ALD R6, a[0x98]", "ALD R7, a[0x9c]",
      "AST a[0x70], R0", "AST a[0x74], R1", "AST a[0x78], R2", "AST a[0x7c], R3",
      "AST a[0x80], R4", "AST a[0x84], R5", "AST a[0x88], R6", "AST a[0x8c], R7", "EXIT"}));
  // Perspective IPA returns attribute x FragCoord.w; every vertex here has w = 1, so it is the attribute.
  const auto fragment = program(pixel_header(), assemble_program({
      "IPA.PASS R0, a[0x80], RZ", "IPA.PASS R1, a[0x84], RZ", "IPA.PASS R2, a[0x88], RZ", "IPA.PASS R3, a[0x8c], RZ", "EXIT"}));
  gpu.memory().write(kPrograms + kVertexProgramOffset, vertex);
  gpu.memory().write(kPrograms + kFragmentProgramOffset, fragment);
}

void RendererScene::setup(maxwell::StreamBuilder& s, uint32_t format, uint32_t width, uint32_t height, uint32_t stride) {
  s.bind(0, threed);
  s.method(0, "SET_PIPELINE_SHADER", 1, 1u | (1u << 4)); // VERTEX_B
  s.method(0, "SET_PIPELINE_SHADER", 5, 1u | (5u << 4)); // PIXEL
  if (threed == maxwell::ClassId::threed_ampere) {
    for (const auto& [slot, offset] : {std::pair{1u, kVertexProgramOffset}, std::pair{5u, kFragmentProgramOffset}}) {
      s.method(0, "SET_PIPELINE_PROGRAM_ADDRESS_A", slot, high(kPrograms + offset));
      s.method(0, "SET_PIPELINE_PROGRAM_ADDRESS_B", slot, low(kPrograms + offset));
    }
  } else {
    s.method(0, "SET_PROGRAM_REGION_A", high(kPrograms)).method(0, "SET_PROGRAM_REGION_B", low(kPrograms));
    s.method(0, "SET_PIPELINE_PROGRAM", 1, kVertexProgramOffset).method(0, "SET_PIPELINE_PROGRAM", 5, kFragmentProgramOffset);
  }
  s.method(0, "SET_PIPELINE_BINDING", 5, 4);
  s.method(0, "SET_COLOR_TARGET_A", 0, high(kColorTarget)).method(0, "SET_COLOR_TARGET_B", 0, low(kColorTarget));
  s.method(0, "SET_COLOR_TARGET_WIDTH", 0, width).method(0, "SET_COLOR_TARGET_HEIGHT", 0, height);
  s.method(0, "SET_COLOR_TARGET_FORMAT", 0, format).method(0, "SET_COLOR_TARGET_MEMORY", 0, 0); // 1-GOB blocks
  s.method(0, "SET_CT_SELECT", 1); // one target: output 0 -> slot 0
  s.method(0, "SET_CT_WRITE", 0, 0x1111);
  const float half_width = static_cast<float>(width) / 2, half_height = static_cast<float>(height) / 2;
  s.method(0, "SET_VIEWPORT_SCALE_X", 0, std::bit_cast<uint32_t>(half_width)).method(0, "SET_VIEWPORT_OFFSET_X", 0, std::bit_cast<uint32_t>(half_width));
  s.method(0, "SET_VIEWPORT_SCALE_Y", 0, std::bit_cast<uint32_t>(half_height)).method(0, "SET_VIEWPORT_OFFSET_Y", 0, std::bit_cast<uint32_t>(half_height));
  s.method(0, "SET_VIEWPORT_SCALE_Z", 0, std::bit_cast<uint32_t>(1.0f)).method(0, "SET_VIEWPORT_OFFSET_Z", 0, 0);
  s.method(0, "SET_VIEWPORT_Z_CLIP", 1); // ZERO_TO_POSITIVE_W
  s.method(0, "SET_VIEWPORT_CLIP_HORIZONTAL", 0, width << 16).method(0, "SET_VIEWPORT_CLIP_VERTICAL", 0, height << 16);
  s.method(0, "SET_VERTEX_STREAM_A_FORMAT", 0, stride | (1u << 12));
  s.method(0, "SET_VERTEX_STREAM_A_LOCATION_A", 0, high(kVertices)).method(0, "SET_VERTEX_STREAM_A_LOCATION_B", 0, low(kVertices));
  // SET_VERTEX_ATTRIBUTE_A: stream 4:0, offset 20:7, size 26:21 (1 = R32G32B32A32), type 29:27 (7 = FLOAT).
  s.method(0, "SET_VERTEX_ATTRIBUTE_A", 0, 0u | (0u << 7) | (1u << 21) | (7u << 27));
  s.method(0, "SET_VERTEX_ATTRIBUTE_A", 1, 0u | (16u << 7) | (1u << 21) | (7u << 27));
}

void RendererScene::run(const maxwell::StreamBuilder& s) {
  const maxwell::GpfifoEntry entry = s.place(gpu.memory(), next_pushbuffer);
  next_pushbuffer += (s.size() * 4 + 0xff) & ~uint64_t{0xff};
  gpu.submit(0, entry);
  const maxwell::RunResult result = gpu.run(maxwell::RunOptions{std::chrono::milliseconds(20)});
  for (const auto& diagnostic : gpu.diagnostics()) UNSCOPED_INFO(diagnostic.describe());
  REQUIRE(result.idle);
  renderer->flush();
  for (const auto& message : renderer->diagnostics()) UNSCOPED_INFO(message);
  REQUIRE(renderer->diagnostics().empty());
}

void RendererScene::write_floats(uint64_t address, const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  gpu.memory().write(address, bytes);
}

void RendererScene::write_words(uint64_t address, std::span<const uint32_t> words) {
  gpu.memory().write(address, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(words.data()), words.size() * 4));
}

void RendererScene::bind_textures(maxwell::StreamBuilder& s, uint64_t headers, uint64_t samplers, uint32_t handle, uint32_t limit) {
  s.method(0, "SET_TEX_HEADER_POOL_A", high(headers)).method(0, "SET_TEX_HEADER_POOL_B", low(headers)).method(0, "SET_TEX_HEADER_POOL_C", limit);
  s.method(0, "SET_TEX_SAMPLER_POOL_A", high(samplers)).method(0, "SET_TEX_SAMPLER_POOL_B", low(samplers)).method(0, "SET_TEX_SAMPLER_POOL_C", limit);
  const uint32_t selector[] = {0x100, high(kConstants), low(kConstants)};
  s.incrementing(0, "SET_CONSTANT_BUFFER_SELECTOR_A", selector);
  s.method(0, "LOAD_CONSTANT_BUFFER_OFFSET", 0).method(0, "LOAD_CONSTANT_BUFFER", 0, handle);
  s.method(0, "BIND_GROUP_CONSTANT_BUFFER", 4, 1u | (2u << 4)); // fragment group, c[2]
}

std::vector<uint8_t> RendererScene::read_target(uint64_t address, uint32_t width, uint32_t height, uint32_t bytes) const {
  textures::SurfaceDescription description;
  description.width = width;
  description.height = height;
  description.element.bytes = bytes;
  description.block_height_log2 = 0;
  const auto layout = textures::SurfaceLayout::compute(description);
  const std::vector<uint8_t> guest = gpu.memory().read_bytes(address, layout.total_size());
  std::vector<uint8_t> linear(size_t{width} * height * bytes);
  textures::deswizzle(layout, 0, 0, textures::whole_level(layout, 0), guest, linear);
  return linear;
}

} // namespace kiln::test
