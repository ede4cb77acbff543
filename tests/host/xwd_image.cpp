#include "tests/host/xwd_image.h"

#include <bit>
#include <fstream>
#include <iterator>
#include <vector>

#include "runtime/base/error.h"

namespace kiln::test {

RgbaImage read_xwd(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto field = [&](size_t index) {
    if (bytes.size() < 4 * index + 4) throw Error(at_offset(path, 4 * index), "XWD header cut short");
    const uint8_t* p = &bytes[4 * index];
    return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3];
  };
  if (field(1) != 7 || field(2) != 2) throw Error(in_file(path), "not an XWD version 7 ZPixmap");
  const uint32_t width = field(4), height = field(5), byte_order = field(7), bits = field(11), pitch = field(12);
  const uint32_t masks[3] = {field(14), field(15), field(16)};
  if (bits != 32 && bits != 24) throw Error(in_file(path), "XWD pixels are not 24 or 32 bits");
  const size_t start = size_t{field(0)} + size_t{field(19)} * 12;
  if (bytes.size() < start + size_t{pitch} * height) throw Error(in_file(path), "XWD pixel rows cut short");
  RgbaImage image{width, height, std::vector<uint8_t>(size_t{width} * height * 4)};
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      const uint8_t* p = &bytes[start + size_t{y} * pitch + size_t{x} * (bits / 8)];
      uint32_t pixel = 0;
      for (uint32_t b = 0; b < bits / 8; ++b)
        pixel |= uint32_t{p[b]} << (byte_order == 0 ? 8 * b : 8 * (bits / 8 - 1 - b)); // 0: LSBFirst
      uint8_t* out = &image.pixels[(size_t{y} * width + x) * 4];
      for (int c = 0; c < 3; ++c) out[c] = static_cast<uint8_t>((pixel & masks[c]) >> std::countr_zero(masks[c]));
      out[3] = 0xff;
    }
  }
  return image;
}

} // namespace kiln::test
