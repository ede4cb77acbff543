// HIPC decoding against messages written word by word from switchbrew's field tables
// (https://switchbrew.org/wiki/IPC_Marshalling: "IPC Command Structure", "Handle descriptor",
// "Buffer descriptor X", "Buffer descriptor A/B/W", "Buffer descriptor C"), never from kiln's encoder.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "runtime/platform/switch/ipc/hipc.h"

namespace {

using namespace kiln::hos::ipc;

std::vector<uint8_t> bytes_of(const std::vector<uint32_t>& words, size_t size = 0x100) {
  std::vector<uint8_t> out(size);
  std::memcpy(out.data(), words.data(), words.size() * 4);
  return out;
}

TEST_CASE("A request with every descriptor kind decodes field by field") {
  const std::vector<uint32_t> words = {
      0x01110004, // word 0: type 4 (Request), bits 16-19 one X, 20-23 one A, 24-27 one B, 28-31 no W
      0x8000080a, // word 1: raw data 10 words (bits 0-9), C flags 2 = one C descriptor (bits 10-13), handle descriptor (bit 31)
      0x00000023, // handle descriptor: send PID (bit 0), 1 copy handle (bits 1-4), 1 move handle (bits 5-8)
      0x11111111, 0x22222222, // the 8-byte PID placeholder
      0x00012345, // copy handle
      0x00067890, // move handle
      // X: counter 5 (bits 0-5), address bits 36-38 = 7 (bits 6-8), address bits 32-35 = 6 (bits 12-15), size 0x80 (16-31)
      0x008061c5, 0x54321000, // -> address 0x7654321000
      // A: size low 0x1000, address low 0x23456000, word 2: flags 1, address bits 36-38 = 2 (bits 2-4),
      // size bits 32-35 = 3 (bits 24-27), address bits 32-35 = 1 (bits 28-31) -> address 0x2123456000, size 0x300001000
      0x00001000, 0x23456000, 0x13000009,
      // B: size 0x40, address 0x2000000100, flags 3 (bits 32-35 of the address = 0, bits 36-38 = 2)
      0x00000040, 0x00000100, 0x0000000b,
      // raw data at 0x3c: padding to 0x40, then "SFCI", version 0, command 7, token 0, a u64 argument
      0x00000000, 0x49434653, 0x00000000, 0x00000007, 0x00000000, 0xdeadbeef, 0x00000001, 0, 0, 0,
      // C at 0x3c + 40 = 0x64: address low 0x00200000; word 1: address bits 32-47 = 0x71 (bits 0-15), size 0x40 (bits 16-31)
      0x00200000, 0x00400071,
  };
  std::string error;
  const auto m = decode_hipc(bytes_of(words), &error);
  REQUIRE(m);
  CHECK(m->type == 4);
  CHECK(m->send_pid);
  CHECK(m->pid == 0x2222222211111111);
  CHECK(m->copy_handles == std::vector<uint32_t>{0x12345});
  CHECK(m->move_handles == std::vector<uint32_t>{0x67890});
  REQUIRE(m->x.size() == 1);
  CHECK(m->x[0].address == 0x7654321000);
  CHECK(m->x[0].size == 0x80);
  CHECK(m->x[0].extra == 5);
  REQUIRE(m->a.size() == 1);
  CHECK(m->a[0].address == 0x2123456000);
  CHECK(m->a[0].size == 0x300001000);
  CHECK(m->a[0].extra == 1);
  REQUIRE(m->b.size() == 1);
  CHECK(m->b[0].address == 0x2000000100);
  CHECK(m->b[0].size == 0x40);
  CHECK(m->b[0].extra == 3);
  CHECK(m->w.empty());
  CHECK(m->raw_offset == 0x3c);
  CHECK(m->raw_size == 40);
  CHECK(aligned_raw_offset(m->raw_offset) == 0x40);
  REQUIRE(m->c.size() == 1);
  CHECK(m->c[0].address == 0x7100200000);
  CHECK(m->c[0].size == 0x40);
}

TEST_CASE("C flags above 2 give flags - 2 descriptors") {
  // type 4, raw 4 words, C flags 4 -> two C descriptors after the raw data (at 8 + 16 = 0x18)
  const std::vector<uint32_t> words = {0x00000004, 0x00001004, 0, 0, 0, 0, 0x1000, 0x00100000, 0x2000, 0x00200000};
  std::string error;
  const auto m = decode_hipc(bytes_of(words), &error);
  REQUIRE(m);
  REQUIRE(m->c.size() == 2);
  CHECK(m->c[0].address == 0x1000);
  CHECK(m->c[0].size == 0x10);
  CHECK(m->c[1].address == 0x2000);
  CHECK(m->c[1].size == 0x20);
}

TEST_CASE("A message whose sections run past its buffer is an error naming the offset") {
  std::string error;
  CHECK_FALSE(decode_hipc(bytes_of({0x00000004, 0x000003ff}), &error)); // 1023 raw words in 0x100 bytes
  CHECK(error == "offset 0x8: the raw data section would end past the 0x100-byte message");
  CHECK_FALSE(decode_hipc(bytes_of({0xf0000004, 0}, 0x40), &error)); // 15 W descriptors in 0x40 bytes
  CHECK(error == "offset 0x8: the A/B/W descriptors would end past the 0x40-byte message");
  CHECK_FALSE(decode_hipc(bytes_of({0x00000004, 0x80000000, 0x000001fe}, 0x20), &error)); // 15 copy + 15 move handles
  CHECK(error == "offset 0xc: the handles would end past the 0x20-byte message");
  CHECK_FALSE(decode_hipc(std::vector<uint8_t>(4), &error));
}

TEST_CASE("A reply puts the handles after the header and the data at the next 16-byte boundary") {
  HipcReply reply;
  reply.move_handles = {0xabcd};
  reply.raw = {1, 2, 3, 4};
  std::vector<uint8_t> out(0x100, 0xee);
  REQUIRE(encode_hipc(reply, out));
  uint32_t w[5];
  std::memcpy(w, out.data(), sizeof w);
  CHECK(w[0] == 0);          // type, no descriptors
  CHECK(w[1] == 0x80000001); // one raw word (no padding: 0x10 is aligned), handle descriptor
  CHECK(w[2] == 0x20);       // one move handle (bits 5-8)
  CHECK(w[3] == 0xabcd);
  CHECK(w[4] == 0x04030201);
}

} // namespace
