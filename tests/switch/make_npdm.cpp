// make_npdm OUT [--program-id HEX] [--name NAME] [--priority N] [--stack-size HEX] [--service NAME]... [--fs-access HEX] [--system-resource-size HEX]: a main.npdm
// for a test ExeFS (npdm_writer.h).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "tests/switch/npdm_writer.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: make_npdm OUT [--program-id HEX] [--name NAME] [--priority N] [--stack-size HEX] [--service NAME]... [--fs-access HEX] [--system-resource-size HEX]\n");
    return 2;
  }
  kiln::nx::testing::NpdmFields fields;
  for (int i = 2; i < argc; ++i) {
    if (i + 1 >= argc) {
      std::fprintf(stderr, "make_npdm: %s needs a value\n", argv[i]);
      return 2;
    }
    const std::string option = argv[i], value = argv[++i];
    if (option == "--program-id") fields.program_id = std::strtoull(value.c_str(), nullptr, 16);
    else if (option == "--name") fields.name = value;
    else if (option == "--priority") fields.main_thread_priority = static_cast<uint8_t>(std::strtoul(value.c_str(), nullptr, 10));
    else if (option == "--stack-size") fields.main_thread_stack_size = static_cast<uint32_t>(std::strtoul(value.c_str(), nullptr, 16));
    else if (option == "--service") fields.services.push_back(value);
    else if (option == "--fs-access") fields.fs_access_flags = std::strtoull(value.c_str(), nullptr, 16);
    else if (option == "--system-resource-size") fields.system_resource_size = static_cast<uint32_t>(std::strtoul(value.c_str(), nullptr, 16));
    else {
      std::fprintf(stderr, "make_npdm: unknown option %s\n", option.c_str());
      return 2;
    }
  }
  try {
    kiln::write_file_if_changed(argv[1], kiln::nx::testing::write_npdm(fields));
  } catch (const kiln::Error& e) {
    std::fprintf(stderr, "make_npdm: %s\n", e.what());
    return 1;
  }
  return 0;
}
