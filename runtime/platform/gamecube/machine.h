#pragma once
// The GameCube as recompiled Gekko code sees it (docs/gamecube.md): 24 MiB of MEM1 at physical 0 and in the two
// mirrors the default BATs give (0x80000000 cached, 0xC0000000 uncached), the 16 KiB locked cache at 0xE0000000
// once HID2[LCE] is set, the hardware registers at physical 0x0C000000 (0xCC000000 uncached), the 16 MiB of ARAM
// behind the DSP interface, the gather pipe at WPAR, and the exceptions and interrupts delivered to the guest's own
// handlers at their vectors. Memory is big-endian; the Bus swaps bytes. Anything outside these is reported with the
// guest PC and the address (kiln::Error), never skipped.
#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "runtime/base/bits.h"
#include "runtime/core/ppc/cpu.h"
#include "runtime/gpu/gx/command_processor.h"
#include "runtime/gpu/gx/pixel_engine.h"
#include "runtime/platform/gamecube/hardware.h"

namespace kiln::gamecube {

namespace memory_map {
constexpr uint32_t mem1_size = 24u << 20;
constexpr uint32_t cached_base = 0x80000000u, uncached_base = 0xC0000000u;
constexpr uint32_t bat_block = 0x10000000u; ///< the default BATs map 256 MiB at each mirror
constexpr uint32_t locked_cache_base = 0xE0000000u, locked_cache_size = 16u << 10;
constexpr uint32_t hardware_base = 0x0C000000u, hardware_size = 0x10000u;
constexpr uint32_t aram_size = 16u << 20;
/// The physical address behind `address` (MEM1 mirrors and the hardware range through the default BATs;
/// physical addresses as themselves: exception handlers run untranslated).
constexpr uint32_t physical(uint32_t address) {
  if (address >= cached_base && address - cached_base < bat_block) return address - cached_base;
  if (address >= uncached_base && address - uncached_base < bat_block) return address - uncached_base;
  return address;
}
} // namespace memory_map

/// The guest clocks as Dolphin OS reads them from low memory (docs/gamecube.md): the bus at 162 MHz, the core at
/// 486 MHz, the time base and decrementer at a quarter of the bus clock.
namespace clocks {
constexpr uint32_t bus_hz = 162000000u, core_hz = 486000000u, timebase_hz = bus_hz / 4;
/// Guest time advances at each hardware-register access and each time-base or decrementer read by this many
/// time-base ticks (kiln runs no cycle count: a title's waits poll one of those).
constexpr uint64_t ticks_per_hook = 64;
} // namespace clocks

struct Machine {
  Machine();

  ppc::Cpu cpu;
  std::vector<uint8_t> mem1;
  std::vector<uint8_t> aram;
  std::array<uint8_t, memory_map::locked_cache_size> locked_cache{};
  Hardware hw;
  /// The GX command processor reading the gather pipe's bursts (hw.gx_stream) as they complete, and the PE its
  /// draw-done and token events drive (PE registers, PI causes 9 and 10). Draws are counted, not drawn here.
  std::unique_ptr<gx::CommandProcessor> gx;
  gx::PixelEngine pe;
  size_t gx_consumed = 0; ///< bytes of hw.gx_stream the command processor has run
  uint64_t gx_draws = 0;
  size_t gx_diagnostics_reported = 0; ///< the command processor's diagnostics already written to kiln's log
  bool decrementer_pending = false;
  unsigned handler_depth = 0; ///< nested exception handlers running (bounded)
  std::string disc_image;     ///< path of the disc image DI reads, empty when booted from a DOL
  std::FILE* uart = stdout;   ///< where the EXI UART's bytes go
};

/// A title that reset the console (PI's reset register) ends the run: kiln has no IPL to reboot into.
struct ConsoleReset {
  uint32_t code;
};

/// Hardware-register accesses (hardware.cpp), at physical `address`; `size` 1, 2 or 4 bytes.
uint32_t hardware_read(Machine& m, uint32_t address, unsigned size);
void hardware_write(Machine& m, uint32_t address, unsigned size, uint32_t value);

/// Advances guest time by `ticks` time-base ticks: the time base, the decrementer (its exception when bit 31 goes
/// from 0 to 1), VI's beam and retrace interrupts, AI's sample counter.
void advance_time(Machine& m, uint64_t ticks);
/// PI's interrupt causes that its mask lets through (an external interrupt while MSR[EE] is set).
uint32_t pending_external(const Machine& m);
/// Takes the highest-priority pending interrupt (external from PI's cause & mask, then the decrementer) when
/// MSR[EE] is set: SRR0 = `resume_at`, the guest's handler at its vector runs until its rfi returns there.
void check_interrupts(Machine& m, uint32_t resume_at);
/// Runs the guest's handler of the exception just raised (c.next_pc its vector) until it returns to `resume_at`
/// with rfi; a handler that returns elsewhere (a context switch) is reported.
void run_handler(Machine& m, uint32_t resume_at);
/// The gather pipe received `size` bytes (big-endian `value`): 32-byte bursts go to the GX FIFO (recorded in
/// Hardware::gx_stream, written at PI's FIFO write pointer).
void gather_pipe_write(Machine& m, unsigned size, uint64_t value);
/// HID2[LCE] locked-cache DMA from DMA_U/DMA_L (750CL UM "DMA_U", "DMA_L"), done at once when DMA_L[T] is set.
void locked_cache_dma(Machine& m);

[[noreturn]] void unmapped(const Machine& m, uint32_t address, unsigned size, bool write);

struct Bus {
  Machine& m;

  template <class T>
  T read(uint32_t a) const {
    const uint32_t p = memory_map::physical(a);
    if (p < memory_map::mem1_size && memory_map::mem1_size - p >= sizeof(T)) return load<T>(m.mem1.data() + p, Endian::big);
    return slow_read<T>(a, p);
  }
  template <class T>
  void write(uint32_t a, T v) const {
    const uint32_t p = memory_map::physical(a);
    if (p < memory_map::mem1_size && memory_map::mem1_size - p >= sizeof(T)) return store<T>(m.mem1.data() + p, v, Endian::big);
    slow_write<T>(a, p, v);
  }
  uint8_t read8(uint32_t a) const { return read<uint8_t>(a); }
  uint16_t read16(uint32_t a) const { return read<uint16_t>(a); }
  uint32_t read32(uint32_t a) const { return read<uint32_t>(a); }
  uint64_t read64(uint32_t a) const { return read<uint64_t>(a); }
  void write8(uint32_t a, uint8_t v) const { write(a, v); }
  void write16(uint32_t a, uint16_t v) const { write(a, v); }
  void write32(uint32_t a, uint32_t v) const { write(a, v); }
  void write64(uint32_t a, uint64_t v) const { write(a, v); }

  // The semantics' hooks (runtime/core/ppc/cpu.h).
  void spr_read(ppc::Cpu& c, unsigned spr) const;
  void spr_written(ppc::Cpu& c, unsigned spr, uint32_t old) const;
  void msr_written(ppc::Cpu& c) const;

private:
  bool in_locked_cache(uint32_t a, unsigned size) const {
    return (m.cpu.spr[ppc::spr::hid2] & ppc::hid2::lce) && a >= memory_map::locked_cache_base &&
           a - memory_map::locked_cache_base <= memory_map::locked_cache_size - size;
  }
  bool is_gather_pipe(uint32_t p) const {
    return (m.cpu.spr[ppc::spr::hid2] & ppc::hid2::wpe) && (p & ~7u) == (m.cpu.spr[ppc::spr::wpar] & ~0x1Fu);
  }
  template <class T>
  T slow_read(uint32_t a, uint32_t p) const {
    if (in_locked_cache(a, sizeof(T))) return load<T>(m.locked_cache.data() + (a - memory_map::locked_cache_base), Endian::big);
    if (p >= memory_map::hardware_base && p - memory_map::hardware_base < memory_map::hardware_size) {
      if constexpr (sizeof(T) == 8) return T{hardware_read(m, p, 4)} << 32 | hardware_read(m, p + 4, 4);
      else return static_cast<T>(hardware_read(m, p, sizeof(T)));
    }
    unmapped(m, a, sizeof(T), false);
  }
  template <class T>
  void slow_write(uint32_t a, uint32_t p, T v) const {
    if (in_locked_cache(a, sizeof(T))) return store<T>(m.locked_cache.data() + (a - memory_map::locked_cache_base), v, Endian::big);
    if (is_gather_pipe(p)) return gather_pipe_write(m, sizeof(T), v);
    if (p >= memory_map::hardware_base && p - memory_map::hardware_base < memory_map::hardware_size) {
      if constexpr (sizeof(T) == 8) {
        hardware_write(m, p, 4, static_cast<uint32_t>(v >> 32));
        hardware_write(m, p + 4, 4, static_cast<uint32_t>(v));
      } else {
        hardware_write(m, p, sizeof(T), v);
      }
      return;
    }
    unmapped(m, a, sizeof(T), true);
  }
};

/// The low-memory globals the apploader leaves for Dolphin OS (docs/gamecube.md lists each with its source):
/// `disc_header` (the disc's first 0x20 bytes, zero for a DOL), the arena between `arena_lo` and `arena_hi`, the
/// FST at `fst_address` (its maximum size `fst_max_size`; 0 without a disc).
struct BootInfo {
  std::array<uint8_t, 0x20> disc_header{};
  uint32_t arena_lo = 0, arena_hi = 0, fst_address = 0, fst_max_size = 0;
};
namespace low_memory {
constexpr uint32_t boot_magic_at = 0x20, boot_version_at = 0x24, memory_size_at = 0x28, console_type_at = 0x2C;
constexpr uint32_t arena_lo_at = 0x30, arena_hi_at = 0x34, fst_address_at = 0x38, fst_max_size_at = 0x3C;
constexpr uint32_t tv_mode_at = 0xCC, aram_size_at = 0xD0, simulated_memory_size_at = 0xF0;
constexpr uint32_t bus_clock_at = 0xF8, core_clock_at = 0xFC;
constexpr uint32_t boot_magic = 0x0D15EA5Eu, boot_version = 1;
constexpr uint32_t console_retail = 0x00000003u; ///< a production board (YAGCD: 1-3 retail, 0x1000000x dev kits)
constexpr uint32_t tv_ntsc = 0;
} // namespace low_memory
void write_boot_info(Machine& m, const BootInfo& info);

} // namespace kiln::gamecube
