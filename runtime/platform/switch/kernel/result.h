#pragma once
// Horizon result codes: module in bits 0-8, description in bits 9-21 (switchbrew "Error codes"); 0 is success.
#include <cstdint>

namespace kiln::hos {

using Result = uint32_t;

constexpr Result make_result(uint32_t module, uint32_t description) { return module | (description << 9); }
constexpr uint32_t result_module(Result r) { return r & 0x1ff; }
constexpr uint32_t result_description(Result r) { return (r >> 9) & 0x1fff; }

constexpr Result success = 0;

/// Module 1, the kernel (descriptions as switchbrew and libnx's KernelError list them).
namespace kernel_result {
constexpr uint32_t module = 1;
constexpr Result out_of_sessions = make_result(module, 7);
constexpr Result not_implemented = make_result(module, 33);
constexpr Result termination_requested = make_result(module, 59);
constexpr Result invalid_size = make_result(module, 101);
constexpr Result invalid_address = make_result(module, 102);
constexpr Result out_of_resource = make_result(module, 103);
constexpr Result out_of_memory = make_result(module, 104);
constexpr Result out_of_handles = make_result(module, 105);
constexpr Result invalid_current_memory = make_result(module, 106);
constexpr Result invalid_new_memory_permission = make_result(module, 108);
constexpr Result invalid_memory_region = make_result(module, 110);
constexpr Result invalid_priority = make_result(module, 112);
constexpr Result invalid_core_id = make_result(module, 113);
constexpr Result invalid_handle = make_result(module, 114);
constexpr Result invalid_pointer = make_result(module, 115);
constexpr Result invalid_combination = make_result(module, 116);
constexpr Result timed_out = make_result(module, 117);
constexpr Result cancelled = make_result(module, 118);
constexpr Result out_of_range = make_result(module, 119);
constexpr Result invalid_enum_value = make_result(module, 120);
constexpr Result not_found = make_result(module, 121);
constexpr Result busy = make_result(module, 122);
constexpr Result session_closed = make_result(module, 123);
constexpr Result invalid_state = make_result(module, 125);
constexpr Result limit_reached = make_result(module, 132);
constexpr Result message_too_large = make_result(module, 260);
} // namespace kernel_result

} // namespace kiln::hos
