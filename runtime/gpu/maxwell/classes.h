#pragma once
// The engine classes kiln implements and their method names, from NVIDIA open-gpu-doc class headers
// (classes/*.inc are generated from the headers by classes/generate_method_tables.py).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/gpu/maxwell/classes/methods_b06f.h"

namespace kiln::maxwell {

enum class ClassId : uint32_t {
  host = 0xb06f,             // channel (host) methods, clb06f.h; syncpoint methods from the Tegra host classes
  threed = 0xb197,           // MAXWELL_B 3D, clb197.h
  compute = 0xb1c0,          // MAXWELL_COMPUTE_B, clb1c0.h: QMD 01_07, SM5x programs
  compute_ampere = 0xc7c0,   // AMPERE_COMPUTE_B, clc7c0.h: QMD 03_00, SM86 programs
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

/// Host (channel) method byte offsets under the names the channel uses: clb06f.h through the generated
/// classes/methods_b06f.h (SYNCPOINTA/B from cla26f.h/clc06f.h, Tegra only).
namespace host_method {
inline constexpr uint32_t set_object = class_b06f::set_object;
inline constexpr uint32_t illegal = class_b06f::illegal;
inline constexpr uint32_t nop = class_b06f::nop;
inline constexpr uint32_t semaphore_a = class_b06f::semaphorea;
inline constexpr uint32_t semaphore_b = class_b06f::semaphoreb;
inline constexpr uint32_t semaphore_c = class_b06f::semaphorec;
inline constexpr uint32_t semaphore_d = class_b06f::semaphored;
inline constexpr uint32_t non_stall_interrupt = class_b06f::non_stall_interrupt;
inline constexpr uint32_t fb_flush = class_b06f::fb_flush;
inline constexpr uint32_t mem_op_c = class_b06f::mem_op_c;
inline constexpr uint32_t mem_op_d = class_b06f::mem_op_d;
inline constexpr uint32_t set_reference = class_b06f::set_reference;
inline constexpr uint32_t syncpoint_a = class_b06f::syncpointa;
inline constexpr uint32_t syncpoint_b = class_b06f::syncpointb;
inline constexpr uint32_t wfi = class_b06f::wfi;
inline constexpr uint32_t crc_check = class_b06f::crc_check;
inline constexpr uint32_t yield = class_b06f::yield;
/// Methods below this offset go to the channel itself; from it on, to the engine bound to the subchannel.
inline constexpr uint32_t first_engine_method = 0x0100;
} // namespace host_method

} // namespace kiln::maxwell
