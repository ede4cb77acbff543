#pragma once
// GP0/GP1 word streams as text (`GP0 1234ABCD` per line, `#` comments), fed into the GPU alone:
// what `kiln psx gpu-replay` runs, so rasterizer output can be compared with hardware captures.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/gpu/psx/gpu.h"

namespace kiln::psx {

struct GpuWrite {
  enum class Port : uint8_t { gp0, gp1 } port;
  uint32_t value;
  uint32_t line; ///< 1-based line of the text it came from
};

/// Parses the text; a malformed line is a kiln::Error naming `file_name` and the line number.
std::vector<GpuWrite> parse_gpu_words(std::string_view text, const std::string& file_name);

/// Feeds `writes` into `gpu`. VRAM-to-CPU transfers are read out (and dropped) as soon as they start, since the
/// stream has no reads. A command still incomplete at the end is a kiln::Error naming the line it started on.
void replay(Gpu& gpu, const std::vector<GpuWrite>& writes, const std::string& file_name);

/// VRAM as the 1 MiB dump: 1024x512 halfwords, little-endian, row by row.
std::vector<uint8_t> vram_to_bytes(const Vram& vram);
/// Loads such a dump; anything but exactly 1 MiB is a kiln::Error naming `file_name`.
void vram_from_bytes(Vram& vram, const std::vector<uint8_t>& bytes, const std::string& file_name);

} // namespace kiln::psx
