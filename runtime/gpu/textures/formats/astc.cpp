#include "runtime/gpu/textures/formats/astc.h"

#include <astcenc.h>
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <memory>

#include "runtime/base/bits.h"
#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"

namespace kiln::textures {
namespace {

constexpr uint32_t astc_block_bytes = 16;

struct ContextDeleter {
  void operator()(astcenc_context* context) const { astcenc_context_free(context); }
};
using Context = std::unique_ptr<astcenc_context, ContextDeleter>;

std::span<const uint8_t> checked_blocks(uint32_t width, uint32_t height, AstcFootprint footprint,
                                        std::span<const uint8_t> blocks, const std::string& name) {
  if (!astc_footprint_valid(footprint)) {
    throw Error(in_file(name), fmt::format("{}x{} is not an ASTC 2D block footprint", footprint.width, footprint.height));
  }
  if (width == 0 || height == 0 || width > 65536 || height > 65536) {
    throw Error(in_file(name), fmt::format("ASTC image of {}x{} texels (each side must be 1..65536)", width, height));
  }
  return ByteReader(blocks, name).span_at(0, astc_data_size(width, height, footprint));
}

Context make_context(AstcFootprint footprint, AstcProfile profile, const std::string& name) {
  const astcenc_profile astc_profile = profile == AstcProfile::hdr    ? ASTCENC_PRF_HDR
                                       : profile == AstcProfile::srgb ? ASTCENC_PRF_LDR_SRGB
                                                                      : ASTCENC_PRF_LDR;
  astcenc_config config{};
  astcenc_error status = astcenc_config_init(astc_profile, footprint.width, footprint.height, 1, ASTCENC_PRE_FASTEST,
                                             ASTCENC_FLG_DECOMPRESS_ONLY, &config);
  astcenc_context* context = nullptr;
  if (status == ASTCENC_SUCCESS) status = astcenc_context_alloc(&config, 1, &context);
  if (status != ASTCENC_SUCCESS) {
    throw Error(in_file(name), fmt::format("libastcenc: {}", astcenc_get_error_string(status)));
  }
  return Context(context);
}

void decompress(astcenc_context* context, std::span<const uint8_t> blocks, astcenc_image& image,
                const std::string& name) {
  const astcenc_swizzle identity{ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B, ASTCENC_SWZ_A};
  const astcenc_error status = astcenc_decompress_image(context, blocks.data(), blocks.size(), &image, &identity, 0);
  if (status != ASTCENC_SUCCESS) {
    throw Error(in_file(name), fmt::format("libastcenc: {}", astcenc_get_error_string(status)));
  }
}

} // namespace

bool astc_footprint_valid(AstcFootprint f) {
  static constexpr AstcFootprint valid[] = {{4, 4},  {5, 4},  {5, 5},  {6, 5},   {6, 6},   {8, 5},    {8, 6},
                                            {8, 8},  {10, 5}, {10, 6}, {10, 8},  {10, 10}, {12, 10}, {12, 12}};
  for (const AstcFootprint& v : valid) {
    if (v.width == f.width && v.height == f.height) return true;
  }
  return false;
}

uint64_t astc_data_size(uint32_t width, uint32_t height, AstcFootprint footprint) {
  return div_ceil(width, footprint.width) * div_ceil(height, footprint.height) * astc_block_bytes;
}

RgbaImage decode_astc_rgba8(uint32_t width, uint32_t height, AstcFootprint footprint, AstcProfile profile,
                            std::span<const uint8_t> blocks, const std::string& name) {
  if (profile == AstcProfile::hdr) throw Error(in_file(name), "HDR ASTC decodes to RGBA32F, not RGBA8");
  const std::span<const uint8_t> data = checked_blocks(width, height, footprint, blocks, name);
  RgbaImage result{width, height, std::vector<uint8_t>(size_t{width} * height * 4)};
  void* rows = result.pixels.data();
  astcenc_image image{width, height, 1, ASTCENC_TYPE_U8, &rows};
  const Context context = make_context(footprint, profile, name);
  decompress(context.get(), data, image, name);
  return result;
}

std::vector<float> decode_astc_rgba32f(uint32_t width, uint32_t height, AstcFootprint footprint, AstcProfile profile,
                                       std::span<const uint8_t> blocks, const std::string& name) {
  const std::span<const uint8_t> data = checked_blocks(width, height, footprint, blocks, name);
  std::vector<float> result(size_t{width} * height * 4);
  void* rows = result.data();
  astcenc_image image{width, height, 1, ASTCENC_TYPE_F32, &rows};
  const Context context = make_context(footprint, profile, name);
  decompress(context.get(), data, image, name);
  // libastcenc writes error blocks (reserved modes, an all-zero block, invalid encodings) as magenta into
  // 8-bit images but as NaN into float ones, in every profile; hardware shows magenta, so repaint them.
  for (size_t texel = 0; texel < result.size(); texel += 4) {
    float* rgba = &result[texel];
    if (std::isnan(rgba[0]) || std::isnan(rgba[1]) || std::isnan(rgba[2]) || std::isnan(rgba[3])) {
      rgba[0] = 1, rgba[1] = 0, rgba[2] = 1, rgba[3] = 1;
    }
  }
  return result;
}

} // namespace kiln::textures
