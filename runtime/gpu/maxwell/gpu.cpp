#include "runtime/gpu/maxwell/gpu.h"

#include <fmt/format.h>

#include <cstdlib>

#include "runtime/base/error.h"
#include "runtime/base/log.h"
#include "runtime/gpu/maxwell/capture.h"
#include "runtime/gpu/maxwell/channel.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/mme/macro_registry.h"

namespace kiln::maxwell {

std::string Diagnostic::describe() const {
  std::string where = fmt::format("channel {}, GPU 0x{:x}", channel, gpu_address);
  if (class_id != 0) where += fmt::format(", {} {}", class_name(class_id), method_name(class_id, method));
  return fmt::format("{}: {}{}", where, severity == Severity::warning ? "warning: " : "", message);
}

Gpu::Gpu(Backend* backend)
    : backend_(backend ? backend : &default_backend_), syncpoints_(syncpoint_count, 0),
      macros_(&MacroRegistry::global()) {
  // A title captures its GPU work with KILN_GPU_CAPTURE=FILE: everything this GPU processes until it is destroyed.
  if (const char* path = std::getenv("KILN_GPU_CAPTURE"); path != nullptr && *path != 0) {
    environment_capture_ = std::make_unique<CaptureRecorder>(*this);
    environment_capture_path_ = path;
  }
}

Gpu::~Gpu() {
  if (!environment_capture_) return;
  try {
    environment_capture_->finish().save(environment_capture_path_);
    log::info("gpu: capture written to {}", environment_capture_path_);
  } catch (const Error& error) {
    log::error("gpu: capture not written: {}", format_error(error.location(), error.message()));
  }
}

uint32_t Gpu::create_channel(ClassId host_class) {
  if (!is_host_class(static_cast<uint32_t>(host_class))) {
    throw Error(fmt::format("{} is no host class (B06F or C56F)", class_name(static_cast<uint32_t>(host_class))));
  }
  const auto id = static_cast<uint32_t>(channels_.size());
  channels_.push_back(std::make_unique<Channel>(*this, id, host_class));
  return id;
}

Channel& Gpu::channel(uint32_t id) {
  if (id >= channels_.size()) throw Error(fmt::format("channel {} does not exist ({} channels)", id, channels_.size()));
  return *channels_[id];
}

void Gpu::submit(uint32_t channel_id, std::span<const GpfifoEntry> entries) {
  Channel& target = channel(channel_id);
  if (submit_observer_) submit_observer_(channel_id, entries);
  for (const GpfifoEntry& entry : entries) target.enqueue(entry);
}

void Gpu::set_macro_registry(const MacroRegistry* registry) { macros_ = registry ? registry : &MacroRegistry::global(); }

void Gpu::signal() {
  {
    std::lock_guard lock(signal_mutex_);
    ++signal_count_;
  }
  signal_cv_.notify_all();
}

uint32_t Gpu::syncpoint(uint32_t index) const { return index < syncpoints_.size() ? syncpoints_[index] : 0; }

void Gpu::increment_syncpoint(uint32_t index) {
  if (index >= syncpoints_.size()) throw Error(fmt::format("syncpoint {} does not exist", index));
  ++syncpoints_[index];
  signal();
}

void Gpu::report(Diagnostic diagnostic) {
  if (diagnostic.severity == Diagnostic::Severity::warning) log::verbose("gpu: {}", diagnostic.describe());
  diagnostics_.push_back(std::move(diagnostic));
}

size_t Gpu::error_count() const {
  size_t count = 0;
  for (const Diagnostic& diagnostic : diagnostics_) count += diagnostic.severity == Diagnostic::Severity::error;
  return count;
}

RunResult Gpu::run(const RunOptions& options) {
  memory_.set_tracking(true);
  struct TrackingGuard { AddressSpace& memory; ~TrackingGuard() { memory.set_tracking(false); } } guard{memory_};
  auto deadline = std::chrono::steady_clock::now() + options.wait_timeout;
  for (;;) {
    uint64_t signals_before;
    {
      std::lock_guard lock(signal_mutex_);
      signals_before = signal_count_;
    }
    bool progress = false;
    bool any_blocked = false;
    bool any_running = false;
    for (auto& channel : channels_) {
      if (channel->state() == Channel::State::running || channel->state() == Channel::State::blocked) {
        progress |= channel->run();
      }
      any_blocked |= channel->state() == Channel::State::blocked;
      any_running |= channel->state() == Channel::State::running;
    }
    if (!any_blocked && !any_running) return RunResult{true, false};
    if (progress) {
      deadline = std::chrono::steady_clock::now() + options.wait_timeout;
      continue;
    }
    // Every live channel waits: only another thread can help now. Wait for a signal until the deadline.
    std::unique_lock lock(signal_mutex_);
    const bool signalled = signal_cv_.wait_until(lock, deadline, [&] { return signal_count_ != signals_before; });
    if (signalled) continue;
    if (!options.diagnose_blocked) return RunResult{false, true};
    for (auto& channel : channels_) {
      if (channel->state() != Channel::State::blocked || !channel->waiting_for()) continue;
      const AcquireNotMet& wait = *channel->waiting_for();
      report(Diagnostic{Diagnostic::Severity::error, channel->id(), channel->blocked_address(),
                        channel->blocked_class(), channel->blocked_method(),
                        fmt::format("wait timed out after {} ms: semaphore 0x{:x} needs {}, holds 0x{:x}",
                                    options.wait_timeout.count(), wait.address, wait.condition, wait.current)});
    }
    return RunResult{false, true};
  }
}

} // namespace kiln::maxwell
