#include "runtime/base/png_image.h"

#include <png.h>

#include <fmt/format.h>

#include "runtime/base/error.h"

namespace kiln {

void write_png(const std::filesystem::path& path, const RgbaImage& image) {
  if (image.pixels.size() != size_t{image.width} * image.height * 4) {
    throw Error(in_file(path.string()),
                fmt::format("image of {}x{} needs {} bytes of RGBA8, got {}", image.width, image.height,
                            size_t{image.width} * image.height * 4, image.pixels.size()));
  }
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = image.width;
  png.height = image.height;
  png.format = PNG_FORMAT_RGBA;
  if (!png_image_write_to_file(&png, path.c_str(), 0, image.pixels.data(), 0, nullptr)) {
    const std::string message = png.message;
    png_image_free(&png);
    throw Error(in_file(path.string()), "cannot write PNG: " + message);
  }
}

RgbaImage read_png(const std::filesystem::path& path) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str())) {
    const std::string message = png.message;
    png_image_free(&png);
    throw Error(in_file(path.string()), "cannot read PNG: " + message);
  }
  png.format = PNG_FORMAT_RGBA;
  RgbaImage image{png.width, png.height, std::vector<uint8_t>(PNG_IMAGE_SIZE(png))};
  if (!png_image_finish_read(&png, nullptr, image.pixels.data(), 0, nullptr)) {
    const std::string message = png.message;
    png_image_free(&png);
    throw Error(in_file(path.string()), "cannot decode PNG: " + message);
  }
  return image;
}

} // namespace kiln
