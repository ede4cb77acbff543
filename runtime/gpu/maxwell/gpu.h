#pragma once
// The command processor: channels fed with GPFIFO entries, run in submission order per channel and round-robin
// across channels, with semaphore and syncpoint waits that time out with a diagnostic instead of hanging.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/gpu/maxwell/address_space.h"
#include "runtime/gpu/maxwell/backend.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/pushbuffer.h"

namespace kiln::maxwell {

class CaptureRecorder;
class Channel;
class MacroRegistry;

/// A problem found while processing: where (channel, GPU address of the word, class and method) and what.
struct Diagnostic {
  enum class Severity { warning, error };
  Severity severity = Severity::error;
  uint32_t channel = 0;
  uint64_t gpu_address = 0;
  uint32_t class_id = 0;
  uint32_t method = 0;
  std::string message;
  /// "channel 1, GPU 0x10000c, 3D (B197) SET_REPORT_SEMAPHORE_D: ..."
  std::string describe() const;
};

/// One method as the processor saw it (for `kiln gpu dump` and tests).
struct MethodTrace {
  uint32_t channel = 0;
  uint64_t gpu_address = 0; ///< of the data word (0 for methods a macro emitted)
  uint32_t subchannel = 0;
  uint32_t class_id = 0;
  uint32_t method = 0;
  uint32_t value = 0;
  bool from_macro = false;
};

struct RunOptions {
  /// How long all channels may sit blocked on acquires before the processor gives up with a diagnostic
  /// (other threads may release meanwhile and call Gpu::signal()).
  std::chrono::milliseconds wait_timeout{2000};
  /// Whether channels still blocked at the timeout are reported (a replay between two submissions expects them).
  bool diagnose_blocked = true;
};

struct RunResult {
  bool idle = false;    ///< every channel consumed all its entries
  bool timed_out = false;
};

class Gpu {
public:
  static constexpr uint32_t syncpoint_count = 192; // Tegra X1 host1x

  explicit Gpu(Backend* backend = nullptr);
  ~Gpu();

  AddressSpace& memory() { return memory_; }
  const AddressSpace& memory() const { return memory_; }
  Backend& backend() { return *backend_; }
  void set_backend(Backend* backend) { backend_ = backend ? backend : &default_backend_; }

  /// Channels are numbered from 0 in creation order. `host_class` is the channel's host class (B06F or C56F):
  /// the host methods it runs.
  uint32_t create_channel(ClassId host_class = ClassId::host);
  Channel& channel(uint32_t id);
  uint32_t channel_count() const { return static_cast<uint32_t>(channels_.size()); }

  void submit(uint32_t channel, std::span<const GpfifoEntry> entries);
  void submit(uint32_t channel, const GpfifoEntry& entry) { submit(channel, std::span<const GpfifoEntry>(&entry, 1)); }
  /// Processes until every channel is idle, faulted, or blocked past the timeout.
  RunResult run(const RunOptions& options = {});
  /// Another thread changed memory or a syncpoint that a blocked channel may wait for.
  void signal();

  uint32_t syncpoint(uint32_t index) const;
  void increment_syncpoint(uint32_t index);

  /// The GPU clock: a virtual tick count that advances with every processed method, so replays are deterministic.
  uint64_t timestamp() const { return clock_; }
  void tick() { ++clock_; }
  uint64_t next_draw_index() { return draw_count_++; }

  void report(Diagnostic diagnostic);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  size_t error_count() const;

  void set_trace(std::function<void(const MethodTrace&)> trace) { trace_ = std::move(trace); }
  /// Called for every submission (capture records them).
  void set_submit_observer(std::function<void(uint32_t, std::span<const GpfifoEntry>)> observer) {
    submit_observer_ = std::move(observer);
  }
  bool tracing() const { return static_cast<bool>(trace_); }
  void trace(const MethodTrace& method) const { if (trace_) trace_(method); }

  /// Where natively compiled macros are looked up (defaults to the process-wide registry).
  const MacroRegistry& macros() const { return *macros_; }
  void set_macro_registry(const MacroRegistry* registry);
  /// Statistics: macro runs by path.
  uint64_t macros_interpreted = 0, macros_native = 0;

private:
  AddressSpace memory_;
  RecordingBackend default_backend_;
  Backend* backend_;
  std::vector<std::unique_ptr<Channel>> channels_;
  std::vector<uint32_t> syncpoints_;
  uint64_t clock_ = 0;
  uint64_t draw_count_ = 0;
  std::vector<Diagnostic> diagnostics_;
  std::function<void(const MethodTrace&)> trace_;
  std::function<void(uint32_t, std::span<const GpfifoEntry>)> submit_observer_;
  std::unique_ptr<CaptureRecorder> environment_capture_; // KILN_GPU_CAPTURE
  std::string environment_capture_path_;
  const MacroRegistry* macros_;
  std::mutex signal_mutex_;
  std::condition_variable signal_cv_;
  uint64_t signal_count_ = 0;
};

} // namespace kiln::maxwell
