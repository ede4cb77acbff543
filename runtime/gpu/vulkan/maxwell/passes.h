#pragma once
// The render pass being recorded (dynamic rendering over guest surfaces): a new pass begins only when a draw or
// clear needs other attachments.
#include <optional>
#include <vector>

#include "runtime/gpu/vulkan/maxwell/batches.h"
#include "runtime/gpu/vulkan/maxwell/guest_surface.h"

namespace kiln::vulkan {

struct Pass {
  std::vector<GuestSurface*> colors; ///< nullptr: a disabled target keeps its slot without an attachment
  GuestSurface* depth = nullptr;
  vk::Extent2D extent;
  bool operator==(const Pass& other) const { return colors == other.colors && depth == other.depth; }
};

class PassRecorder {
public:
  /// The pass being recorded, or nullptr.
  const Pass* current() const { return pass_ ? &*pass_ : nullptr; }
  /// Whether `surface` is an attachment of the pass being recorded.
  bool attaches(const GuestSurface& surface) const;
  /// Begins `wanted` in `b` (after a barrier against the attachments' earlier writes), unless it is the pass
  /// being recorded. The previous pass must have been ended.
  void begin(Batch& b, const Pass& wanted);
  /// Ends the pass being recorded in `b`, if any.
  void end(Batch* b);

private:
  std::optional<Pass> pass_;
};

} // namespace kiln::vulkan
