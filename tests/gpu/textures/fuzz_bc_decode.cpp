// Fuzzes the BCn decoders (BC1-BC7, SNORM, BC6H both ways) with arbitrary block bytes and image sizes: every
// input must decode or end in kiln::Error (too few bytes, bad sizes); never an out-of-bounds access or UB.
#include <cstdint>
#include <span>

#include "runtime/base/error.h"
#include "runtime/gpu/textures/formats/bcn.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace kiln::textures;
  if (size < 3) return 0;
  const auto format = static_cast<BcFormat>(data[0] % 10);
  const uint32_t width = data[1] % 33, height = data[2] % 33; // 0 is rejected, partial blocks included
  const std::span<const uint8_t> blocks(data + 3, size - 3);
  try {
    if (format == BcFormat::bc4_snorm || format == BcFormat::bc5_snorm) {
      decode_bc_snorm(format, width, height, blocks, "fuzz");
    } else if (format == BcFormat::bc6h_ufloat || format == BcFormat::bc6h_sfloat) {
      decode_bc6h(format, width, height, blocks, "fuzz");
    }
    decode_bc(format, width, height, blocks, "fuzz");
  } catch (const kiln::Error&) {
  }
  return 0;
}
