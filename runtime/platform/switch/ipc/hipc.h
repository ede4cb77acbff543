#pragma once
// HIPC, the kernel's message format (switchbrew "IPC_Marshalling"): a two-word header, an optional handle
// descriptor (pid, copy and move handles), X/A/B/W buffer descriptors, the raw data section (CMIF or TIPC
// inside) and C (receive-list) descriptors after it. Decoding checks every count and offset against the
// message size; nothing here touches guest memory beyond the message bytes it is given.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kiln::hos::ipc {

/// Header word 0 bits 0-15.
namespace message_type {
constexpr uint16_t close = 2, request = 4, control = 5, request_with_context = 6, control_with_context = 7;
constexpr uint16_t tipc_first = 16; ///< TIPC: 16 + command id
} // namespace message_type

struct BufferDescriptor {
  uint64_t address = 0;
  uint64_t size = 0;
  uint32_t extra = 0; ///< X: the receive index (counter); A/B/W: the mode bits 0-1
};

struct HipcMessage {
  uint16_t type = 0;
  bool send_pid = false;
  uint64_t pid = 0;
  std::vector<uint32_t> copy_handles, move_handles;
  std::vector<BufferDescriptor> x, a, b, w, c;
  uint32_t c_flags = 0;
  size_t raw_offset = 0; ///< byte offset of the raw data section in the message
  size_t raw_size = 0;   ///< its size in bytes (the header's word count * 4)
};

/// Decodes `message`; on a malformed message returns nullopt and sets `error` to what is wrong (with its offset).
std::optional<HipcMessage> decode_hipc(std::span<const uint8_t> message, std::string* error);

/// What a reply carries; encode_hipc lays it out and puts `raw` at the 16-byte aligned offset CMIF expects
/// (`align_raw` false for TIPC, whose data follows the header directly).
struct HipcReply {
  uint16_t type = 0;
  std::vector<uint32_t> copy_handles, move_handles;
  std::vector<uint8_t> raw;
  bool align_raw = true;
};
/// Writes the reply into `out` (the message buffer's size); false if it does not fit.
bool encode_hipc(const HipcReply& reply, std::span<uint8_t> out);

/// The offset where CMIF data starts inside the raw section: raw_offset rounded up to 16.
inline size_t aligned_raw_offset(size_t raw_offset) { return (raw_offset + 15) & ~size_t{15}; }

} // namespace kiln::hos::ipc
