#include <catch2/catch.hpp>

#include <cmath>

#include "runtime/gpu/vulkan/headless_target.h"

using namespace kiln;

TEST_CASE("a cleared headless target reads back as the clear colour, with zero validation messages", "[vulkan]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  INFO("device: " << context.device_name());
  const std::array<float, 4> colour{0.2f, 0.4f, 0.6f, 1.0f};
  vulkan::HeadlessTarget target(context, {37, 21}); // odd sizes catch row-pitch mistakes
  target.clear(colour);
  const RgbaImage image = target.read_back();
  REQUIRE(image.width == 37);
  REQUIRE(image.height == 21);
  // UNORM conversion rounds to nearest: round(0.2*255)=51, round(0.4*255)=102, round(0.6*255)=153.
  const uint8_t expected[4] = {51, 102, 153, 255};
  size_t wrong = 0;
  for (size_t i = 0; i < image.pixels.size(); ++i) wrong += image.pixels[i] != expected[i % 4];
  CHECK(wrong == 0);

  target.clear({1.0f, 0.0f, 0.0f, 0.5f}); // a second clear after a readback exercises the layout transitions
  const RgbaImage second = target.read_back();
  CHECK(second.pixels[0] == 255);
  CHECK(second.pixels[1] == 0);
  CHECK(second.pixels[3] == 128);
  CHECK(second.pixels[second.pixels.size() - 1] == 128);
  const auto messages = context.validation_log().messages();
  for (const auto& message : messages) UNSCOPED_INFO(message);
  CHECK(messages.empty());
}

TEST_CASE("the validation layers are really active: a misuse is reported", "[vulkan]") {
  // Guards the zero-messages checks above: they mean something only if the layer reports errors.
  vulkan::Context context({.validation = true});
  const vk::Device device = context.device();
  vk::BufferCreateInfo bad_info({}, 0 /* size 0 is invalid */, vk::BufferUsageFlagBits::eTransferSrc);
  VkBuffer buffer = VK_NULL_HANDLE;
  const VkBufferCreateInfo& raw = bad_info;
  (void)VULKAN_HPP_DEFAULT_DISPATCHER.vkCreateBuffer(device, &raw, nullptr, &buffer);
  if (buffer != VK_NULL_HANDLE) VULKAN_HPP_DEFAULT_DISPATCHER.vkDestroyBuffer(device, buffer, nullptr);
  CHECK(context.validation_log().count() > 0);
}
