#pragma once
// Content hashing (xxHash XXH3) for cache keys, input identity and change detection.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace kiln {

uint64_t hash64(std::span<const uint8_t> bytes, uint64_t seed = 0);
uint64_t hash64(std::string_view text, uint64_t seed = 0);

struct Hash128 {
  uint64_t high = 0;
  uint64_t low = 0;
  friend bool operator==(const Hash128&, const Hash128&) = default;
  /// 32 lowercase hex digits, high half first.
  std::string hex() const;
};

Hash128 hash128(std::span<const uint8_t> bytes);

/// Incremental XXH3-64 over several pieces (same result as hash64 of their concatenation).
class Hasher64 {
public:
  explicit Hasher64(uint64_t seed = 0);
  ~Hasher64();
  Hasher64(const Hasher64&) = delete;
  Hasher64& operator=(const Hasher64&) = delete;
  void update(std::span<const uint8_t> bytes);
  void update(std::string_view text);
  uint64_t digest() const;

private:
  void* state_;
};

} // namespace kiln
