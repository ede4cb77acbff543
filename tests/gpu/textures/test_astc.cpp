// ASTC: images encoded by Debian's `astcenc` command-line tool (run here, at test time, from an image the test
// draws) decode in kiln within the codec's error of the source; void-extent blocks built by hand decode
// exactly; an all-zero block decodes to the hardware's magenta.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "runtime/base/byte_reader.h"
#include "runtime/base/file_writer.h"
#include "runtime/base/png_image.h"
#include "runtime/gpu/textures/formats/astc.h"

using namespace kiln;
using namespace kiln::textures;
namespace fs = std::filesystem;

namespace {

constexpr uint32_t width = 96, height = 80; // 80 is not a multiple of 6, 8, 10 or 12: partial blocks

fs::path scratch_folder() {
  const fs::path folder = fs::temp_directory_path() / fmt::format("kiln_astc_test_{}", ::getpid());
  fs::create_directories(folder);
  return folder;
}

/// Smooth gradients with a soft disc in alpha: content ASTC is designed for.
RgbaImage source_image() {
  RgbaImage image{width, height, std::vector<uint8_t>(width * height * 4)};
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      uint8_t* p = &image.pixels[(y * width + x) * 4];
      const double d = std::hypot(x - 48.0, y - 40.0);
      p[0] = static_cast<uint8_t>(x * 255 / (width - 1));
      p[1] = static_cast<uint8_t>(y * 255 / (height - 1));
      p[2] = static_cast<uint8_t>(128 + 100 * std::sin(x * 0.07) * std::cos(y * 0.05));
      p[3] = static_cast<uint8_t>(std::clamp(300.0 - d * 5, 0.0, 255.0));
    }
  return image;
}

struct AstcFile {
  AstcFootprint footprint;
  uint32_t width, height;
  std::vector<uint8_t> blocks;
};

/// The .astc container: magic 0x5CA1AB13, block x/y/z bytes, then x/y/z sizes as 24-bit little-endian.
AstcFile read_astc_file(const fs::path& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  ByteReader reader(bytes, path.string());
  if (reader.u32() != 0x5CA1AB13) reader.fail("not an .astc file");
  AstcFile file;
  file.footprint.width = reader.u8();
  file.footprint.height = reader.u8();
  reader.u8();
  const auto u24 = [&] { return reader.u8() | reader.u8() << 8 | reader.u8() << 16; };
  file.width = u24();
  file.height = u24();
  u24();
  const auto rest = reader.bytes(reader.remaining());
  file.blocks.assign(rest.begin(), rest.end());
  return file;
}

void run(const std::string& command) {
  INFO(command);
  REQUIRE(std::system(command.c_str()) == 0);
}

double psnr_rgba8(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
  const double mse = sum / a.size();
  return mse == 0 ? 99.0 : 10 * std::log10(255.0 * 255.0 / mse);
}

/// Radiance RGBE (.hdr), flat scanlines: what astcenc reads for HDR input. `rgb` is replaced by the values the
/// file holds (shared-exponent quantisation), which is what the encoder saw.
void write_hdr(const fs::path& path, std::vector<float>& rgb) {
  std::string text = fmt::format("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y {} +X {}\n", height, width);
  std::vector<uint8_t> bytes(text.begin(), text.end());
  for (size_t i = 0; i < rgb.size(); i += 3) {
    const float largest = std::max({rgb[i], rgb[i + 1], rgb[i + 2]});
    int exponent = 0;
    const float mantissa = std::frexp(largest, &exponent) * 256.0f / largest;
    for (int c = 0; c < 3; ++c) {
      bytes.push_back(static_cast<uint8_t>(rgb[i + c] * mantissa));
      rgb[i + c] = std::ldexp(static_cast<float>(bytes.back()), exponent - 8);
    }
    bytes.push_back(static_cast<uint8_t>(exponent + 128));
  }
  write_file_if_changed(path, bytes);
}

} // namespace

TEST_CASE("LDR and sRGB images encoded by astcenc decode within the codec's error", "[astc]") {
  const fs::path folder = scratch_folder();
  const RgbaImage source = source_image();
  write_png(folder / "source.png", source);
  // Bounds: astcenc -medium on smooth content; PSNR falls with the bit rate (8 bits/texel at 4x4 down to
  // 0.89 at 12x12). Measured 2026-11-29 with astcenc 4.2: see docs/textures.md; each bound is a few dB under.
  const struct {
    AstcFootprint footprint;
    double min_psnr;
  } cases[] = {{{4, 4}, 40}, {{5, 5}, 39}, {{6, 6}, 37}, {{8, 8}, 33}, {{10, 8}, 32}, {{12, 12}, 28}};
  for (const auto& [profile, flag] : {std::pair{AstcProfile::ldr, "-cl"}, std::pair{AstcProfile::srgb, "-cs"}}) {
    for (const auto& c : cases) {
      const std::string block = fmt::format("{}x{}", c.footprint.width, c.footprint.height);
      INFO(flag << " " << block);
      const fs::path encoded = folder / fmt::format("{}{}.astc", flag, block);
      const fs::path decoded = folder / fmt::format("{}{}.png", flag, block);
      run(fmt::format("'{}' {} '{}' '{}' {} -medium -silent", KILN_ASTCENC_TOOL, flag, (folder / "source.png").string(),
                      encoded.string(), block));
      const AstcFile file = read_astc_file(encoded);
      REQUIRE(file.width == width);
      const RgbaImage image = decode_astc_rgba8(width, height, file.footprint, profile, file.blocks, encoded.string());
      const double psnr = psnr_rgba8(image.pixels, source.pixels);
      UNSCOPED_INFO(flag << " " << block << " PSNR " << psnr << " dB");
      CHECK(psnr >= c.min_psnr);
      // The tool's own decode of the same file must agree texel for texel (block order, partial blocks).
      run(fmt::format("'{}' {} '{}' '{}' -silent", KILN_ASTCENC_TOOL, profile == AstcProfile::srgb ? "-ds" : "-dl",
                      encoded.string(), decoded.string()));
      CHECK(read_png(decoded).pixels == image.pixels);
    }
  }
  fs::remove_all(folder);
}

TEST_CASE("HDR images encoded by astcenc decode within the codec's error", "[astc]") {
  const fs::path folder = scratch_folder();
  std::vector<float> rgb(width * height * 3);
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      float* p = &rgb[(y * width + x) * 3];
      // 0.25 .. 56: several stops across the image, as HDR is for; the channels of a texel stay within 2
      // stops of each other, so the shared-exponent source file keeps them all precise.
      p[0] = std::exp2(x / 12.0f - 2);
      p[1] = p[0] * (0.5f + y / 160.0f);
      p[2] = p[0] * (0.75f + 0.25f * std::sin(y * 0.1f));
    }
  write_hdr(folder / "source.hdr", rgb);
  for (const AstcFootprint footprint : {AstcFootprint{4, 4}, AstcFootprint{6, 6}, AstcFootprint{8, 8}}) {
    const std::string block = fmt::format("{}x{}", footprint.width, footprint.height);
    INFO(block);
    const fs::path encoded = folder / (block + ".astc");
    run(fmt::format("'{}' -ch '{}' '{}' {} -medium -silent", KILN_ASTCENC_TOOL, (folder / "source.hdr").string(),
                    encoded.string(), block));
    const AstcFile file = read_astc_file(encoded);
    const std::vector<float> decoded =
        decode_astc_rgba32f(width, height, file.footprint, AstcProfile::hdr, file.blocks, encoded.string());
    // Error in stops (log2), the measure HDR codecs are judged by: mean below 0.04 stops (2.8%), worst below
    // 0.5 (measured 2026-11-29: means 0.009 / 0.014 / 0.021, worst 0.06 / 0.11 / 0.24 at 4x4 / 6x6 / 8x8).
    double sum = 0, worst = 0;
    for (size_t i = 0, t = 0; i < rgb.size(); i += 3, t += 4)
      for (int c = 0; c < 3; ++c) {
        const double stops = std::abs(std::log2(decoded[t + c] / rgb[i + c]));
        sum += stops;
        worst = std::max(worst, stops);
      }
    const double mean = sum / rgb.size();
    UNSCOPED_INFO("HDR " << block << " mean " << mean << " worst " << worst << " stops");
    CHECK(mean < 0.04);
    CHECK(worst < 0.5);
  }
  fs::remove_all(folder);
}

namespace {
/// A void-extent (constant colour) block: bits 0-8 = 0x1FC, bit 9 = HDR, bits 10-11 = 1, bits 12-63 all ones
/// (no extent), then R, G, B, A as 16-bit values (UNORM16 for LDR, FP16 for HDR), little-endian.
std::vector<uint8_t> void_extent_block(bool hdr, uint16_t r, uint16_t g, uint16_t b, uint16_t a) {
  uint64_t low = 0xFFFFFFFFFFFFFDFCull | (hdr ? uint64_t{1} << 9 : 0);
  std::vector<uint8_t> block(16);
  for (int i = 0; i < 8; ++i) block[i] = static_cast<uint8_t>(low >> (8 * i));
  const uint16_t colour[4] = {r, g, b, a};
  for (int i = 0; i < 4; ++i) block[8 + 2 * i] = colour[i] & 0xff, block[9 + 2 * i] = colour[i] >> 8;
  return block;
}
} // namespace

TEST_CASE("void-extent blocks decode to their constant colour exactly", "[astc]") {
  // UNORM16 k * 257 is exactly k / 255, so RGBA8 gets k whatever the rounding.
  const auto ldr = void_extent_block(false, 51 * 257, 128 * 257, 204 * 257, 0xFFFF);
  const RgbaImage image = decode_astc_rgba8(6, 6, {6, 6}, AstcProfile::ldr, ldr, "void");
  for (size_t i = 0; i < image.pixels.size(); i += 4) {
    CHECK(std::vector<uint8_t>(image.pixels.begin() + i, image.pixels.begin() + i + 4) ==
          std::vector<uint8_t>{51, 128, 204, 255});
  }
  // FP16 2.0, 1.0, 0.5, 1.0
  const auto hdr = void_extent_block(true, 0x4000, 0x3C00, 0x3800, 0x3C00);
  const std::vector<float> texels = decode_astc_rgba32f(8, 8, {8, 8}, AstcProfile::hdr, hdr, "void-hdr");
  for (size_t i = 0; i < texels.size(); i += 4) {
    CHECK(texels[i] == 2.0f);
    CHECK(texels[i + 1] == 1.0f);
    CHECK(texels[i + 2] == 0.5f);
    CHECK(texels[i + 3] == 1.0f);
  }
}

TEST_CASE("an all-zero block decodes to magenta in every profile and output", "[astc]") {
  // Block mode 0 is reserved: an error block. Hardware samples it as magenta (seed 002 section 2.2).
  const std::vector<uint8_t> zero(16, 0);
  for (AstcProfile profile : {AstcProfile::ldr, AstcProfile::srgb}) {
    const RgbaImage image = decode_astc_rgba8(4, 4, {4, 4}, profile, zero, "zero");
    CHECK(std::vector<uint8_t>(image.pixels.begin(), image.pixels.begin() + 4) == std::vector<uint8_t>{255, 0, 255, 255});
  }
  for (AstcProfile profile : {AstcProfile::ldr, AstcProfile::srgb, AstcProfile::hdr}) {
    const std::vector<float> texels = decode_astc_rgba32f(4, 4, {4, 4}, profile, zero, "zero");
    CHECK(std::vector<float>(texels.begin(), texels.begin() + 4) == std::vector<float>{1, 0, 1, 1});
  }
}

TEST_CASE("bad ASTC descriptions are errors", "[astc]") {
  const std::vector<uint8_t> blocks(16 * 4, 0);
  CHECK_THROWS_WITH(decode_astc_rgba8(8, 8, {7, 7}, AstcProfile::ldr, blocks, "a"),
                    Catch::Matchers::Contains("7x7 is not an ASTC"));
  CHECK_THROWS_WITH(decode_astc_rgba8(16, 16, {4, 4}, AstcProfile::ldr, blocks, "short.astc"),
                    Catch::Matchers::Contains("short.astc"));
  CHECK_THROWS_AS(decode_astc_rgba8(0, 8, {4, 4}, AstcProfile::ldr, blocks, "a"), Error);
}
