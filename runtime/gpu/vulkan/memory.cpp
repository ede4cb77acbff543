#include "runtime/gpu/vulkan/memory.h"

#include "runtime/base/error.h"

namespace kiln::vulkan {

uint32_t find_memory_type(vk::PhysicalDevice device, uint32_t type_bits, vk::MemoryPropertyFlags wanted) {
  const auto properties = device.getMemoryProperties();
  for (uint32_t i = 0; i < properties.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) && (properties.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
  }
  throw Error("vulkan: no memory type with the required properties");
}

Buffer create_host_buffer(const Context& context, vk::DeviceSize size, vk::BufferUsageFlags usage) {
  const vk::Device device = context.device();
  Buffer result;
  result.size = size;
  result.buffer = device.createBufferUnique({{}, size, usage, vk::SharingMode::eExclusive});
  const auto requirements = device.getBufferMemoryRequirements(*result.buffer);
  const uint32_t type = find_memory_type(context.physical_device(), requirements.memoryTypeBits,
                                         vk::MemoryPropertyFlagBits::eHostVisible |
                                             vk::MemoryPropertyFlagBits::eHostCoherent);
  result.memory = device.allocateMemoryUnique({requirements.size, type});
  device.bindBufferMemory(*result.buffer, *result.memory, 0);
  result.mapped = device.mapMemory(*result.memory, 0, VK_WHOLE_SIZE);
  return result;
}

AddressableBuffer create_addressable_buffer(const Context& context, vk::DeviceSize size) {
  const vk::Device device = context.device();
  AddressableBuffer result;
  result.size = size;
  result.buffer = device.createBufferUnique({{}, size,
                                             vk::BufferUsageFlagBits::eShaderDeviceAddress | vk::BufferUsageFlagBits::eStorageBuffer |
                                                 vk::BufferUsageFlagBits::eTransferSrc | vk::BufferUsageFlagBits::eTransferDst,
                                             vk::SharingMode::eExclusive});
  const auto requirements = device.getBufferMemoryRequirements(*result.buffer);
  const uint32_t type = find_memory_type(context.physical_device(), requirements.memoryTypeBits,
                                                 vk::MemoryPropertyFlagBits::eHostVisible | vk::MemoryPropertyFlagBits::eHostCoherent);
  vk::MemoryAllocateFlagsInfo flags(vk::MemoryAllocateFlagBits::eDeviceAddress);
  vk::MemoryAllocateInfo allocate(requirements.size, type);
  allocate.pNext = &flags;
  result.memory = device.allocateMemoryUnique(allocate);
  device.bindBufferMemory(*result.buffer, *result.memory, 0);
  result.mapped = static_cast<uint8_t*>(device.mapMemory(*result.memory, 0, VK_WHOLE_SIZE));
  result.address = device.getBufferAddress({*result.buffer});
  return result;
}

Image create_image_2d(const Context& context, vk::Format format, vk::Extent2D extent, vk::ImageUsageFlags usage) {
  const vk::Device device = context.device();
  Image result;
  result.format = format;
  result.extent = extent;
  result.image = device.createImageUnique({{}, vk::ImageType::e2D, format, vk::Extent3D(extent, 1), 1, 1,
                                           vk::SampleCountFlagBits::e1, vk::ImageTiling::eOptimal, usage,
                                           vk::SharingMode::eExclusive, {}, vk::ImageLayout::eUndefined});
  const auto requirements = device.getImageMemoryRequirements(*result.image);
  const uint32_t type = find_memory_type(context.physical_device(), requirements.memoryTypeBits,
                                         vk::MemoryPropertyFlagBits::eDeviceLocal);
  result.memory = device.allocateMemoryUnique({requirements.size, type});
  device.bindImageMemory(*result.image, *result.memory, 0);
  result.view = device.createImageViewUnique(
      {{}, *result.image, vk::ImageViewType::e2D, format, {}, {vk::ImageAspectFlagBits::eColor, 0, 1, 0, 1}});
  return result;
}

} // namespace kiln::vulkan
