#include "runtime/gpu/maxwell/pushbuffer.h"

#include <fmt/format.h>

#include "runtime/base/bits.h"

namespace kiln::maxwell {

GpfifoEntry GpfifoEntry::decode(uint32_t word0, uint32_t word1) {
  GpfifoEntry entry;
  entry.fetch_conditional = (word0 & 1) != 0;
  entry.address = (uint64_t{extract_bits(word1, 0, 8)} << 32) | (word0 & ~uint32_t{3});
  entry.privileged = extract_bits(word1, 8, 1) != 0;
  entry.subroutine = extract_bits(word1, 9, 1) != 0;
  entry.length = extract_bits(word1, 10, 21);
  entry.sync_wait = extract_bits(word1, 31, 1) != 0;
  if (entry.length == 0) entry.control_opcode = static_cast<uint8_t>(extract_bits(word1, 0, 8));
  return entry;
}

uint32_t GpfifoEntry::word0() const {
  return static_cast<uint32_t>(address & 0xfffffffc) | (fetch_conditional ? 1u : 0u);
}

uint32_t GpfifoEntry::word1() const {
  uint32_t word = length == 0 ? control_opcode : static_cast<uint32_t>((address >> 32) & 0xff);
  word = insert_bits<uint32_t>(word, 8, 1, privileged);
  word = insert_bits<uint32_t>(word, 9, 1, subroutine);
  word = insert_bits<uint32_t>(word, 10, 21, length);
  word = insert_bits<uint32_t>(word, 31, 1, sync_wait);
  return word;
}

GpfifoEntry GpfifoEntry::commands(uint64_t address, uint32_t length, bool sync_wait) {
  GpfifoEntry entry;
  entry.address = address;
  entry.length = length;
  entry.sync_wait = sync_wait;
  return entry;
}

MethodHeader MethodHeader::decode(uint32_t word) {
  MethodHeader header;
  header.subchannel = extract_bits(word, 13, 3);
  const uint32_t sec_op = extract_bits(word, 29, 3);
  const uint32_t tert_op = extract_bits(word, 16, 2);
  switch (sec_op) {
  case 0: // GRP0_USE_TERT: the old incrementing form, or sub-device masks
  case 2: // GRP2_USE_TERT: the old non-incrementing form
    if (tert_op != 0) {
      header.kind = sec_op == 0 ? HeaderKind::subdevice_mask : HeaderKind::invalid;
      return header;
    }
    header.kind = sec_op == 0 ? HeaderKind::increasing : HeaderKind::non_increasing;
    header.method = word & 0x1ffc;           // DMA_METHOD_ADDRESS_OLD 12:2 (a byte offset)
    header.count = extract_bits(word, 18, 11); // DMA_METHOD_COUNT_OLD 28:18
    return header;
  case 1: header.kind = HeaderKind::increasing; break;
  case 3: header.kind = HeaderKind::non_increasing; break;
  case 4: header.kind = HeaderKind::immediate; break;
  case 5: header.kind = HeaderKind::increment_once; break;
  case 6: header.kind = HeaderKind::invalid; return header;
  case 7: header.kind = HeaderKind::end_segment; return header;
  }
  header.method = extract_bits(word, 0, 12) << 2; // DMA_METHOD_ADDRESS 11:0 (in words)
  header.count = extract_bits(word, 16, 13);      // DMA_METHOD_COUNT / DMA_IMMD_DATA 28:16
  return header;
}

uint32_t MethodHeader::encode() const {
  uint32_t sec_op = 0;
  switch (kind) {
  case HeaderKind::increasing: sec_op = 1; break;
  case HeaderKind::non_increasing: sec_op = 3; break;
  case HeaderKind::immediate: sec_op = 4; break;
  case HeaderKind::increment_once: sec_op = 5; break;
  case HeaderKind::end_segment: return 7u << 29;
  case HeaderKind::invalid: return 6u << 29;
  case HeaderKind::subdevice_mask: return 1u << 16;
  }
  return (sec_op << 29) | ((count & 0x1fff) << 16) | ((subchannel & 7) << 13) | ((method >> 2) & 0xfff);
}

const char* header_kind_name(HeaderKind kind) {
  switch (kind) {
  case HeaderKind::increasing: return "inc";
  case HeaderKind::non_increasing: return "non-inc";
  case HeaderKind::increment_once: return "inc-once";
  case HeaderKind::immediate: return "imm";
  case HeaderKind::end_segment: return "end-segment";
  case HeaderKind::subdevice_mask: return "subdevice-mask";
  case HeaderKind::invalid: return "invalid";
  }
  return "?";
}

std::string MethodHeader::describe() const {
  return fmt::format("{} subchannel {} method 0x{:04x} count {}", header_kind_name(kind), subchannel, method, count);
}

} // namespace kiln::maxwell
