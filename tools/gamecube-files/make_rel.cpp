// make_rel --dol ELF [--version N] [--first-id N] -o FOLDER OBJECT...: one REL per relocatable object
// (rel_writer.h), FOLDER/<object stem>.rel, module ids from --first-id (default 1) in the order given; imports
// between the objects and from the DOL's linked ELF are resolved by symbol name.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "tools/gamecube-files/rel_writer.h"

namespace {

int usage() {
  std::fprintf(stderr, "usage: make_rel --dol ELF [--version 1|2|3] [--first-id N] -o FOLDER OBJECT...\n");
  return 64;
}

} // namespace

int main(int argc, char** argv) {
  std::string dol, folder;
  uint32_t version = 3, first_id = 1;
  std::vector<std::string> objects;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      const bool has_value = i + 1 < argc;
      if (arg == "--dol" && has_value) dol = argv[++i];
      else if (arg == "-o" && has_value) folder = argv[++i];
      else if (arg == "--version" && has_value) version = static_cast<uint32_t>(std::stoul(argv[++i]));
      else if (arg == "--first-id" && has_value) first_id = static_cast<uint32_t>(std::stoul(argv[++i], nullptr, 0));
      else if (arg.starts_with("-")) return usage();
      else objects.push_back(arg);
    }
  } catch (const std::exception&) {
    return usage();
  }
  if (dol.empty() || folder.empty() || objects.empty()) return usage();
  try {
    const std::vector<uint8_t> dol_bytes = kiln::read_file(dol, kiln::input::executable);
    std::vector<std::vector<uint8_t>> object_bytes;
    for (const std::string& o : objects) object_bytes.push_back(kiln::read_file(o, kiln::input::executable));
    std::vector<kiln::gamecube::writer::RelObject> inputs;
    for (size_t i = 0; i < objects.size(); ++i) inputs.push_back({objects[i], object_bytes[i], first_id + static_cast<uint32_t>(i)});
    const auto rels = kiln::gamecube::writer::write_rels(dol_bytes, dol, inputs, version);
    for (size_t i = 0; i < objects.size(); ++i)
      kiln::write_file_if_changed(std::filesystem::path(folder) / (std::filesystem::path(objects[i]).stem().string() + ".rel"), rels[i]);
  } catch (const kiln::Error& e) {
    std::fprintf(stderr, "make_rel: %s\n", e.what());
    return 1;
  }
  return 0;
}
