#pragma once
// Test tool: writes a main.npdm (switchbrew "NPDM": META header, ACI0 with its FS access header and service
// access control, ACID with the program id range) from the fields a test names; signatures and keys are zero.
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::nx::testing {

struct NpdmFields {
  uint64_t program_id = 0x0100000000001000;
  std::string name = "kiln-test";
  uint8_t main_thread_priority = 44;
  uint8_t main_thread_core = 0;
  uint32_t main_thread_stack_size = 0x40000;
  uint32_t system_resource_size = 0;
  uint64_t fs_access_flags = 0;              ///< ACI0's FS access header
  uint64_t acid_fs_access_flags = ~uint64_t{0}; ///< ACID's FS access control (the bound: everything by default)
  std::vector<std::string> services;        ///< client entries
  std::vector<std::string> server_services; ///< entries with bit 7 (the title may register them)
};

/// Layout: META at 0 (0x80 bytes), ACI0 at 0x80, ACID after it (0x10-aligned; its FS access control right after
/// its 0x240-byte header).
std::vector<uint8_t> write_npdm(const NpdmFields& fields);

} // namespace kiln::nx::testing
