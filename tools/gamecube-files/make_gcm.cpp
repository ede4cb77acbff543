// make_gcm IMAGE --dol DOL [--root FOLDER] [--id GAMEID] [--name NAME] [--apploader FILE] [--country N]
// [--file-align N]: a GameCube disc image (disc_writer.h) booting DOL, its FST listing FOLDER's files.
#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "tools/gamecube-files/disc_writer.h"

namespace {

int usage() {
  std::fprintf(stderr, "usage: make_gcm IMAGE --dol DOL [--root FOLDER] [--id GAMEID] [--name NAME] [--apploader FILE] "
                       "[--country N] [--file-align N]\n");
  return 64;
}

} // namespace

int main(int argc, char** argv) {
  kiln::gamecube::writer::DiscInput input;
  std::string image, dol, apploader;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      const bool has_value = i + 1 < argc;
      if (arg == "--dol" && has_value) dol = argv[++i];
      else if (arg == "--root" && has_value) input.root = argv[++i];
      else if (arg == "--id" && has_value) input.game_id = argv[++i];
      else if (arg == "--name" && has_value) input.game_name = argv[++i];
      else if (arg == "--apploader" && has_value) apploader = argv[++i];
      else if (arg == "--country" && has_value) input.country_code = static_cast<uint32_t>(std::stoul(argv[++i], nullptr, 0));
      else if (arg == "--file-align" && has_value) input.file_alignment = static_cast<uint32_t>(std::stoul(argv[++i], nullptr, 0));
      else if (arg.starts_with("-") || !image.empty()) return usage();
      else image = arg;
    }
  } catch (const std::exception&) {
    return usage();
  }
  if (image.empty() || dol.empty()) return usage();
  try {
    input.dol = kiln::read_file(dol, kiln::input::executable);
    if (!apploader.empty()) input.apploader = kiln::read_file(apploader, kiln::input::executable);
    kiln::gamecube::writer::write_disc(input, image);
  } catch (const kiln::Error& e) {
    std::fprintf(stderr, "make_gcm: %s\n", e.what());
    return 1;
  }
  return 0;
}
