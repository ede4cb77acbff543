#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "runtime/base/hash.h"

using namespace kiln;

TEST_CASE("hash64 matches XXH3-64's published value for empty input", "[hash]") {
  // XXH3_64bits of zero bytes with seed 0 is 0x2D06800538D394C2 (xxHash reference test vector).
  CHECK(hash64(std::string_view{}) == 0x2D06800538D394C2ull);
}

TEST_CASE("hashes are deterministic and sensitive to every byte", "[hash]") {
  std::vector<uint8_t> data(1000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7);
  const uint64_t first = hash64(data);
  CHECK(hash64(data) == first);
  data[999] ^= 1;
  CHECK(hash64(data) != first);
  CHECK(hash64(data, 1) != hash64(data, 2));
  CHECK(hash128(data).hex().size() == 32);
  CHECK(hash128(data) == hash128(data));
}

TEST_CASE("incremental hashing equals hashing the concatenation", "[hash]") {
  const std::string a = "kiln recompiles ", b = "console executables";
  Hasher64 hasher;
  hasher.update(a);
  hasher.update(b);
  CHECK(hasher.digest() == hash64(a + b));
}
