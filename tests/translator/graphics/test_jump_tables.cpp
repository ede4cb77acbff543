// The c[1] tables derived from the programs' own code (jump_tables.h) against the values NVIDIA publishes beside
// the compiled programs (open-gpu-kernel-modules, src/nvidia-modeset/src/shaders/g_maxwell_shader_info.h,
// MaxwellConstantBuf0 and MaxwellConstantBuf6, used by programs 02 and 26): an independent check of the rule.
#include <catch2/catch.hpp>

#include <filesystem>

#include "runtime/base/file_writer.h"
#include "tests/translator/graphics/jump_tables.h"

namespace {

std::vector<uint32_t> derive(const char* file) {
  const auto path = std::filesystem::path(KILN_SHARED_DIR) / "corpus" / "nvidia-headsurface" / "maxwell" / file;
  const auto bytes = kiln::read_file(path);
  return kiln::test::derive_compiler_constants(kiln::sass::sm5x::decode_program(bytes, file));
}

} // namespace

TEST_CASE("jump tables derived from the code equal NVIDIA's published constant buffers", "[graphics]") {
  CHECK(derive("02_nvidia_headsurface_fragment_customSampling.bin") ==
        std::vector<uint32_t>{0x438, 0x7f0, 0xd18, 0x12f8, 0x1478, 0x1630, 0x1a38, 0x1df0, 0x22f0, 0x2880, 0x2a00, 0x2bb8, 0x3f400000});
  CHECK(derive("26_nvidia_headsurface_fragment_blend_offset_overlay_customSampling.bin") ==
        std::vector<uint32_t>{0x3f0, 0x7a0, 0xca0, 0x1280, 0x1400, 0x15b8, 0x3f400000});
  CHECK(derive("01_nvidia_headsurface_fragment.bin").empty());
}
