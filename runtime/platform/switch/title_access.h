#pragma once
// What an ExeFS title's main.npdm grants beyond rt::SwitchTitle: the FS permissions fsp-srv checks and the
// system resource size MapPhysicalMemory needs. `kiln recompile` writes them into the generated project's
// switch_title_access.cpp (guest_runtime.cmake compiles it into the program); a homebrew NRO, a lone NSO and
// kiln's own tests have none.
#include <cstdint>

namespace kiln::hos {

struct TitleAccess {
  uint64_t fs_permissions;       ///< ACI0's FS access flags & ACID's (switchbrew "NPDM" / "Filesystem services")
  uint32_t system_resource_size; ///< META 0x14
};

/// Defined by the generated switch_title_access.cpp when there is one.
extern const TitleAccess kiln_switch_title_access __attribute__((weak));

/// The program's title access, or nullptr.
inline const TitleAccess* title_access() { return &kiln_switch_title_access; }

/// FS access control bits fsp-srv checks (switchbrew "NPDM", FS access flags).
namespace fs_permission {
constexpr uint64_t create_save_data = uint64_t{1} << 13, sd_card = uint64_t{1} << 21, create_own_save_data = uint64_t{1} << 35,
                   full_permission = uint64_t{1} << 63;
} // namespace fs_permission

} // namespace kiln::hos
