#include "runtime/gpu/maxwell/replay.h"

#include <cstring>
#include <set>

#include "runtime/base/hash.h"
#include "runtime/gpu/maxwell/channel.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/engine_3d.h"
#include "runtime/gpu/maxwell/mme/program.h"

namespace kiln::maxwell {

size_t ReplayResult::error_count() const {
  size_t count = 0;
  for (const Diagnostic& diagnostic : diagnostics) count += diagnostic.severity == Diagnostic::Severity::error;
  return count;
}

void map_capture_memory(Gpu& gpu, const Capture& capture) {
  auto it = capture.pages.begin();
  while (it != capture.pages.end()) {
    const uint64_t first = it->first;
    uint64_t end = first;
    auto run_end = it;
    while (run_end != capture.pages.end() && run_end->first == end) {
      end += AddressSpace::page_size;
      ++run_end;
    }
    std::span<uint8_t> host = gpu.memory().map_owned(first, end - first);
    for (; it != run_end; ++it) {
      const std::vector<uint8_t>& bytes = capture.blobs.at(it->second);
      std::memcpy(host.data() + (it->first - first), bytes.data(), std::min<size_t>(bytes.size(), AddressSpace::page_size));
    }
  }
}

ReplayResult replay(const Capture& capture, const ReplayOptions& options) {
  RecordingBackend backend;
  Gpu gpu(&backend);
  if (options.macros) gpu.set_macro_registry(options.macros);
  if (options.trace) gpu.set_trace(options.trace);
  map_capture_memory(gpu, capture);
  for (uint32_t i = 0; i < capture.channel_count; ++i) gpu.create_channel(static_cast<ClassId>(capture.host_class(i)));
  const RunOptions between{std::chrono::milliseconds(0), false}; // a later event may release what a channel waits for
  for (const CaptureEvent& event : capture.events) {
    if (event.kind == CaptureEvent::Kind::submission) {
      gpu.submit(event.channel, event.entries);
    } else {
      gpu.memory().write(event.address, capture.blobs.at(event.content));
    }
    gpu.run(between);
  }
  gpu.run(RunOptions{std::chrono::milliseconds(0), true}); // nothing else can release now
  if (options.after) options.after(gpu);

  ReplayResult result;
  result.events = std::move(backend.events);
  result.diagnostics = gpu.diagnostics();
  result.methods = gpu.timestamp();
  result.macros_native = gpu.macros_native;
  result.macros_interpreted = gpu.macros_interpreted;
  Hasher64 digest;
  for (const auto& [address, size] : gpu.memory().mappings()) {
    digest.update(std::span<const uint8_t>(gpu.memory().host_pointer(address, size), size));
  }
  result.memory_digest = digest.digest();
  std::set<uint64_t> seen;
  for (uint32_t c = 0; c < gpu.channel_count(); ++c) {
    const auto* threed = dynamic_cast<const Engine3D*>(gpu.channel(c).engine_of_class(static_cast<uint32_t>(ClassId::threed)));
    if (!threed) continue;
    for (uint32_t index = 0; index < threed->macro_starts().size(); ++index) {
      std::vector<uint32_t> words = threed->macro_words(index);
      if (words.empty() || !seen.insert(mme::macro_hash(words)).second) continue;
      result.uploaded_macros.push_back(std::move(words));
    }
  }
  return result;
}

} // namespace kiln::maxwell
