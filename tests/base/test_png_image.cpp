#include <catch2/catch.hpp>

#include <filesystem>

#include "runtime/base/error.h"
#include "runtime/base/png_image.h"

using namespace kiln;

TEST_CASE("PNG round trip keeps every RGBA8 pixel", "[png]") {
  RgbaImage image{5, 3, {}};
  for (uint32_t i = 0; i < 5 * 3 * 4; ++i) image.pixels.push_back(static_cast<uint8_t>(i * 13 + 1));
  const auto path = std::filesystem::temp_directory_path() / ("kiln-png-" + std::to_string(::getpid()) + ".png");
  write_png(path, image);
  const RgbaImage back = read_png(path);
  CHECK(back.width == 5);
  CHECK(back.height == 3);
  CHECK(back.pixels == image.pixels);
  std::filesystem::remove(path);
}

TEST_CASE("bad PNG input and inconsistent images are errors", "[png]") {
  CHECK_THROWS_AS(write_png("/tmp/never.png", RgbaImage{2, 2, std::vector<uint8_t>(3)}), Error);
  CHECK_THROWS_AS(read_png("/nonexistent/x.png"), Error);
}
