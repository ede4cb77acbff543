// The TIC/TSC pools of a draw -> image views and samplers for a stage's descriptor arrays.
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "runtime/base/hash.h"
#include "runtime/gpu/vulkan/maxwell/renderer_state.h"

namespace kiln::vulkan {
namespace {

constexpr uint32_t kDescriptorBytes = 32; // TIC and TSC entries are eight words

std::array<uint32_t, 8> read_entry(const maxwell::AddressSpace& memory, uint64_t address) {
  std::array<uint32_t, 8> words{};
  const std::vector<uint8_t> bytes = memory.read_bytes(address, kDescriptorBytes);
  std::memcpy(words.data(), bytes.data(), kDescriptorBytes);
  return words;
}

uint64_t hash_words(const std::array<uint32_t, 8>& words) {
  return hash64(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(words.data()), kDescriptorBytes));
}

bool is_zero(const std::array<uint32_t, 8>& words) {
  for (uint32_t word : words) {
    if (word != 0) return false;
  }
  return true;
}

/// The translator's (dimension, arrayed) numbering of a texture type.
std::pair<uint32_t, bool> view_kind(uint32_t texture_type) {
  switch (texture_type) {
  case 0: return {0, false};
  case 4: return {0, true};
  case 1: case 7: return {1, false};
  case 5: return {1, true};
  case 2: return {2, false};
  case 3: return {3, false};
  case 8: return {3, true};
  default: return {UINT32_MAX, false};
  }
}

} // namespace

MaxwellRenderer::State::StageTextures MaxwellRenderer::State::resolve_textures(const maxwell::DrawSnapshot& draw, const TranslatedShader& shader) {
  StageTextures result;
  for (const graphics::ResourceBinding& resource : shader.translation.resources) {
    if (resource.kind == graphics::ResourceBinding::Kind::samplers) {
      for (uint32_t index = 0; index < resource.count; ++index) {
        if (draw.sampler_pool == 0 || index > draw.sampler_limit) {
          result.samplers.push_back(resources.sampler());
          continue;
        }
        const auto words = read_entry(memory, draw.sampler_pool + uint64_t{index} * kDescriptorBytes);
        auto& sampler = texture_cache.samplers[hash_words(words)];
        if (!sampler) {
          vk::SamplerCreateInfo info = decode_sampler(words, texture_cache.anisotropy);
          // TEXSAMP4-7: the border colour as floats, exact where the device takes custom colours.
          const vk::SamplerCustomBorderColorCreateInfoEXT border(
              vk::ClearColorValue(std::array<float, 4>{std::bit_cast<float>(words[4]), std::bit_cast<float>(words[5]),
                                                       std::bit_cast<float>(words[6]), std::bit_cast<float>(words[7])}),
              vk::Format::eUndefined);
          if (texture_cache.custom_border_color) {
            info.borderColor = vk::BorderColor::eFloatCustomEXT;
            info.pNext = &border;
          }
          sampler = context.device().createSamplerUnique(info);
        }
        result.samplers.push_back(*sampler);
      }
      continue;
    }
    if (resource.kind != graphics::ResourceBinding::Kind::sampled_images) continue;
    std::vector<vk::ImageView>& views = result.views.emplace_back();
    const vk::ImageView fallback = resources.view(resource.image_dim, resource.image_array);
    for (uint32_t index = 0; index < resource.count; ++index) {
      views.push_back(fallback);
      if (draw.texture_header_pool == 0 || index > draw.texture_header_limit) continue;
      const uint64_t entry_address = draw.texture_header_pool + uint64_t{index} * kDescriptorBytes;
      const auto words = read_entry(memory, entry_address);
      if (is_zero(words)) continue;
      const TextureHeader header = decode_texture_header(words);
      if (view_kind(header.texture_type) != std::pair{resource.image_dim, resource.image_array}) continue;
      const uint64_t key = hash_words(words);
      if (texture_cache.failures.count(key)) continue;
      auto& texture = texture_cache.textures[key];
      try {
        if (!texture) texture = std::make_unique<GuestTexture>(context, header);
        // A texture over a render target the GPU wrote: bring those pixels to guest memory first.
        write_back(texture->address(), texture->guest_size());
        Batch& b = current();
        if (texture->checked_serial != b.serial) {
          texture->checked_serial = b.serial;
          const bool uploaded = texture->refresh(memory, b.uploads, [&](uint64_t bytes) -> Buffer& {
            b.staging.push_back(create_host_buffer(context, bytes, vk::BufferUsageFlagBits::eTransferSrc));
            return b.staging.back();
          });
          statistics.texture_uploads += uploaded;
        }
        views.back() = texture->view();
      } catch (const std::exception& error) {
        texture_cache.textures.erase(key);
        texture_cache.failures.emplace(key, error.what());
        diagnose(fmt::format("draw {}: texture header {} at GPU {:#x}: {}", draw.draw_index, index, entry_address, error.what()));
      }
    }
  }
  return result;
}

} // namespace kiln::vulkan
