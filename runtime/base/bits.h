#pragma once
// Byte order and bit-field helpers shared by every decoder and layout.
#include <bit>
#include <climits>
#include <concepts>
#include <cstdint>
#include <cstring>

namespace kiln {

template <std::unsigned_integral T>
constexpr T byteswap(T value) {
  if constexpr (sizeof(T) == 1) return value;
  else if constexpr (sizeof(T) == 2) return __builtin_bswap16(value);
  else if constexpr (sizeof(T) == 4) return __builtin_bswap32(value);
  else return __builtin_bswap64(value);
}

enum class Endian { little, big };

/// Reads a T stored in `endian` order from unaligned memory.
template <std::unsigned_integral T>
inline T load(const void* source, Endian endian) {
  T value;
  std::memcpy(&value, source, sizeof(T));
  const bool host_little = std::endian::native == std::endian::little;
  return (endian == Endian::little) == host_little ? value : byteswap(value);
}

/// Writes `value` to unaligned memory in `endian` order.
template <std::unsigned_integral T>
inline void store(void* target, T value, Endian endian) {
  const bool host_little = std::endian::native == std::endian::little;
  if ((endian == Endian::little) != host_little) value = byteswap(value);
  std::memcpy(target, &value, sizeof(T));
}

/// A mask of the low `width` bits (width may be the full type width).
template <std::unsigned_integral T = uint64_t>
constexpr T low_mask(unsigned width) {
  return width >= sizeof(T) * CHAR_BIT ? static_cast<T>(~T{0}) : static_cast<T>((T{1} << width) - 1);
}

/// Bits [lsb, lsb+width) of `value`.
template <std::unsigned_integral T>
constexpr T extract_bits(T value, unsigned lsb, unsigned width) {
  return static_cast<T>((value >> lsb) & low_mask<T>(width));
}

/// `value` with bits [lsb, lsb+width) replaced by the low bits of `field`.
template <std::unsigned_integral T>
constexpr T insert_bits(T value, unsigned lsb, unsigned width, T field) {
  const T mask = static_cast<T>(low_mask<T>(width) << lsb);
  return static_cast<T>((value & ~mask) | ((field << lsb) & mask));
}

/// Sign-extends the low `width` bits of `value` to 64 bits.
constexpr int64_t sign_extend(uint64_t value, unsigned width) {
  if (width == 0) return 0;
  if (width >= 64) return static_cast<int64_t>(value);
  const uint64_t sign = uint64_t{1} << (width - 1);
  value &= low_mask<uint64_t>(width);
  return static_cast<int64_t>((value ^ sign) - sign);
}

constexpr bool is_power_of_two(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

/// Rounds up to a multiple of `alignment`, which must be a power of two.
constexpr uint64_t align_up(uint64_t value, uint64_t alignment) { return (value + alignment - 1) & ~(alignment - 1); }

constexpr uint64_t div_ceil(uint64_t value, uint64_t divisor) { return (value + divisor - 1) / divisor; }

} // namespace kiln
