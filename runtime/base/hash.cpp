#include "runtime/base/hash.h"

#include <fmt/format.h>
#include <xxhash.h>

namespace kiln {

uint64_t hash64(std::span<const uint8_t> bytes, uint64_t seed) {
  return XXH3_64bits_withSeed(bytes.data(), bytes.size(), seed);
}

uint64_t hash64(std::string_view text, uint64_t seed) { return XXH3_64bits_withSeed(text.data(), text.size(), seed); }

std::string Hash128::hex() const { return fmt::format("{:016x}{:016x}", high, low); }

Hash128 hash128(std::span<const uint8_t> bytes) {
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return Hash128{h.high64, h.low64};
}

Hasher64::Hasher64(uint64_t seed) : state_(XXH3_createState()) {
  XXH3_64bits_reset_withSeed(static_cast<XXH3_state_t*>(state_), seed);
}

Hasher64::~Hasher64() { XXH3_freeState(static_cast<XXH3_state_t*>(state_)); }

void Hasher64::update(std::span<const uint8_t> bytes) {
  XXH3_64bits_update(static_cast<XXH3_state_t*>(state_), bytes.data(), bytes.size());
}

void Hasher64::update(std::string_view text) {
  XXH3_64bits_update(static_cast<XXH3_state_t*>(state_), text.data(), text.size());
}

uint64_t Hasher64::digest() const { return XXH3_64bits_digest(static_cast<const XXH3_state_t*>(state_)); }

} // namespace kiln
