#include "runtime/gpu/vulkan/presentation_layout.h"

#include <algorithm>
#include <cmath>

namespace kiln::vulkan {

std::optional<Scaling> scaling_from_name(std::string_view name) {
  if (name == "aspect") return Scaling::aspect;
  if (name == "integer") return Scaling::integer;
  if (name == "stretch") return Scaling::stretch;
  return std::nullopt;
}

PresentRect fit_image(uint32_t image_width, uint32_t image_height, double display_aspect, uint32_t target_width,
                      uint32_t target_height, Scaling scaling) {
  if (image_width == 0 || image_height == 0 || target_width == 0 || target_height == 0) return {};
  if (scaling == Scaling::stretch) return {0, 0, target_width, target_height};
  const double aspect = display_aspect > 0 ? display_aspect : double(image_width) / image_height;
  uint32_t width = target_width, height = target_height;
  if (double(target_width) / target_height > aspect) {
    width = std::max<uint32_t>(1, static_cast<uint32_t>(std::lround(target_height * aspect)));
  } else {
    height = std::max<uint32_t>(1, static_cast<uint32_t>(std::lround(target_width / aspect)));
  }
  if (scaling == Scaling::integer && height >= image_height) {
    // Whole multiples of the image's rows; columns follow the pixel aspect (1 for square pixels).
    const double pixel_aspect = aspect * image_height / image_width;
    const uint32_t factor = height / image_height;
    height = image_height * factor;
    width = static_cast<uint32_t>(std::lround(image_width * factor * pixel_aspect));
  }
  return {static_cast<int32_t>((int64_t(target_width) - width) / 2), static_cast<int32_t>((int64_t(target_height) - height) / 2),
          width, height};
}

} // namespace kiln::vulkan
