#pragma once
// Buffers and images with their own device memory: the simple allocation kiln's bring-up and tests use.
#include "runtime/gpu/vulkan/context.h"

namespace kiln::vulkan {

uint32_t find_memory_type(vk::PhysicalDevice device, uint32_t type_bits, vk::MemoryPropertyFlags wanted);

struct Buffer {
  vk::UniqueBuffer buffer;
  vk::UniqueDeviceMemory memory;
  vk::DeviceSize size = 0;
  void* mapped = nullptr; ///< non-null for host-visible buffers (persistently mapped)
};

/// A buffer in host-visible, host-coherent memory, mapped for its whole lifetime.
Buffer create_host_buffer(const Context& context, vk::DeviceSize size, vk::BufferUsageFlags usage);

/// Host-visible, host-coherent storage memory whose device address (bufferDeviceAddress) shaders use as a global
/// pointer: translated compute kernels address their global memory this way.
struct AddressableBuffer {
  vk::UniqueBuffer buffer;
  vk::UniqueDeviceMemory memory;
  vk::DeviceSize size = 0;
  uint8_t* mapped = nullptr;
  uint64_t address = 0;
};

AddressableBuffer create_addressable_buffer(const Context& context, vk::DeviceSize size);

struct Image {
  vk::UniqueImage image;
  vk::UniqueDeviceMemory memory;
  vk::UniqueImageView view;
  vk::Format format = vk::Format::eUndefined;
  vk::Extent2D extent;
};

/// A 2D single-level image in device-local memory with a colour view.
Image create_image_2d(const Context& context, vk::Format format, vk::Extent2D extent, vk::ImageUsageFlags usage);

} // namespace kiln::vulkan
