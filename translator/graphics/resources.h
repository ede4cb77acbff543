#pragma once
// Which descriptors a translated graphics module reads, found in its SPIR-V: what a runtime (or a test harness)
// must bind before drawing with it.
#include <cstdint>
#include <span>
#include <vector>

namespace kiln::graphics {

struct ResourceBinding {
  enum class Kind : uint8_t { uniform_buffer, sampled_images, samplers };
  uint32_t set = 0;
  uint32_t binding = 0;
  Kind kind = Kind::uniform_buffer;
  uint32_t count = 1;      ///< array size (1 for a uniform buffer)
  uint32_t image_dim = 0;  ///< sampled images: 0 = 1D, 1 = 2D, 2 = 3D, 3 = cube
  bool image_array = false;
};

/// The module's descriptor-backed variables, ordered by (set, binding). Throws kiln::Error for a variable of a
/// kind the graphics backend does not emit.
std::vector<ResourceBinding> resource_bindings(std::span<const uint32_t> spirv);

} // namespace kiln::graphics
