#pragma once
// Occlusion queries behind ZPASS_PIXEL_COUNT reports: once the guest resets the counter, every draw made with
// SET_ZPASS_PIXEL_COUNT enabled runs inside a query of its own; a report sums the results since the reset.
#include <cstdint>
#include <optional>

#include "runtime/gpu/vulkan/context.h"
#include "runtime/gpu/vulkan/maxwell/batches.h"

namespace kiln::vulkan {

class SampleQueries {
public:
  static constexpr uint32_t capacity = 4096;
  explicit SampleQueries(const Context& context);

  /// Begins the query of a draw about to be recorded into `b`'s pass, when the guest counts samples and a
  /// slot is free (summing frees them: see full()).
  std::optional<uint32_t> begin(Batch& b);
  void end(vk::CommandBuffer commands, uint32_t query) const { commands.endQuery(*pool_, query); }
  /// Every slot holds a result not yet summed: sum before the next draw.
  bool full() const { return used_ == capacity; }
  /// Queries recorded since the results were last summed.
  bool pending() const { return used_ != 0; }
  /// Adds the results of the recorded queries to the sum and frees their slots; their batches must be done.
  void collect();
  /// Starts counting from zero (the guest reset the counter); pending results must have been collected.
  void reset();
  uint64_t samples() const { return samples_; }

private:
  const Context& context_;
  bool precise_ = false;   ///< occlusionQueryPrecise
  vk::UniqueQueryPool pool_;
  bool counting_ = false;  ///< the guest reset the counter at least once
  uint32_t used_ = 0;
  uint64_t samples_ = 0;   ///< samples summed so far since the reset
};

} // namespace kiln::vulkan
