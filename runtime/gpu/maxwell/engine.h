#pragma once
// What every engine class (3D, compute, copy, inline-to-memory, 2D) shares: a register file written by methods,
// and the services of the GPU it runs in.
#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace kiln::maxwell {

class Gpu;

/// Thrown by a method whose semaphore acquire is not met yet: the channel stops before the method and retries
/// it later. Carries what it waits for, for the diagnostic when the wait times out.
struct AcquireNotMet {
  uint64_t address = 0;
  std::string condition; ///< e.g. "value >= 5 (circular)", "syncpoint 3 >= 12"
  uint64_t current = 0;
};

/// The most bytes one engine operation (copy, upload, blit row) moves; larger requests are reported.
inline constexpr uint64_t max_transfer_bytes = uint64_t{64} << 20;

class Engine {
public:
  static constexpr uint32_t register_count = 0x1000; // method byte offsets 0 .. 0x3ffc

  explicit Engine(Gpu& gpu) : gpu_(gpu) {}
  virtual ~Engine() = default;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  virtual uint32_t class_id() const = 0;
  /// One method write (byte offset >= 0x100). May throw AcquireNotMet (the channel retries the same write later)
  /// or kiln::Error (the channel faults with the method's location).
  virtual void write(uint32_t method, uint32_t value) = 0;
  /// Work the engine deferred (a macro still collecting parameters) runs now: the channel calls it before a
  /// method goes elsewhere and when its queue runs dry.
  virtual void flush() {}
  virtual bool has_deferred() const { return false; }

  uint32_t reg(uint32_t method) const { return registers_[(method >> 2) & (register_count - 1)]; }
  const std::array<uint32_t, register_count>& registers() const { return registers_; }

protected:
  void store(uint32_t method, uint32_t value) { registers_[(method >> 2) & (register_count - 1)] = value; }
  /// The GPU address in an (upper, lower) method pair. kiln's GPU addresses have 40 bits: the Maxwell classes'
  /// upper fields are bits 7:0; the Ampere classes' are wider (16:0 on C7B5/C7C0), and an address past 40 bits
  /// there is refused, not truncated.
  uint64_t address_pair(uint32_t upper_method) const {
    const uint32_t upper = reg(upper_method);
    if ((upper & 0x1ff00) != 0) check_upper_address(upper_method, upper);
    return (uint64_t{upper & 0xff} << 32) | reg(upper_method + 4);
  }
  void check_upper_address(uint32_t upper_method, uint32_t upper) const;
  Gpu& gpu_;

private:
  std::array<uint32_t, register_count> registers_{};
};

} // namespace kiln::maxwell
