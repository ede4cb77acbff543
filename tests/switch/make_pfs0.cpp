// make_pfs0 OUT FILE...: packs files into a PFS0 (switchbrew "PFS0"; pfs0.h gives the layout), each under its
// file name, in the order given: the test's NSP made from an ExeFS folder's files.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <vector>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "tests/switch/pfs0_writer.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: make_pfs0 OUT FILE...\n");
    return 64;
  }
  try {
    std::vector<kiln::test::Pfs0Input> files;
    for (int i = 2; i < argc; ++i)
      files.push_back({std::filesystem::path(argv[i]).filename().string(), kiln::read_file(argv[i], kiln::input::executable)});
    kiln::write_file_if_changed(argv[1], kiln::test::make_pfs0(files));
  } catch (const kiln::Error& e) {
    std::fprintf(stderr, "make_pfs0: %s\n", e.what());
    return 1;
  }
  return 0;
}
