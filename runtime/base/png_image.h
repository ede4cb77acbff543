#pragma once
// RGBA8 images to and from PNG files (readbacks, texture dumps, modders' replacement textures).
#include <cstdint>
#include <filesystem>
#include <vector>

namespace kiln {

struct RgbaImage {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> pixels; ///< width*height*4 bytes, rows top to bottom, R G B A
};

void write_png(const std::filesystem::path& path, const RgbaImage& image);
/// Reads any PNG, converted to 8-bit RGBA.
RgbaImage read_png(const std::filesystem::path& path);

} // namespace kiln
