#pragma once
// The renderer's submissions: batches of command buffers with the staging memory and descriptors they use,
// kept alive until their fence signals, then reused.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "runtime/gpu/vulkan/context.h"
#include "runtime/gpu/vulkan/memory.h"

namespace kiln::vulkan {

/// Host-visible staging memory handed out linearly for one batch (vertex, index and constant data).
class Arena {
public:
  struct Slice {
    vk::Buffer buffer;
    vk::DeviceSize offset = 0;
    uint8_t* data = nullptr;
  };
  Slice allocate(const Context& context, vk::DeviceSize size, vk::DeviceSize alignment);
  void reset();

private:
  struct Chunk {
    Buffer buffer;
    vk::DeviceSize used = 0;
  };
  std::vector<Chunk> chunks_;
  size_t current_ = 0;
};

/// One submission's worth of work and everything it needs kept alive until its fence signals.
struct Batch {
  vk::UniqueCommandPool pool;
  vk::CommandBuffer uploads, commands; ///< uploads run before commands
  vk::UniqueFence fence;
  Arena arena;
  std::vector<Buffer> staging;           ///< surface uploads
  std::vector<vk::UniqueDescriptorPool> descriptor_pools;
  std::map<std::tuple<uint64_t, uint32_t, uint64_t>, Arena::Slice> constant_buffers; ///< (address, size, content hash)
  bool recording = false;
  uint64_t draws = 0;
  uint64_t serial = 0; ///< distinct for every recording of the batch
};

/// The batch being recorded, those in flight and those free for reuse.
class BatchRing {
public:
  explicit BatchRing(const Context& context) : context_(context) {}
  /// The batch being recorded; one is opened (a free one reused, or a new one) when none is.
  Batch& current();
  /// The batch being recorded, or nullptr.
  Batch* recording() const { return batch_ && batch_->recording ? batch_.get() : nullptr; }
  /// Ends the recording batch's command buffers and submits them without waiting. Returns the seconds
  /// vkQueueSubmit took, or nothing when no batch was recording.
  std::optional<double> submit();
  /// Waits for every batch in flight and frees them.
  void wait_all();
  vk::DescriptorSet allocate_set(Batch& b, vk::DescriptorSetLayout layout);

private:
  void retire(std::unique_ptr<Batch> done);

  const Context& context_;
  std::vector<std::unique_ptr<Batch>> free_;
  std::vector<std::unique_ptr<Batch>> in_flight_;
  std::unique_ptr<Batch> batch_;
  uint64_t serial_ = 0;
};

} // namespace kiln::vulkan
