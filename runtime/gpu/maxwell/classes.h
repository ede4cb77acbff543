#pragma once
// The engine classes kiln implements and their method names, from NVIDIA open-gpu-doc class headers
// (classes/*.inc are generated from the headers by classes/generate_method_tables.py).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kiln::maxwell {

enum class ClassId : uint32_t {
  host = 0xb06f,             // channel (host) methods, clb06f.h; syncpoint methods from the Tegra host classes
  threed = 0xb197,           // MAXWELL_B 3D, clb197.h
  compute = 0xb1c0,          // MAXWELL_COMPUTE_B, clb1c0.h
  copy = 0xb0b5,             // MAXWELL_DMA_COPY_A, clb0b5.h
  inline_to_memory = 0xa140, // KEPLER_INLINE_TO_MEMORY_B, cla140.h
  twod = 0x902d,             // FERMI_TWOD_A, cl902d.h
};

/// "3D (B197)", or "class 0x1234" for one kiln does not know.
std::string class_name(uint32_t class_id);
bool is_known_class(uint32_t class_id);

/// "SET_VIEWPORT_SCALE_X(3)" for a method byte offset of the class, or "method 0x1234" when the header names none.
std::string method_name(uint32_t class_id, uint32_t method_offset);

/// Byte offset of the method `name` (element `index` of a method array), when the class header has it.
std::optional<uint32_t> find_method(uint32_t class_id, std::string_view name, uint32_t index = 0);

/// Host (channel) method byte offsets (clb06f.h; SYNCPOINTA/B from cla26f.h/clc06f.h, Tegra only).
namespace host_method {
inline constexpr uint32_t set_object = 0x0000;
inline constexpr uint32_t illegal = 0x0004;
inline constexpr uint32_t nop = 0x0008;
inline constexpr uint32_t semaphore_a = 0x0010;
inline constexpr uint32_t semaphore_b = 0x0014;
inline constexpr uint32_t semaphore_c = 0x0018;
inline constexpr uint32_t semaphore_d = 0x001c;
inline constexpr uint32_t non_stall_interrupt = 0x0020;
inline constexpr uint32_t fb_flush = 0x0024;
inline constexpr uint32_t mem_op_c = 0x0030;
inline constexpr uint32_t mem_op_d = 0x0034;
inline constexpr uint32_t set_reference = 0x0050;
inline constexpr uint32_t syncpoint_a = 0x0070;
inline constexpr uint32_t syncpoint_b = 0x0074;
inline constexpr uint32_t wfi = 0x0078;
inline constexpr uint32_t crc_check = 0x007c;
inline constexpr uint32_t yield = 0x0080;
/// Methods below this offset go to the channel itself; from it on, to the engine bound to the subchannel.
inline constexpr uint32_t first_engine_method = 0x0100;
} // namespace host_method

} // namespace kiln::maxwell
