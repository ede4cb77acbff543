#pragma once
// Where a guest frame lands in a window: its display aspect kept (letterboxed or pillarboxed), an integer
// multiple of its pixels, or stretched over the whole window; always centred.
#include <cstdint>
#include <optional>
#include <string_view>

namespace kiln::vulkan {

enum class Scaling { aspect, integer, stretch };
std::optional<Scaling> scaling_from_name(std::string_view name);

struct PresentRect {
  int32_t x = 0, y = 0;
  uint32_t width = 0, height = 0;
  bool operator==(const PresentRect&) const = default;
};

/// The rectangle of a `target_width` x `target_height` window an image of `image_width` x `image_height`
/// pixels fills. `display_aspect` is the console's width:height of the picture (0: the image's own, square
/// pixels). Integer scaling uses the largest whole factor of the image size that fits inside the rectangle the
/// aspect rule gives (the aspect rectangle itself when the image is taller than the window), horizontally widened by the pixel aspect when it is not 1.
PresentRect fit_image(uint32_t image_width, uint32_t image_height, double display_aspect, uint32_t target_width,
                      uint32_t target_height, Scaling scaling);

} // namespace kiln::vulkan
