#pragma once
// The file-system results fsp-srv replies (module 2; descriptions from switchbrew's "Error codes" page, module
// FS, and the result list of its "Filesystem services" page).
#include "runtime/platform/switch/kernel/result.h"

namespace kiln::hos::fs_result {
constexpr uint32_t module = 2;
constexpr Result path_not_found = make_result(module, 1);          ///< 0x202
constexpr Result path_already_exists = make_result(module, 2);     ///< 0x402
constexpr Result target_locked = make_result(module, 7);           ///< 0xe02: a file is open
constexpr Result directory_not_empty = make_result(module, 8);     ///< 0x1002
constexpr Result usable_space_not_enough = make_result(module, 30);
constexpr Result target_not_found = make_result(module, 1002);     ///< 0x7d402: no such save data or RomFS
constexpr Result out_of_range = make_result(module, 3005);         ///< a storage read past its end
constexpr Result too_long_path = make_result(module, 6003);
constexpr Result invalid_character = make_result(module, 6004);
constexpr Result invalid_path_format = make_result(module, 6005);  ///< not starting with '/'
constexpr Result directory_unobtainable = make_result(module, 6006); ///< '..' above the root (or a link out of it)
constexpr Result invalid_offset = make_result(module, 6061);
constexpr Result invalid_size = make_result(module, 6062);
constexpr Result invalid_open_mode = make_result(module, 6072);
constexpr Result file_extension_without_append = make_result(module, 6201);
constexpr Result read_not_permitted = make_result(module, 6202);
constexpr Result write_not_permitted = make_result(module, 6203);
constexpr Result unsupported_operation = make_result(module, 6300); ///< writing a read-only file system (RomFS)
constexpr Result permission_denied = make_result(module, 6400);      ///< the host refused (EACCES, EROFS)
} // namespace kiln::hos::fs_result
