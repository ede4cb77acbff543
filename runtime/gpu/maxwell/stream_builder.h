#pragma once
// Writes pushbuffers the way a driver does, with methods named as in the class headers:
//   StreamBuilder s; s.bind(0, ClassId::threed); s.method(0, "SET_REPORT_SEMAPHORE_A", address >> 32);
// Unknown names throw, so a test cannot silently write the wrong method.
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/pushbuffer.h"
#include "runtime/gpu/maxwell/semaphore.h"

namespace kiln::maxwell {

class AddressSpace;

class StreamBuilder {
public:
  /// SET_OBJECT: binds `subchannel` to `class_id`; later names on the subchannel resolve in that class.
  StreamBuilder& bind(uint32_t subchannel, ClassId class_id);
  /// Records that `subchannel` is already bound to `class_id` on the channel (a stream that continues one
  /// submitted earlier), without writing SET_OBJECT.
  StreamBuilder& assume_bound(uint32_t subchannel, ClassId class_id) {
    bound_.at(subchannel) = static_cast<uint32_t>(class_id);
    return *this;
  }
  /// Byte offset of `name` (element `index`) in the class bound to `subchannel`.
  uint32_t offset(uint32_t subchannel, std::string_view name, uint32_t index = 0) const;

  /// One method: an immediate header when the value fits 13 bits, else an incrementing header with one word.
  StreamBuilder& method(uint32_t subchannel, std::string_view name, uint32_t value) { return method(subchannel, name, 0, value); }
  StreamBuilder& method(uint32_t subchannel, std::string_view name, uint32_t index, uint32_t value);
  StreamBuilder& incrementing(uint32_t subchannel, std::string_view name, std::span<const uint32_t> values, uint32_t index = 0);
  StreamBuilder& non_incrementing(uint32_t subchannel, std::string_view name, std::span<const uint32_t> values, uint32_t index = 0);
  StreamBuilder& increment_once(uint32_t subchannel, std::string_view name, std::span<const uint32_t> values, uint32_t index = 0);
  StreamBuilder& immediate(uint32_t subchannel, std::string_view name, uint32_t value, uint32_t index = 0);
  /// A header with explicit form and offset (for edge cases such as headers whose data continues elsewhere).
  StreamBuilder& header(HeaderKind kind, uint32_t subchannel, uint32_t method, uint32_t count);
  StreamBuilder& word(uint32_t value) { words_.push_back(value); return *this; }
  StreamBuilder& words(std::span<const uint32_t> values) { words_.insert(words_.end(), values.begin(), values.end()); return *this; }

  // Host methods.
  StreamBuilder& semaphore_acquire(uint64_t address, uint32_t payload, AcquireCompare compare = AcquireCompare::equal);
  StreamBuilder& semaphore_release(uint64_t address, uint32_t payload, bool four_words = false);
  StreamBuilder& syncpoint_wait(uint32_t index, uint32_t threshold);
  StreamBuilder& syncpoint_increment(uint32_t index);
  StreamBuilder& host(uint32_t method, uint32_t value);

  // Macros on the 3D class bound to `subchannel`.
  StreamBuilder& upload_macro(uint32_t subchannel, uint32_t index, uint32_t code_position, std::span<const uint32_t> code);
  StreamBuilder& call_macro(uint32_t subchannel, uint32_t index, std::span<const uint32_t> parameters);

  const std::vector<uint32_t>& words() const { return words_; }
  size_t size() const { return words_.size(); }
  void clear() { words_.clear(); }

  /// Writes the words at `address` and returns a GPFIFO entry for them.
  GpfifoEntry place(AddressSpace& memory, uint64_t address) const;

private:
  uint32_t class_of(uint32_t subchannel) const;
  std::vector<uint32_t> bound_{std::vector<uint32_t>(8, 0)};
  std::vector<uint32_t> words_;
};

} // namespace kiln::maxwell
