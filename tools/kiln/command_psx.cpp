// `kiln psx ...`: PlayStation tools.
#include <fmt/format.h>

#include <string>

#include "runtime/base/file_writer.h"
#include "runtime/base/log.h"
#include "runtime/base/png_image.h"
#include "runtime/gpu/psx/display.h"
#include "runtime/gpu/psx/gpu.h"
#include "runtime/gpu/psx/replay.h"
#include "tools/kiln/command_registry.h"

namespace {

void setup_psx_commands(CLI::App& root) {
  CLI::App& psx = kiln::cli::command_group(root, "psx", "PlayStation: GPU replay");

  auto* replay = psx.add_subcommand(
      "gpu-replay", "feed GP0/GP1 words (text, one `GP0 1234ABCD` or `GP1 ...` per line) to the GPU alone and dump VRAM");
  static std::string words_path, vram_out, png_out, vram_in;
  replay->add_option("WORDS", words_path, "text file of GP0/GP1 words; blank lines and # comments are ignored")
      ->required();
  replay->add_option("--vram", vram_out, "VRAM dump to write: 1024x512 16-bit little-endian pixels (1 MiB)")
      ->required();
  replay->add_option("--png", png_out, "PNG of the displayed area, as the video output scans it");
  replay->add_option("--vram-in", vram_in, "VRAM dump to start from (textures, CLUTs)");
  replay->callback([] {
    const std::vector<uint8_t> text = kiln::read_file(words_path);
    const auto writes =
        kiln::psx::parse_gpu_words(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()), words_path);
    kiln::psx::Gpu gpu;
    if (!vram_in.empty()) kiln::psx::vram_from_bytes(gpu.vram(), kiln::read_file(vram_in), vram_in);
    kiln::psx::replay(gpu, writes, words_path);
    kiln::write_file_if_changed(vram_out, kiln::psx::vram_to_bytes(gpu.vram()));
    if (!png_out.empty()) {
      if (!gpu.display().enabled) {
        kiln::log::warning("the display is disabled (no GP1(03000000h) in the stream): {} is black", png_out);
      }
      kiln::write_png(png_out, kiln::psx::scan_out(gpu.vram(), gpu.display()));
    }
    kiln::log::info("replayed {} words from {}; wrote {}", writes.size(), words_path, vram_out);
  });
}

} // namespace

KILN_REGISTER_COMMAND("psx", setup_psx_commands);
