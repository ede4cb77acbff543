#include "runtime/gpu/maxwell/stream_builder.h"

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/address_space.h"

namespace kiln::maxwell {

StreamBuilder& StreamBuilder::bind(uint32_t subchannel, ClassId class_id) {
  bound_.at(subchannel) = static_cast<uint32_t>(class_id);
  header(HeaderKind::increasing, subchannel, host_method::set_object, 1);
  return word(static_cast<uint32_t>(class_id));
}

uint32_t StreamBuilder::class_of(uint32_t subchannel) const {
  const uint32_t class_id = bound_.at(subchannel);
  if (class_id == 0) throw Error(fmt::format("stream builder: subchannel {} is not bound", subchannel));
  return class_id;
}

uint32_t StreamBuilder::offset(uint32_t subchannel, std::string_view name, uint32_t index) const {
  const uint32_t class_id = class_of(subchannel);
  const auto found = find_method(class_id, name, index);
  if (!found) throw Error(fmt::format("stream builder: {} has no method {}({})", class_name(class_id), name, index));
  return *found;
}

StreamBuilder& StreamBuilder::header(HeaderKind kind, uint32_t subchannel, uint32_t method, uint32_t count) {
  words_.push_back(MethodHeader{kind, subchannel, method, count}.encode());
  return *this;
}

StreamBuilder& StreamBuilder::method(uint32_t subchannel, std::string_view name, uint32_t index, uint32_t value) {
  if (value < 0x2000) return immediate(subchannel, name, value, index);
  const uint32_t values[] = {value};
  return incrementing(subchannel, name, values, index);
}

StreamBuilder& StreamBuilder::incrementing(uint32_t subchannel, std::string_view name, std::span<const uint32_t> values,
                                           uint32_t index) {
  header(HeaderKind::increasing, subchannel, offset(subchannel, name, index), static_cast<uint32_t>(values.size()));
  return words(values);
}

StreamBuilder& StreamBuilder::non_incrementing(uint32_t subchannel, std::string_view name,
                                               std::span<const uint32_t> values, uint32_t index) {
  header(HeaderKind::non_increasing, subchannel, offset(subchannel, name, index), static_cast<uint32_t>(values.size()));
  return words(values);
}

StreamBuilder& StreamBuilder::increment_once(uint32_t subchannel, std::string_view name,
                                             std::span<const uint32_t> values, uint32_t index) {
  header(HeaderKind::increment_once, subchannel, offset(subchannel, name, index), static_cast<uint32_t>(values.size()));
  return words(values);
}

StreamBuilder& StreamBuilder::immediate(uint32_t subchannel, std::string_view name, uint32_t value, uint32_t index) {
  if (value >= 0x2000) throw Error(fmt::format("stream builder: 0x{:x} does not fit an immediate header", value));
  return header(HeaderKind::immediate, subchannel, offset(subchannel, name, index), value);
}

StreamBuilder& StreamBuilder::host(uint32_t method, uint32_t value) {
  header(HeaderKind::increasing, 0, method, 1);
  return word(value);
}

StreamBuilder& StreamBuilder::semaphore_acquire(uint64_t address, uint32_t payload, AcquireCompare compare) {
  uint32_t operation = 1;
  if (compare == AcquireCompare::circular_greater_equal) operation = 4;
  else if (compare == AcquireCompare::and_nonzero) operation = 8;
  else if (compare != AcquireCompare::equal) throw Error("the host class has no strict >= acquire");
  const uint32_t values[] = {static_cast<uint32_t>(address >> 32) & 0xff, static_cast<uint32_t>(address), payload,
                             operation};
  header(HeaderKind::increasing, 0, host_method::semaphore_a, 4);
  return words(values);
}

StreamBuilder& StreamBuilder::semaphore_release(uint64_t address, uint32_t payload, bool four_words) {
  const uint32_t operation = 2u | (four_words ? 0u : 1u << 24); // RELEASE, SIZE 16BYTE or 4BYTE
  const uint32_t values[] = {static_cast<uint32_t>(address >> 32) & 0xff, static_cast<uint32_t>(address), payload,
                             operation};
  header(HeaderKind::increasing, 0, host_method::semaphore_a, 4);
  return words(values);
}

StreamBuilder& StreamBuilder::syncpoint_wait(uint32_t index, uint32_t threshold) {
  const uint32_t values[] = {threshold, (index & 0xff) << 8}; // OPERATION_WAIT
  header(HeaderKind::increasing, 0, host_method::syncpoint_a, 2);
  return words(values);
}

StreamBuilder& StreamBuilder::syncpoint_increment(uint32_t index) {
  const uint32_t values[] = {0, ((index & 0xff) << 8) | 1}; // OPERATION_INCR
  header(HeaderKind::increasing, 0, host_method::syncpoint_a, 2);
  return words(values);
}

StreamBuilder& StreamBuilder::upload_macro(uint32_t subchannel, uint32_t index, uint32_t code_position,
                                           std::span<const uint32_t> code) {
  method(subchannel, "LOAD_MME_INSTRUCTION_RAM_POINTER", code_position);
  non_incrementing(subchannel, "LOAD_MME_INSTRUCTION_RAM", code);
  method(subchannel, "LOAD_MME_START_ADDRESS_RAM_POINTER", index);
  const uint32_t start[] = {code_position};
  return non_incrementing(subchannel, "LOAD_MME_START_ADDRESS_RAM", start);
}

StreamBuilder& StreamBuilder::call_macro(uint32_t subchannel, uint32_t index, std::span<const uint32_t> parameters) {
  return increment_once(subchannel, "CALL_MME_MACRO", parameters, index);
}

GpfifoEntry StreamBuilder::place(AddressSpace& memory, uint64_t address) const {
  memory.write(address, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(words_.data()), words_.size() * 4));
  return GpfifoEntry::commands(address, static_cast<uint32_t>(words_.size()));
}

} // namespace kiln::maxwell
