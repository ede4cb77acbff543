// Render targets and depth buffers: guest surfaces found or created by key, uploaded when guest memory changed
// under them, and written back to guest memory where the GPU drew into them.
#include "runtime/gpu/vulkan/maxwell/renderer_state.h"

namespace kiln::vulkan {

GuestSurface& MaxwellRenderer::State::surface(const SurfaceKey& key) {
  auto found = surfaces.find(key);
  if (found == surfaces.end()) {
    found = surfaces.emplace(key, std::make_unique<GuestSurface>(context, key, static_cast<uint32_t>(surfaces.size()))).first;
  }
  GuestSurface& s = *found->second;
  if (!s.gpu_dirty && s.needs_upload(memory)) {
    Batch& b = current();
    // The image may be an attachment of the pass being recorded; uploads run before this batch's commands.
    if (passes.attaches(s)) {
      submit();
      return surface(key);
    }
    b.staging.push_back(create_host_buffer(context, s.host_bytes(), vk::BufferUsageFlagBits::eTransferSrc));
    try {
      s.record_upload(memory, b.uploads, b.staging.back());
    } catch (...) { // unmapped guest memory: forget the surface (nothing was recorded before the read failed)
      surfaces.erase(found);
      throw;
    }
    ++statistics.target_uploads;
  }
  return s;
}

size_t MaxwellRenderer::State::write_back(uint64_t address, uint64_t size) {
  std::vector<std::pair<GuestSurface*, Buffer>> readbacks;
  for (auto& [key, s] : surfaces) {
    if (!s->gpu_dirty || key.address >= address + size || address >= key.address + s->guest_size()) continue;
    Batch& b = current();
    end_pass();
    readbacks.emplace_back(s.get(), create_host_buffer(context, s->host_bytes(), vk::BufferUsageFlagBits::eTransferDst));
    s->record_readback(b.commands, readbacks.back().second);
  }
  if (readbacks.empty()) return 0;
  const vk::MemoryBarrier2 to_host(vk::PipelineStageFlagBits2::eCopy, vk::AccessFlagBits2::eTransferWrite, vk::PipelineStageFlagBits2::eHost,
                                   vk::AccessFlagBits2::eHostRead);
  batches.recording()->commands.pipelineBarrier2(vk::DependencyInfo({}, to_host, {}, {}));
  submit();
  // Fences signal in submission order: the readback's batch is the last one, so everything before it is done too.
  wait_all();
  for (auto& [s, buffer] : readbacks) {
    s->write_back(memory, buffer);
    ++statistics.target_write_backs;
  }
  return readbacks.size();
}

} // namespace kiln::vulkan
