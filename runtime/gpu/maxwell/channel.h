#pragma once
// One GPU channel: its GPFIFO queue, the pushbuffer parser state (a method's data may continue in the next
// entry), the subchannel bindings and the host (channel) methods.
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/engine.h"
#include "runtime/gpu/maxwell/pushbuffer.h"

namespace kiln::maxwell {

class Gpu;

class Channel {
public:
  enum class State { idle, running, blocked, faulted };

  Channel(Gpu& gpu, uint32_t id, ClassId host_class);
  ~Channel();

  uint32_t id() const { return id_; }
  /// B06F (Maxwell) or C56F (Ampere): the host methods the channel runs. (Any engine class may bind to its
  /// subchannels: kiln's GPU has every class.)
  uint32_t host_class() const { return static_cast<uint32_t>(host_class_); }
  /// Changes the host class; only before the channel processed its first word (a driver learns the GPU family
  /// from the object contexts it allocates, after the channel exists). Throws kiln::Error afterwards.
  void set_host_class(ClassId host_class);
  State state() const { return state_; }
  void enqueue(const GpfifoEntry& entry) { queue_.push_back(entry); if (state_ == State::idle) state_ = State::running; }
  size_t queued_entries() const { return queue_.size(); }

  /// Processes queued entries until the queue is empty, an acquire is not met, or a fault. Returns true when it
  /// consumed at least one word.
  bool run();
  /// The wait the channel is blocked on, for the timeout diagnostic.
  const std::optional<AcquireNotMet>& waiting_for() const { return waiting_; }
  uint64_t blocked_address() const { return blocked_address_; }
  uint32_t blocked_method() const { return blocked_method_; }
  uint32_t blocked_class() const { return blocked_class_; }

  /// The engine bound to `subchannel`, or nullptr.
  Engine* engine(uint32_t subchannel) const { return subchannels_[subchannel & 7]; }
  /// The channel's engine of `class_id`, or nullptr if no subchannel was ever bound to it.
  Engine* engine_of_class(uint32_t class_id) const;
  uint32_t reference() const { return reference_; }
  /// Host method registers (byte offset < 0x100).
  uint32_t host_register(uint32_t method) const { return host_registers_[(method >> 2) & 63]; }

private:
  struct PendingMethods {
    HeaderKind kind = HeaderKind::increasing;
    uint32_t subchannel = 0;
    uint32_t method = 0;
    uint32_t remaining = 0;
  };

  void dispatch(uint32_t subchannel, uint32_t method, uint32_t value, uint64_t address);
  void host_method(uint32_t subchannel, uint32_t method, uint32_t value);
  void bind(uint32_t subchannel, uint32_t class_id);
  void semaphore_operation(uint32_t value);
  void semaphore_execute(uint32_t value);
  void memory_operation(uint32_t value);
  void syncpoint_operation(uint32_t value);
  void flush_engines();
  void fault(uint64_t address, uint32_t class_id, uint32_t method, const std::string& message);

  Gpu& gpu_;
  uint32_t id_;
  ClassId host_class_;
  bool started_ = false; // processed a word
  State state_ = State::idle;
  std::deque<GpfifoEntry> queue_;
  uint32_t word_offset_ = 0; // next word of queue_.front()
  PendingMethods pending_;
  std::array<Engine*, 8> subchannels_{};
  std::map<uint32_t, std::unique_ptr<Engine>> engines_;
  Engine* deferred_engine_ = nullptr; // an engine holding deferred work (macro parameters)
  std::array<uint32_t, 64> host_registers_{};
  uint32_t reference_ = 0;
  std::optional<AcquireNotMet> waiting_;
  uint64_t blocked_address_ = 0;
  uint32_t blocked_method_ = 0, blocked_class_ = 0;
};

} // namespace kiln::maxwell
