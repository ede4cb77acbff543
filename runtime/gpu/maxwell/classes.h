#pragma once
// The engine classes kiln implements and their method names, from NVIDIA open-gpu-doc class headers
// (classes/*.inc are generated from the headers by classes/generate_method_tables.py).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/gpu/maxwell/classes/methods_b06f.h"
#include "runtime/gpu/maxwell/classes/methods_c56f.h"

namespace kiln::maxwell {

enum class ClassId : uint32_t {
  host = 0xb06f,             // MAXWELL_CHANNEL_GPFIFO_A channel (host) methods, clb06f.h; syncpoints from the Tegra host classes
  host_ampere = 0xc56f,      // AMPERE_CHANNEL_GPFIFO_A, clc56f.h: SEM_EXECUTE, MEM_OP_A..D; the same Tegra syncpoints
  threed = 0xb197,           // MAXWELL_B 3D, clb197.h: SM5x programs after a 0x50-byte SPH
  threed_ampere = 0xc797,    // AMPERE_B 3D, clc797.h: SM86 programs after the SPH padded to 0x80 bytes
  compute = 0xb1c0,          // MAXWELL_COMPUTE_B, clb1c0.h: QMD 01_07, SM5x programs
  compute_ampere = 0xc7c0,   // AMPERE_COMPUTE_B, clc7c0.h: QMD 03_00, SM86 programs
  copy = 0xb0b5,             // MAXWELL_DMA_COPY_A, clb0b5.h
  copy_ampere = 0xc7b5,      // AMPERE_DMA_COPY_B, clc7b5.h
  inline_to_memory = 0xa140, // KEPLER_INLINE_TO_MEMORY_B, cla140.h (Ampere GPUs keep it)
  twod = 0x902d,             // FERMI_TWOD_A, cl902d.h (Ampere GPUs keep it)
};

/// "3D (B197)", or "class 0x1234" for one kiln does not know.
std::string class_name(uint32_t class_id);
bool is_known_class(uint32_t class_id);
/// Whether the class header of `class_id` defines a method (or an element of a method array) at `method_offset`.
bool is_known_method(uint32_t class_id, uint32_t method_offset);
bool is_host_class(uint32_t class_id);

/// The GPU family a class belongs to: which host class a channel using it has, and how the programs its 3D and
/// compute classes run are laid out (SM5x after a 0x50-byte SPH, or SM86 after the SPH padded to 0x80 bytes).
enum class Family : uint8_t { maxwell, ampere };
/// The family of an engine or host class; 902D and A140 are in both (nullopt), as is a class kiln does not know.
std::optional<Family> family_of(uint32_t class_id);
ClassId host_class_of(Family family);

/// How the programs of a 3D or compute class are laid out and encoded: Maxwell's SM5x (a 0x50-byte SPH before
/// graphics code, 64-bit instructions in groups with control words) or Ampere's SM86 (the SPH padded to 0x80
/// bytes, 128-bit instructions). nullopt for a class that runs no programs.
enum class ProgramIsa : uint8_t { sm5x, sm86 };
std::optional<ProgramIsa> program_isa_of(uint32_t class_id);

/// "SET_VIEWPORT_SCALE_X(3)" for a method byte offset of the class, or "method 0x1234" when the header names none.
std::string method_name(uint32_t class_id, uint32_t method_offset);

/// Byte offset of the method `name` (element `index` of a method array), when the class header has it.
std::optional<uint32_t> find_method(uint32_t class_id, std::string_view name, uint32_t index = 0);

/// Host (channel) method byte offsets under the names the channel uses: clb06f.h through the generated
/// classes/methods_b06f.h (SYNCPOINTA/B from cla26f.h/clc06f.h, Tegra only). The Ampere host class (clc56f.h)
/// has every one of them at the same offset except CRC_CHECK, and adds the methods after this block.
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
// Ampere (C56F) only.
inline constexpr uint32_t mem_op_a = class_c56f::mem_op_a;
inline constexpr uint32_t mem_op_b = class_c56f::mem_op_b;
inline constexpr uint32_t sem_addr_lo = class_c56f::sem_addr_lo;
inline constexpr uint32_t sem_addr_hi = class_c56f::sem_addr_hi;
inline constexpr uint32_t sem_payload_lo = class_c56f::sem_payload_lo;
inline constexpr uint32_t sem_payload_hi = class_c56f::sem_payload_hi;
inline constexpr uint32_t sem_execute = class_c56f::sem_execute;
inline constexpr uint32_t clear_faulted = class_c56f::clear_faulted;
} // namespace host_method

// One implementation serves both host classes: the methods they share mean the same at the same offsets.
static_assert(class_c56f::set_object == class_b06f::set_object && class_c56f::illegal == class_b06f::illegal &&
              class_c56f::nop == class_b06f::nop && class_c56f::semaphorea == class_b06f::semaphorea &&
              class_c56f::semaphoreb == class_b06f::semaphoreb && class_c56f::semaphorec == class_b06f::semaphorec &&
              class_c56f::semaphored == class_b06f::semaphored &&
              class_c56f::non_stall_interrupt == class_b06f::non_stall_interrupt &&
              class_c56f::fb_flush == class_b06f::fb_flush && class_c56f::mem_op_c == class_b06f::mem_op_c &&
              class_c56f::mem_op_d == class_b06f::mem_op_d && class_c56f::set_reference == class_b06f::set_reference &&
              class_c56f::syncpointa == class_b06f::syncpointa && class_c56f::syncpointb == class_b06f::syncpointb &&
              class_c56f::wfi == class_b06f::wfi && class_c56f::yield == class_b06f::yield);

} // namespace kiln::maxwell
