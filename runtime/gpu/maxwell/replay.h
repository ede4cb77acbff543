#pragma once
// Replaying a capture without the title: memory as the frame found it, then the same submissions in order.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "runtime/gpu/maxwell/backend.h"
#include "runtime/gpu/maxwell/capture.h"
#include "runtime/gpu/maxwell/gpu.h"

namespace kiln::maxwell {

struct ReplayOptions {
  std::function<void(const MethodTrace&)> trace; ///< every method, in processing order
  const MacroRegistry* macros = nullptr;         ///< default: the process-wide registry
  std::function<void(const Gpu&)> after;         ///< called with the GPU once the replay finished
};

struct ReplayResult {
  std::vector<RecordingBackend::Event> events; ///< draws, clears and dispatches in order
  std::vector<Diagnostic> diagnostics;
  uint64_t methods = 0;                        ///< methods processed
  uint64_t memory_digest = 0;                  ///< XXH3 of all captured memory after the replay
  uint64_t macros_native = 0, macros_interpreted = 0;
  std::vector<std::vector<uint32_t>> uploaded_macros; ///< distinct macros found in the 3D engines' code RAM
  size_t error_count() const;
};

ReplayResult replay(const Capture& capture, const ReplayOptions& options = {});

/// Maps the capture's pages (contiguous pages as one mapping) into `gpu` with their captured content.
void map_capture_memory(Gpu& gpu, const Capture& capture);

} // namespace kiln::maxwell
