#pragma once
// The largest input kiln reads for each kind of file: every reader checks the size against its kind's limit
// before it allocates anything, so a huge or endless input is refused at once instead of filling memory.
// The limits are far above any real file of the kind (docs/cli.md lists them).
#include <cstdint>

namespace kiln {

struct InputKind {
  const char* what;   ///< for the message: "a guest executable"
  uint64_t max_bytes; ///< inclusive
};

namespace input {
constexpr uint64_t mib = uint64_t{1} << 20;
/// ELF, NSO/NRO, PS-X EXE: the Switch's largest executable modules are some hundred MiB.
constexpr InputKind executable{"a guest executable", 1024 * mib};
/// Raw GPU programs, cubins, assembler sources, constant-bank files.
constexpr InputKind gpu_program{"a GPU program", 256 * mib};
/// Recorded pushbuffer captures with the guest memory they read.
constexpr InputKind gpu_capture{"a GPU capture", 4096 * mib};
/// Texture and image data (guest surfaces, linear images, palettes), VRAM images.
constexpr InputKind image{"image data", 1024 * mib};
/// kiln.toml, patch manifests, pad scripts, word lists, porter glue and other text.
constexpr InputKind text{"a text file", 64 * mib};
/// Shared fonts (the whole shared-font region is 17 MiB).
constexpr InputKind font{"a font", 64 * mib};
/// A saved Vulkan pipeline cache.
constexpr InputKind pipeline_cache{"a pipeline cache", 1024 * mib};
/// Anything else read whole.
constexpr InputKind any{"an input file", 2048 * mib};
} // namespace input

} // namespace kiln
