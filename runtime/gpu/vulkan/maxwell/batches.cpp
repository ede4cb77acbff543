#include "runtime/gpu/vulkan/maxwell/batches.h"

#include <algorithm>
#include <chrono>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"

namespace kiln::vulkan {
namespace {
constexpr vk::DeviceSize kChunkBytes = 8 << 20;
}

Arena::Slice Arena::allocate(const Context& context, vk::DeviceSize size, vk::DeviceSize alignment) {
  size = std::max<vk::DeviceSize>(size, 4);
  if (current_ < chunks_.size()) {
    Chunk& chunk = chunks_[current_];
    const vk::DeviceSize offset = align_up(chunk.used, alignment);
    if (offset + size <= chunk.buffer.size) {
      chunk.used = offset + size;
      return {*chunk.buffer.buffer, offset, static_cast<uint8_t*>(chunk.buffer.mapped) + offset};
    }
    ++current_;
    return allocate(context, size, alignment);
  }
  const vk::BufferUsageFlags usage = vk::BufferUsageFlagBits::eVertexBuffer | vk::BufferUsageFlagBits::eIndexBuffer |
                                     vk::BufferUsageFlagBits::eUniformBuffer | vk::BufferUsageFlagBits::eTransferSrc |
                                     vk::BufferUsageFlagBits::eTransferDst;
  chunks_.push_back({create_host_buffer(context, std::max(kChunkBytes, size), usage), 0});
  return allocate(context, size, alignment);
}

void Arena::reset() {
  for (Chunk& chunk : chunks_) chunk.used = 0;
  current_ = 0;
}

Batch& BatchRing::current() {
  if (batch_ && batch_->recording) return *batch_;
  if (!batch_) {
    if (!free_.empty()) {
      batch_ = std::move(free_.back());
      free_.pop_back();
    } else {
      batch_ = std::make_unique<Batch>();
      const vk::Device device = context_.device();
      batch_->pool = device.createCommandPoolUnique({vk::CommandPoolCreateFlagBits::eTransient, context_.queue_family()});
      auto buffers = device.allocateCommandBuffers({*batch_->pool, vk::CommandBufferLevel::ePrimary, 2});
      batch_->uploads = buffers[0];
      batch_->commands = buffers[1];
      batch_->fence = device.createFenceUnique({});
    }
  }
  batch_->uploads.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
  batch_->commands.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
  batch_->recording = true;
  batch_->serial = ++serial_;
  return *batch_;
}

std::optional<double> BatchRing::submit() {
  if (!recording()) return std::nullopt;
  batch_->uploads.end();
  batch_->commands.end();
  const std::array<vk::CommandBuffer, 2> buffers = {batch_->uploads, batch_->commands};
  const auto started = std::chrono::steady_clock::now();
  context_.queue().submit(vk::SubmitInfo({}, {}, buffers), *batch_->fence);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  batch_->recording = false;
  in_flight_.push_back(std::move(batch_));
  return seconds;
}

void BatchRing::retire(std::unique_ptr<Batch> done) {
  const vk::Device device = context_.device();
  (void)device.waitForFences(*done->fence, VK_TRUE, UINT64_MAX);
  device.resetFences(*done->fence);
  device.resetCommandPool(*done->pool);
  done->arena.reset();
  done->staging.clear();
  done->descriptor_pools.clear();
  done->constant_buffers.clear();
  done->draws = 0;
  free_.push_back(std::move(done));
}

void BatchRing::wait_all() {
  for (auto& done : in_flight_) retire(std::move(done));
  in_flight_.clear();
}

vk::DescriptorSet BatchRing::allocate_set(Batch& b, vk::DescriptorSetLayout layout) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!b.descriptor_pools.empty()) {
      vk::DescriptorSet set;
      const vk::DescriptorSetAllocateInfo info(*b.descriptor_pools.back(), 1, &layout);
      if (context_.device().allocateDescriptorSets(&info, &set) == vk::Result::eSuccess) return set;
    }
    const std::array<vk::DescriptorPoolSize, 3> sizes = {vk::DescriptorPoolSize(vk::DescriptorType::eUniformBuffer, 4096),
                                                         vk::DescriptorPoolSize(vk::DescriptorType::eSampledImage, 16384),
                                                         vk::DescriptorPoolSize(vk::DescriptorType::eSampler, 4096)};
    b.descriptor_pools.push_back(context_.device().createDescriptorPoolUnique({{}, 512, sizes}));
  }
  throw Error("descriptor pool exhausted by one set");
}

} // namespace kiln::vulkan
