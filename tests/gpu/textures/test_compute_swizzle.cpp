// The compute-shader (de)swizzle on lavapipe, with validation and synchronization validation on, checked
// byte for byte against the CPU path on random data.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "runtime/base/error.h"
#include "runtime/gpu/vulkan/memory.h"
#include "runtime/gpu/vulkan/swizzle/compute_swizzle.h"

using namespace kiln;
using namespace kiln::textures;
using kiln::vulkan::ComputeSwizzler;
using kiln::vulkan::GpuSurfaceBuffers;

namespace {

void fill_random(void* target, size_t size, uint32_t seed) {
  std::mt19937 random(seed);
  auto* bytes = static_cast<uint8_t*>(target);
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(random());
}

void host_visible_after_compute(vk::CommandBuffer commands) {
  const vk::MemoryBarrier barrier(vk::AccessFlagBits::eShaderWrite, vk::AccessFlagBits::eHostRead);
  commands.pipelineBarrier(vk::PipelineStageFlagBits::eComputeShader, vk::PipelineStageFlagBits::eHost, {}, barrier,
                           {}, {});
}

struct Case {
  SurfaceDescription description;
  uint32_t layer, level;
  Region region;
};

} // namespace

TEST_CASE("GPU deswizzle and swizzle match the CPU path, with zero validation messages", "[gpu][blocklinear]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  INFO("device: " << context.device_name());
  ComputeSwizzler swizzler(context);
  const Case cases[] = {
      {{.width = 300, .height = 200, .array_layers = 2, .mip_levels = 5, .element = {.bytes = 4}}, 1, 0, {}},
      {{.width = 300, .height = 200, .array_layers = 2, .mip_levels = 5, .element = {.bytes = 4}}, 0, 3, {}},
      {{.width = 129, .height = 77, .element = {.bytes = 8}}, 0, 0, {.x = 3, .y = 5, .width = 100, .height = 60}},
      {{.width = 160, .height = 160, .mip_levels = 3, .element = {16, 4, 4}}, 0, 1, {}},
      {{.width = 40, .height = 33, .depth = 12, .element = {.bytes = 16}}, 0, 0, {.x = 1, .y = 2, .z = 3, .width = 30,
                                                                               .height = 30, .depth = 7}},
      {{.width = 256, .height = 64, .element = {.bytes = 1}, .block_height_log2 = 0}, 0, 0,
       {.x = 8, .y = 1, .width = 200, .height = 50}},
      {{.width = 96, .height = 50, .element = {.bytes = 2}, .rule = BlockHeightRule::deko3d_round_up}, 0, 0, {}},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    const SurfaceLayout layout = SurfaceLayout::compute(c.description, "gpu-case");
    const Region region = c.region.width != 0 ? c.region : whole_level(layout, c.level);
    INFO(c.description.width << "x" << c.description.height << "x" << c.description.depth << " "
                             << c.description.element.bytes << " bytes, layer " << c.layer << " level " << c.level);
    const size_t linear_size = size_t{region.width} * region.height * region.depth * c.description.element.bytes;
    const auto usage = vk::BufferUsageFlagBits::eStorageBuffer;
    vulkan::Buffer guest = vulkan::create_host_buffer(context, layout.total_size(), usage);
    vulkan::Buffer linear = vulkan::create_host_buffer(context, linear_size, usage);
    fill_random(guest.mapped, layout.total_size(), seed++);
    fill_random(linear.mapped, linear_size, seed++);
    const GpuSurfaceBuffers buffers{*guest.buffer, 0, layout.total_size(), *linear.buffer, 0, linear_size};
    const std::span<const uint8_t> guest_bytes(static_cast<const uint8_t*>(guest.mapped), layout.total_size());

    // Deswizzle: the GPU's linear bytes equal the CPU's.
    std::vector<uint8_t> expected(linear_size);
    deswizzle(layout, c.layer, c.level, region, guest_bytes, expected);
    context.submit_and_wait([&](vk::CommandBuffer commands) {
      swizzler.record_deswizzle(commands, layout, c.layer, c.level, region, buffers);
      host_visible_after_compute(commands);
    });
    swizzler.release_recorded();
    CHECK(std::memcmp(linear.mapped, expected.data(), linear_size) == 0);

    // Swizzle new texels: the GPU's guest bytes equal the CPU's (padding and other levels untouched).
    fill_random(linear.mapped, linear_size, seed++);
    std::vector<uint8_t> expected_guest(guest_bytes.begin(), guest_bytes.end());
    swizzle(layout, c.layer, c.level, region, std::span(static_cast<const uint8_t*>(linear.mapped), linear_size),
            expected_guest);
    context.submit_and_wait([&](vk::CommandBuffer commands) {
      swizzler.record_swizzle(commands, layout, c.layer, c.level, region, buffers);
      host_visible_after_compute(commands);
    });
    swizzler.release_recorded();
    CHECK(std::memcmp(guest.mapped, expected_guest.data(), expected_guest.size()) == 0);
  }
  const auto messages = context.validation_log().messages();
  for (const auto& message : messages) UNSCOPED_INFO(message);
  CHECK(messages.empty());
}

TEST_CASE("GPU swizzle refuses what 32-bit words cannot move", "[gpu][blocklinear]") {
  vulkan::Context context({.validation = true});
  ComputeSwizzler swizzler(context);
  const SurfaceLayout layout = SurfaceLayout::compute({.width = 64, .height = 8, .element = {.bytes = 1}}, "bytes");
  vulkan::Buffer guest = vulkan::create_host_buffer(context, layout.total_size(), vk::BufferUsageFlagBits::eStorageBuffer);
  const GpuSurfaceBuffers buffers{*guest.buffer, 0, layout.total_size(), *guest.buffer, 0, layout.total_size()};
  context.submit_and_wait([&](vk::CommandBuffer commands) {
    CHECK_THROWS_WITH(swizzler.record_deswizzle(commands, layout, 0, 0, {.x = 1, .width = 8, .height = 1}, buffers),
                      Catch::Matchers::Contains("not a multiple of 4"));
    CHECK_THROWS_WITH(swizzler.record_deswizzle(commands, layout, 0, 0, {.width = 65, .height = 1}, buffers),
                      Catch::Matchers::Contains("leaves the level"));
  });
  CHECK(context.validation_log().count() == 0);
}
