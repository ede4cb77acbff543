#include "runtime/platform/switch/ipc/hipc.h"

#include <fmt/format.h>

#include <cstring>

namespace kiln::hos::ipc {

namespace {
uint32_t word_at(std::span<const uint8_t> m, size_t offset) {
  uint32_t v;
  std::memcpy(&v, m.data() + offset, 4);
  return v;
}
uint32_t bits(uint32_t value, int low, int count) { return (value >> low) & ((1u << count) - 1); }
} // namespace

std::optional<HipcMessage> decode_hipc(std::span<const uint8_t> m, std::string* error) {
  auto fail = [&](size_t offset, const std::string& what) -> std::optional<HipcMessage> {
    *error = fmt::format("offset {:#x}: {}", offset, what);
    return std::nullopt;
  };
  if (m.size() < 8) return fail(0, "message shorter than its header");
  HipcMessage msg;
  const uint32_t h0 = word_at(m, 0), h1 = word_at(m, 4);
  msg.type = static_cast<uint16_t>(bits(h0, 0, 16));
  const uint32_t x_count = bits(h0, 16, 4), a_count = bits(h0, 20, 4), b_count = bits(h0, 24, 4), w_count = bits(h0, 28, 4);
  const uint32_t raw_words = bits(h1, 0, 10);
  msg.c_flags = bits(h1, 10, 4);
  const bool has_handles = bits(h1, 31, 1);
  size_t at = 8;
  auto need = [&](size_t bytes, const char* what) {
    if (at + bytes > m.size()) {
      *error = fmt::format("offset {:#x}: {} would end past the {:#x}-byte message", at, what, m.size());
      return false;
    }
    return true;
  };
  if (has_handles) {
    if (!need(4, "the handle descriptor")) return std::nullopt;
    const uint32_t hd = word_at(m, at);
    at += 4;
    msg.send_pid = bits(hd, 0, 1);
    const uint32_t copies = bits(hd, 1, 4), moves = bits(hd, 5, 4);
    if (msg.send_pid) {
      if (!need(8, "the process id")) return std::nullopt;
      std::memcpy(&msg.pid, m.data() + at, 8);
      at += 8;
    }
    if (!need(4 * (copies + moves), "the handles")) return std::nullopt;
    for (uint32_t i = 0; i < copies; ++i, at += 4) msg.copy_handles.push_back(word_at(m, at));
    for (uint32_t i = 0; i < moves; ++i, at += 4) msg.move_handles.push_back(word_at(m, at));
  }
  if (!need(8 * x_count, "the X descriptors")) return std::nullopt;
  for (uint32_t i = 0; i < x_count; ++i, at += 8) {
    const uint32_t d0 = word_at(m, at), d1 = word_at(m, at + 4);
    BufferDescriptor d;
    d.extra = bits(d0, 0, 6) | (bits(d0, 9, 3) << 9);
    d.address = d1 | (uint64_t{bits(d0, 12, 4)} << 32) | (uint64_t{bits(d0, 6, 3)} << 36);
    d.size = bits(d0, 16, 16);
    msg.x.push_back(d);
  }
  for (auto [count, list] : {std::pair{a_count, &msg.a}, std::pair{b_count, &msg.b}, std::pair{w_count, &msg.w}}) {
    if (!need(12 * count, "the A/B/W descriptors")) return std::nullopt;
    for (uint32_t i = 0; i < count; ++i, at += 12) {
      const uint32_t d0 = word_at(m, at), d1 = word_at(m, at + 4), d2 = word_at(m, at + 8);
      BufferDescriptor d;
      d.extra = bits(d2, 0, 2);
      d.address = d1 | (uint64_t{bits(d2, 28, 4)} << 32) | (uint64_t{bits(d2, 2, 3)} << 36);
      d.size = d0 | (uint64_t{bits(d2, 24, 4)} << 32);
      list->push_back(d);
    }
  }
  msg.raw_offset = at;
  msg.raw_size = 4 * size_t{raw_words};
  if (!need(msg.raw_size, "the raw data section")) return std::nullopt;
  at += msg.raw_size;
  // C flags: 0 none, 1 the receive list is the message buffer itself (no descriptor), 2 one descriptor, n > 2: n - 2.
  const uint32_t c_count = msg.c_flags <= 1 ? 0 : msg.c_flags == 2 ? 1 : msg.c_flags - 2;
  if (!need(8 * c_count, "the C descriptors")) return std::nullopt;
  for (uint32_t i = 0; i < c_count; ++i, at += 8) {
    const uint32_t d0 = word_at(m, at), d1 = word_at(m, at + 4);
    msg.c.push_back({d0 | (uint64_t{bits(d1, 0, 16)} << 32), bits(d1, 16, 16), 0});
  }
  return msg;
}

bool encode_hipc(const HipcReply& reply, std::span<uint8_t> out) {
  std::vector<uint32_t> words(2, 0);
  const bool has_handles = !reply.copy_handles.empty() || !reply.move_handles.empty();
  if (has_handles) {
    words.push_back(static_cast<uint32_t>(reply.copy_handles.size() << 1 | reply.move_handles.size() << 5));
    words.insert(words.end(), reply.copy_handles.begin(), reply.copy_handles.end());
    words.insert(words.end(), reply.move_handles.begin(), reply.move_handles.end());
  }
  const size_t raw_start = words.size() * 4;
  const size_t data_start = reply.align_raw ? aligned_raw_offset(raw_start) : raw_start;
  const size_t raw_bytes = data_start - raw_start + reply.raw.size();
  const size_t raw_words = (raw_bytes + 3) / 4;
  if (raw_words >= 1024 || raw_start + raw_words * 4 > out.size()) return false;
  words[0] = reply.type;
  words[1] = static_cast<uint32_t>(raw_words) | (has_handles ? 1u << 31 : 0);
  std::memset(out.data(), 0, raw_start + raw_words * 4);
  std::memcpy(out.data(), words.data(), raw_start);
  std::memcpy(out.data() + data_start, reply.raw.data(), reply.raw.size());
  return true;
}

} // namespace kiln::hos::ipc
