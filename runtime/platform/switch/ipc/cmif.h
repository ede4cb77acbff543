#pragma once
// CMIF, the command layer inside HIPC's raw data (switchbrew "IPC_Marshalling"): "SFCI"/"SFCO" headers, the
// domain headers, the control commands, and the results the server side of CMIF returns.
#include <cstdint>

#include "runtime/platform/switch/kernel/result.h"

namespace kiln::hos::ipc {

constexpr uint32_t request_magic = 0x49434653;  ///< "SFCI"
constexpr uint32_t response_magic = 0x4f434653; ///< "SFCO"

struct CmifInHeader {
  uint32_t magic;
  uint32_t version;
  uint32_t command_id;
  uint32_t token;
};
struct CmifOutHeader {
  uint32_t magic;
  uint32_t version;
  uint32_t result;
  uint32_t token;
};
/// Before the CMIF header in a request to a domain session.
struct DomainInHeader {
  uint8_t type; ///< 1 send message, 2 close the object
  uint8_t object_count;
  uint16_t data_size;
  uint32_t object_id;
  uint32_t padding;
  uint32_t token;
};
struct DomainOutHeader {
  uint32_t object_count;
  uint32_t padding[3];
};
static_assert(sizeof(CmifInHeader) == 16 && sizeof(DomainInHeader) == 16 && sizeof(DomainOutHeader) == 16);

namespace domain_request {
constexpr uint8_t send_message = 1, close = 2;
}
/// Control (message type 5) command ids.
namespace control {
constexpr uint32_t convert_to_domain = 0, copy_from_domain = 1, clone_object = 2, query_pointer_buffer_size = 3, clone_object_ex = 4;
}

/// Module 10 (CMIF) results.
namespace cmif_result {
constexpr uint32_t module = 10;
constexpr Result invalid_header = make_result(module, 202);     ///< no "SFCI", or data shorter than a header
constexpr Result invalid_in_header = make_result(module, 211);
constexpr Result unknown_command_id = make_result(module, 221); ///< 2010-0221
constexpr Result invalid_domain_object = make_result(module, 261);
constexpr Result target_not_domain = make_result(module, 302);
} // namespace cmif_result

} // namespace kiln::hos::ipc
