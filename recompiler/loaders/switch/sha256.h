#pragma once
// SHA-256 (FIPS 180-4): NSO headers carry the digest of each decompressed segment.
#include <array>
#include <cstdint>
#include <span>

namespace kiln::nx {

using Sha256Digest = std::array<uint8_t, 32>;
Sha256Digest sha256(std::span<const uint8_t> bytes);

} // namespace kiln::nx
