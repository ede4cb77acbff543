#include "bench/renderer/frame_scene.h"

#include <bit>
#include <cstring>
#include <span>
#include <vector>

#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/textures/blocklinear/surface.h"
#include "runtime/gpu/textures/blocklinear/swizzle.h"
#include "translator/sass/sm5x/text_assembler.h"

namespace kiln::bench {
namespace {

constexpr uint64_t kPrograms = kSceneArena + 0x100000, kVertices = kSceneArena + 0x200000, kVertexConstants = kSceneArena + 0x240000,
                   kFragmentConstants = kSceneArena + 0x241000, kHeaders = kSceneArena + 0x250000, kSamplers = kSceneArena + 0x251000,
                   kTextures = kSceneArena + 0x300000, kColorTarget = kSceneArena + 0x800000, kDepthTarget = kSceneArena + 0xc00000;
constexpr uint32_t kVertexProgram = 0x0, kFragmentProgram = 0x1000;
constexpr uint32_t kTextureSize = 64;

uint32_t high(uint64_t a) { return static_cast<uint32_t>(a >> 32); }
uint32_t low(uint64_t a) { return static_cast<uint32_t>(a); }
void set_bit(std::vector<uint8_t>& h, unsigned bit) { h[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8)); }

// SPH bits as in the renderer tests (open-gpu-doc Shader Program Header): VTG reading generics 0-1 and writing
// position + generic 0; PS reading generic 0 (perspective) and writing colour target 0.
std::vector<uint8_t> vertex_header() {
  std::vector<uint8_t> h(0x50, 0);
  const uint32_t word0 = 1u | (3u << 5) | (1u << 10);
  std::memcpy(h.data(), &word0, 4);
  for (uint32_t i = 0; i < 8; ++i) set_bit(h, 160 + 0x80 / 4 + i);
  for (uint32_t i = 0; i < 8; ++i) set_bit(h, 400 + 0x70 / 4 + i); // position, generic 0
  return h;
}

std::vector<uint8_t> pixel_header() {
  std::vector<uint8_t> h(0x50, 0);
  const uint32_t word0 = 2u | (3u << 5) | (5u << 10);
  std::memcpy(h.data(), &word0, 4);
  for (uint32_t c = 0; c < 4; ++c) set_bit(h, 192 + 2 * c + 1);
  for (uint32_t c = 0; c < 4; ++c) set_bit(h, 576 + c);
  return h;
}

void write_program(maxwell::AddressSpace& memory, uint64_t address, std::vector<uint8_t> bytes, const std::vector<uint64_t>& code) {
  const size_t at = bytes.size();
  bytes.resize(at + code.size() * 8);
  std::memcpy(bytes.data() + at, code.data(), code.size() * 8);
  memory.write(address, bytes);
}

} // namespace

void write_scene_memory(maxwell::AddressSpace& memory, const FrameSceneOptions& options) {
  memory.map_owned(kSceneArena, kSceneArenaSize);
  using sass::sm5x::assemble_program;
  // Vertex: position = attribute 0 * c[1][0xc] + (c[1][0x0], c[1][0x4]), z = c[1][0x8]; generic 0 = (u, v, 0, 1).
  write_program(memory, kPrograms + kVertexProgram, vertex_header(),
                assemble_program({"ALD R0, a[0x80]", "ALD R1, a[0x84]", "ALD R4, a[0x90]", "ALD R5, a[0x94]",
                                  "MOV R8, c[0x1][0xc]", "FMUL R0, R0, R8", "FMUL R1, R1, R8", "MOV R8, c[0x1][0x0]", "FADD R0, R0, R8",
                                  "MOV R8, c[0x1][0x4]", "FADD R1, R1, R8", "MOV R2, c[0x1][0x8]", "MOV32I R3, 0x3f800000",
                                  "MOV32I R6, 0x0", "MOV32I R7, 0x3f800000", "AST a[0x70], R0", "AST a[0x74], R1", "AST a[0x78], R2",
                                  "AST a[0x7c], R3", "AST a[0x80], R4", "AST a[0x84], R5", "AST a[0x88], R6", "AST a[0x8c], R7", "EXIT"}));
  // Fragment: the texture bound through the handle in c[2][0] at (u, v).
  write_program(memory, kPrograms + kFragmentProgram, pixel_header(),
                assemble_program({"IPA.PASS R0, a[0x80], RZ", "IPA.PASS R1, a[0x84], RZ", "TEX R0, R0, RZ, 0x0, 2D, 0xf", "EXIT"}));
  // One quad (triangle strip): position (x, y, 0, 1), (u, v, 0, 1).
  const float quad[] = {-1, -1, 0, 1, 0, 0, 0, 1, 1, -1, 0, 1, 1, 0, 0, 1, -1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1};
  memory.write(kVertices, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(quad), sizeof(quad)));
  textures::SurfaceDescription description;
  description.width = kTextureSize;
  description.height = kTextureSize;
  description.element.bytes = 4;
  description.block_height_log2 = 0;
  const auto layout = textures::SurfaceLayout::compute(description);
  for (uint32_t t = 0; t < options.textures; ++t) {
    std::vector<uint8_t> texels(kTextureSize * kTextureSize * 4);
    for (uint32_t i = 0; i < kTextureSize * kTextureSize; ++i) {
      const uint8_t x = static_cast<uint8_t>(i % kTextureSize), y = static_cast<uint8_t>(i / kTextureSize);
      const uint8_t texel[4] = {static_cast<uint8_t>(x * 4 + t * 50), static_cast<uint8_t>(y * 4), static_cast<uint8_t>(t * 60), 160};
      std::memcpy(&texels[i * 4], texel, 4);
    }
    std::vector<uint8_t> guest(layout.total_size());
    textures::swizzle(layout, 0, 0, textures::whole_level(layout, 0), texels, guest);
    const uint64_t address = kTextures + uint64_t{t} * 0x10000;
    memory.write(address, guest);
    // TIC (clb197tex.h TEXHEAD_BL): A8B8G8R8 UNORM, identity swizzle, block-linear 1-GOB blocks, 2D, 64x64.
    const uint32_t tic[8] = {0x08u | (2u << 7) | (2u << 10) | (2u << 13) | (2u << 16) | (2u << 19) | (3u << 22) | (4u << 25) | (5u << 28),
                             low(address), high(address) | (3u << 21), 0, (kTextureSize - 1) | (1u << 23), (kTextureSize - 1) | (1u << 31), 0, 0};
    memory.write(kHeaders + t * 32, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(tic), 32));
  }
  // TSC 0: clamp to edge, linear filtering.
  const uint32_t tsc[8] = {2u | (2u << 3) | (2u << 6), 2u | (2u << 4) | (1u << 6), 0, 0, 0, 0, 0, 0};
  memory.write(kSamplers, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(tsc), 32));
}

maxwell::StreamBuilder build_frame(const FrameSceneOptions& options) {
  maxwell::StreamBuilder s;
  const uint32_t w = options.width, h = options.height;
  s.bind(0, maxwell::ClassId::threed);
  s.method(0, "SET_PROGRAM_REGION_A", high(kPrograms)).method(0, "SET_PROGRAM_REGION_B", low(kPrograms));
  s.method(0, "SET_PIPELINE_SHADER", 1, 1u | (1u << 4)).method(0, "SET_PIPELINE_PROGRAM", 1, kVertexProgram);
  s.method(0, "SET_PIPELINE_SHADER", 5, 1u | (5u << 4)).method(0, "SET_PIPELINE_PROGRAM", 5, kFragmentProgram);
  s.method(0, "SET_PIPELINE_BINDING", 5, 4);
  s.method(0, "SET_COLOR_TARGET_A", 0, high(kColorTarget)).method(0, "SET_COLOR_TARGET_B", 0, low(kColorTarget));
  s.method(0, "SET_COLOR_TARGET_WIDTH", 0, w).method(0, "SET_COLOR_TARGET_HEIGHT", 0, h);
  s.method(0, "SET_COLOR_TARGET_FORMAT", 0, 0xd5).method(0, "SET_COLOR_TARGET_MEMORY", 0, 0); // A8B8G8R8
  s.method(0, "SET_CT_SELECT", 1).method(0, "SET_CT_WRITE", 0, 0x1111);
  s.method(0, "SET_ZT_A", high(kDepthTarget)).method(0, "SET_ZT_B", low(kDepthTarget));
  s.method(0, "SET_ZT_FORMAT", 0x0a).method(0, "SET_ZT_BLOCK_SIZE", 0); // ZF32
  s.method(0, "SET_ZT_SIZE_A", w).method(0, "SET_ZT_SIZE_B", h).method(0, "SET_ZT_SIZE_C", 1).method(0, "SET_ZT_SELECT", 1);
  const float half_w = static_cast<float>(w) / 2, half_h = static_cast<float>(h) / 2;
  s.method(0, "SET_VIEWPORT_SCALE_X", 0, std::bit_cast<uint32_t>(half_w)).method(0, "SET_VIEWPORT_OFFSET_X", 0, std::bit_cast<uint32_t>(half_w));
  s.method(0, "SET_VIEWPORT_SCALE_Y", 0, std::bit_cast<uint32_t>(half_h)).method(0, "SET_VIEWPORT_OFFSET_Y", 0, std::bit_cast<uint32_t>(half_h));
  s.method(0, "SET_VIEWPORT_SCALE_Z", 0, std::bit_cast<uint32_t>(1.0f)).method(0, "SET_VIEWPORT_OFFSET_Z", 0, 0);
  s.method(0, "SET_VIEWPORT_Z_CLIP", 1);
  s.method(0, "SET_VIEWPORT_CLIP_HORIZONTAL", 0, w << 16).method(0, "SET_VIEWPORT_CLIP_VERTICAL", 0, h << 16);
  s.method(0, "SET_VERTEX_STREAM_A_FORMAT", 0, 32u | (1u << 12));
  s.method(0, "SET_VERTEX_STREAM_A_LOCATION_A", 0, high(kVertices)).method(0, "SET_VERTEX_STREAM_A_LOCATION_B", 0, low(kVertices));
  s.method(0, "SET_VERTEX_ATTRIBUTE_A", 0, (0u << 7) | (1u << 21) | (7u << 27)); // R32G32B32A32 FLOAT
  s.method(0, "SET_VERTEX_ATTRIBUTE_A", 1, (16u << 7) | (1u << 21) | (7u << 27));
  s.method(0, "SET_TEX_HEADER_POOL_A", high(kHeaders)).method(0, "SET_TEX_HEADER_POOL_B", low(kHeaders)).method(0, "SET_TEX_HEADER_POOL_C", 15);
  s.method(0, "SET_TEX_SAMPLER_POOL_A", high(kSamplers)).method(0, "SET_TEX_SAMPLER_POOL_B", low(kSamplers)).method(0, "SET_TEX_SAMPLER_POOL_C", 15);
  // c[1] of the vertex group (0) and c[2] of the pixel group (4), 256 bytes each.
  const uint32_t vertex_selector[] = {0x100, high(kVertexConstants), low(kVertexConstants)};
  const uint32_t fragment_selector[] = {0x100, high(kFragmentConstants), low(kFragmentConstants)};
  s.incrementing(0, "SET_CONSTANT_BUFFER_SELECTOR_A", vertex_selector).method(0, "BIND_GROUP_CONSTANT_BUFFER", 0, 1u | (1u << 4));
  s.incrementing(0, "SET_CONSTANT_BUFFER_SELECTOR_A", fragment_selector).method(0, "BIND_GROUP_CONSTANT_BUFFER", 4, 1u | (2u << 4));
  // Clear colour and depth.
  for (uint32_t c = 0; c < 4; ++c) s.method(0, "SET_COLOR_CLEAR_VALUE", c, std::bit_cast<uint32_t>(c == 3 ? 1.0f : 0.1f));
  s.method(0, "SET_Z_CLEAR_VALUE", std::bit_cast<uint32_t>(1.0f)).method(0, "SET_CLEAR_SURFACE_CONTROL", 0).method(0, "CLEAR_SURFACE", 1u | (0xfu << 2));
  s.method(0, "SET_DEPTH_TEST", 1).method(0, "SET_DEPTH_WRITE", 1).method(0, "SET_DEPTH_FUNC", 0x203); // OGL LEQUAL
  s.method(0, "SET_BLEND", 0, 1).method(0, "SET_BLEND_SEPARATE_FOR_ALPHA", 0).method(0, "SET_BLEND_COLOR_OP", 0x8006);
  s.method(0, "SET_BLEND_COLOR_SOURCE_COEFF", 0x4302).method(0, "SET_BLEND_COLOR_DEST_COEFF", 0x4303); // SRC_ALPHA, 1 - SRC_ALPHA
  for (uint32_t d = 0; d < options.draws; ++d) {
    // Every 64 draws the blend mode flips between alpha and additive, as a title's passes would: two pipelines.
    if (d % 64 == 0) s.method(0, "SET_BLEND_COLOR_DEST_COEFF", (d / 64) % 2 ? 0x4001 : 0x4303);
    const float x = static_cast<float>(d % 16) / 8.0f - 0.9375f, y = static_cast<float>((d / 16) % 16) / 8.0f - 0.9375f;
    const float z = 1.0f - static_cast<float>(d) / static_cast<float>(options.draws + 1), scale = 0.1f + 0.05f * static_cast<float>(d % 5);
    const uint32_t transform[] = {std::bit_cast<uint32_t>(x), std::bit_cast<uint32_t>(y), std::bit_cast<uint32_t>(z), std::bit_cast<uint32_t>(scale)};
    s.incrementing(0, "SET_CONSTANT_BUFFER_SELECTOR_A", vertex_selector);
    s.method(0, "LOAD_CONSTANT_BUFFER_OFFSET", 0).incrementing(0, "LOAD_CONSTANT_BUFFER", transform);
    s.incrementing(0, "SET_CONSTANT_BUFFER_SELECTOR_A", fragment_selector);
    s.method(0, "LOAD_CONSTANT_BUFFER_OFFSET", 0).method(0, "LOAD_CONSTANT_BUFFER", 0, d % options.textures); // TIC d % n, TSC 0
    s.method(0, "BEGIN", 5).method(0, "SET_VERTEX_ARRAY_START", 0).method(0, "DRAW_VERTEX_ARRAY", 4).method(0, "END", 0); // TRIANGLE_STRIP
  }
  return s;
}

} // namespace kiln::bench
