// Build step of the MME tests: writes random macros and their compiled C++ (the ahead-of-time path kiln uses
// for a title's macros) into one source file that the test links.
#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "runtime/base/file_writer.h"
#include "runtime/gpu/maxwell/mme/codegen.h"
#include "tests/gpu/maxwell/random_macros.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: generate_test_macros COUNT OUTPUT.cpp\n");
    return 2;
  }
  const int count = std::stoi(argv[1]);
  kiln::maxwell::test::RandomMacros random(20261129);
  std::vector<std::vector<uint32_t>> macros;
  for (int i = 0; i < count; ++i) macros.push_back(random.next());
  std::string out = kiln::maxwell::mme::compile_macro_file(macros);
  out += "\n#include <cstdint>\n#include <vector>\nnamespace kiln::maxwell::test {\n"
         "extern const std::vector<std::vector<uint32_t>> generated_test_macros;\n"
         "const std::vector<std::vector<uint32_t>> generated_test_macros = {\n";
  for (const auto& macro : macros) {
    out += "  {";
    for (uint32_t word : macro) out += fmt::format("0x{:08x}u, ", word);
    out += "},\n";
  }
  out += "};\n} // namespace kiln::maxwell::test\n";
  kiln::write_file_if_changed(argv[2], out);
  return 0;
}
