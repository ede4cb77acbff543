#include "tests/gpu/renderer/renderer_scene.h"

#include <bit>
#include <cstring>

#include <catch2/catch.hpp>

#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/textures/blocklinear/swizzle.h"
#include "translator/sass/sm5x/text_assembler.h"

namespace kiln::test {
using sass::sm5x::assemble_program;
using sass::sm5x::assemble_sass;
namespace {
void set_bit(std::vector<uint8_t>& header, unsigned bit) { header[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8)); }
} // namespace

// SPH facts (open-gpu-doc Shader Program Header; kiln's translator/sass/sm5x/sph.cpp reads the same bits):
// word 0 bits 0-4 SphType (1 VTG, 2 PS), 5-9 Version, 10-13 ShaderType (1 vertex, 5 pixel); VTG input map from
// bit 160 (one bit per attribute word), output map from bit 400; PS generic inputs from bit 192 (2 bits per
// component, 2 = perspective), colour target outputs from bit 576 (4 bits per target).
std::vector<uint8_t> vertex_header(uint32_t inputs) {
  std::vector<uint8_t> header(0x50, 0);
  const uint32_t word0 = 1u | (3u << 5) | (1u << 10);
  std::memcpy(header.data(), &word0, 4);
  for (uint32_t i = 0; i < 4 * inputs; ++i) set_bit(header, 160 + 0x80 / 4 + i);
  for (uint32_t i = 0; i < 4; ++i) set_bit(header, 400 + 0x70 / 4 + i); // position
  for (uint32_t i = 0; i < 4; ++i) set_bit(header, 400 + 0x80 / 4 + i); // generic 0
  return header;
}

std::vector<uint8_t> pixel_header() {
  std::vector<uint8_t> header(0x50, 0);
  const uint32_t word0 = 2u | (3u << 5) | (5u << 10);
  std::memcpy(header.data(), &word0, 4);
  for (uint32_t c = 0; c < 4; ++c) set_bit(header, 192 + 2 * c + 1); // value 2: perspective
  for (uint32_t c = 0; c < 4; ++c) set_bit(header, 576 + c);
  return header;
}

std::vector<uint8_t> program(const std::vector<uint8_t>& header, const std::vector<uint64_t>& code) {
  std::vector<uint8_t> bytes = header;
  const size_t at = bytes.size();
  bytes.resize(at + code.size() * 8);
  std::memcpy(bytes.data() + at, code.data(), code.size() * 8);
  return bytes;
}

RendererScene::RendererScene(vulkan::Context& context_) : context(context_) {
  gpu.memory().map_owned(kArena, kArenaSize);
  renderer = std::make_unique<vulkan::MaxwellRenderer>(context, gpu.memory());
  gpu.set_backend(renderer.get());
  gpu.create_channel();
}

void RendererScene::write_pass_through_programs() {
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
  s.bind(0, maxwell::ClassId::threed);
  s.method(0, "SET_PROGRAM_REGION_A", high(kPrograms)).method(0, "SET_PROGRAM_REGION_B", low(kPrograms));
  s.method(0, "SET_PIPELINE_SHADER", 1, 1u | (1u << 4)).method(0, "SET_PIPELINE_PROGRAM", 1, kVertexProgramOffset); // VERTEX_B
  s.method(0, "SET_PIPELINE_SHADER", 5, 1u | (5u << 4)).method(0, "SET_PIPELINE_PROGRAM", 5, kFragmentProgramOffset); // PIXEL
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
