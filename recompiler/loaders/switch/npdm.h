#pragma once
// main.npdm, the program description of a Switch title (switchbrew "NPDM"): the META header (main thread
// priority, core and stack size, name), then ACI0 (the program id, its file-system access header and service
// access control list) and ACID (the signed upper bounds). kiln reads what the process needs: the title id,
// the main thread's priority and stack size, the FS access flags and the services the title may ask sm for.
// Every offset and size is checked: malformed input is a kiln::Error naming the file and offset.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kiln::nx {

struct ServiceAccess {
  std::string name; ///< up to 8 characters; a trailing '*' matches every name with that prefix (sm checks it)
  bool server = false; ///< the title may register (host) the service rather than use it
};

struct Npdm {
  std::string name;                ///< META 0x20, up to 16 bytes
  std::string product_code;        ///< META 0x30
  uint8_t flags = 0;               ///< META 0x0c: bit 0 64-bit instructions, bits 1-3 address space type
  uint8_t main_thread_priority = 0;      ///< META 0x0e (0 highest .. 63)
  uint8_t main_thread_core = 0;          ///< META 0x0f
  uint32_t system_resource_size = 0;     ///< META 0x14
  uint32_t version = 0;                  ///< META 0x18
  uint32_t main_thread_stack_size = 0;   ///< META 0x1c
  uint64_t program_id = 0;               ///< ACI0 0x10: the title id
  uint64_t fs_access_flags = 0;          ///< ACI0's FS access header, 0x04
  uint64_t acid_fs_access_flags = 0;     ///< ACID's FS access control, 0x04: the signed upper bound
  std::vector<ServiceAccess> services;   ///< ACI0's service access control, in file order
  uint64_t acid_program_id_min = 0, acid_program_id_max = 0; ///< ACID 0x210, 0x218
  /// What fs grants the title: ACI0's bits within ACID's (switchbrew "Filesystem services", RegisterProgram).
  uint64_t fs_permissions() const { return fs_access_flags & acid_fs_access_flags; }
};

/// Field offsets (switchbrew "NPDM"), shared with the test generator.
namespace npdm_layout {
constexpr uint32_t meta_magic = 0x4154454d, aci0_magic = 0x30494341, acid_magic = 0x44494341; // "META" "ACI0" "ACID"
constexpr uint64_t meta_size = 0x80, aci0_header_size = 0x40, acid_header_size = 0x240, fs_access_header_size = 0x1c;
/// ACID's FsAccessControl: version, owner id counts, the permission bits at 4, then the owner id ranges.
constexpr uint64_t fs_access_control_size = 0x2c;
} // namespace npdm_layout

Npdm read_npdm(std::span<const uint8_t> bytes, const std::string& name);

} // namespace kiln::nx
