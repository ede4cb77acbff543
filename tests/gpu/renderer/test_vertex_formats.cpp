// Vertex attribute widening on the CPU (seed 002 §5.9): known answers derived from the format definitions
// (UNORM: v / (2^n - 1); SNORM: max(v / (2^(n-1) - 1), -1); SCALED: the integer as a float; 11/10-bit floats:
// 5-bit exponent with bias 15, 6/5-bit mantissa, no sign; components from the least significant bit, R first).
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>

#include "runtime/gpu/vulkan/maxwell/formats.h"

using namespace kiln::vulkan::maxwell_formats;

namespace {

/// SET_VERTEX_ATTRIBUTE_A for `size` and `type` (stream 0, offset 0).
VertexAttribute attribute(uint32_t size, uint32_t type, bool swap = false) {
  return kiln::maxwell::decode_vertex_attribute((size << 21) | (type << 27) | (swap ? 1u << 31 : 0u));
}

std::array<float, 4> widen_floats(const VertexAttribute& a, const std::vector<uint8_t>& bytes) {
  const auto words = widen_vertex_attribute(a, bytes);
  return {std::bit_cast<float>(words[0]), std::bit_cast<float>(words[1]), std::bit_cast<float>(words[2]), std::bit_cast<float>(words[3])};
}

std::vector<uint8_t> word_bytes(uint32_t word) {
  std::vector<uint8_t> bytes(4);
  std::memcpy(bytes.data(), &word, 4);
  return bytes;
}

} // namespace

TEST_CASE("A2B10G10R10 UNORM and SNORM widen per component", "[unit][renderer]") {
  // R = 1023 -> 1, G = 0 -> 0, B = 341 -> 341/1023, A = 2 -> 2/3.
  const auto unorm = widen_floats(attribute(0x30, 2), word_bytes(1023u | (0u << 10) | (341u << 20) | (2u << 30)));
  CHECK(unorm[0] == 1.0f);
  CHECK(unorm[1] == 0.0f);
  CHECK(unorm[2] == static_cast<float>(341.0 / 1023.0));
  CHECK(unorm[3] == static_cast<float>(2.0 / 3.0));
  // R = 0x200 (-512) clamps to -1, G = 511 -> 1, B = 0x3ff (-1) -> -1/511, A = 2 (-2 in 2 bits) clamps to -1.
  const auto snorm = widen_floats(attribute(0x30, 1), word_bytes(0x200u | (0x1ffu << 10) | (0x3ffu << 20) | (2u << 30)));
  CHECK(snorm[0] == -1.0f);
  CHECK(snorm[1] == 1.0f);
  CHECK(snorm[2] == static_cast<float>(-1.0 / 511.0));
  CHECK(snorm[3] == -1.0f);
  CHECK(native_vertex_format(attribute(0x30, 2)) == vk::Format::eUndefined); // always widened
}

TEST_CASE("B10G11R11 unsigned floats widen", "[unit][renderer]") {
  // R: exponent 15, mantissa 0 -> 1.0 (0x3c0); G: exponent 16, mantissa 32/64 -> 2 * 1.5 = 3.0 (0x420);
  // B (10 bits): exponent 14, mantissa 0 -> 0.5 (0x1c0); A defaults to 1.
  const auto value = widen_floats(attribute(0x31, 7), word_bytes(0x3c0u | (0x420u << 11) | (0x1c0u << 22)));
  CHECK(value == std::array<float, 4>{1.0f, 3.0f, 0.5f, 1.0f});
}

TEST_CASE("3-component 16-bit SSCALED and half floats widen and missing components default to 0, 0, 0, 1", "[unit][renderer]") {
  const int16_t scaled[3] = {-3, 7, -32768};
  std::vector<uint8_t> bytes(6);
  std::memcpy(bytes.data(), scaled, 6);
  CHECK(widen_floats(attribute(0x05, 6), bytes) == std::array<float, 4>{-3.0f, 7.0f, -32768.0f, 1.0f});
  // R16 FLOAT: 0x3c00 = 1.0, 0xc000 = -2.0 (sign, exponent 16, mantissa 0).
  CHECK(widen_floats(attribute(0x1b, 7), {0x00, 0x3c}) == std::array<float, 4>{1.0f, 0.0f, 0.0f, 1.0f});
  CHECK(widen_floats(attribute(0x1b, 7), {0x00, 0xc0}) == std::array<float, 4>{-2.0f, 0.0f, 0.0f, 1.0f});
}

TEST_CASE("integer attributes keep their bits and SWAP_R_AND_B swaps the first and third components", "[unit][renderer]") {
  // R8G8B8A8 SINT bytes (0xff, 2, 3, 0x80): -1, 2, 3, -128 as 32-bit integers, for ALD to read as bits.
  const auto sint = widen_vertex_attribute(attribute(0x0a, 3), std::vector<uint8_t>{0xff, 2, 3, 0x80});
  CHECK(sint == std::array<uint32_t, 4>{0xffffffffu, 2u, 3u, 0xffffff80u});
  // USCALED with R and B swapped: bytes (1, 2, 3, 4) read (3, 2, 1, 4).
  CHECK(widen_floats(attribute(0x0a, 5, true), {1, 2, 3, 4}) == std::array<float, 4>{3.0f, 2.0f, 1.0f, 4.0f});
  CHECK_THROWS(widen_vertex_attribute(attribute(0x3f, 2), std::vector<uint8_t>{0, 0, 0, 0})); // unknown size code
}
