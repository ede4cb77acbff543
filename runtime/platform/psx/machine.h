#pragma once
// The PlayStation as a recompiled (or interpreted) program sees it: the R3000A state, 2 MiB of RAM with its
// mirrors, the scratchpad, the GTE, the GPU and the hardware registers (interrupt controller, DMA, root counters,
// joypad/memory-card port, SPU), and the BIOS calls answered in C++ (bios_hle.cpp).
//
// Time is not modelled by cycles: the CPU is infinitely fast, and a frame ends (VBLANK) when the program waits
// for one: it reads I_STAT while VBLANK is not pending, or waits/tests a VBLANK event through the BIOS. Both
// the recompiled program and the interpreter see the same memory accesses, so both see the same frames.
// Each frame is one NTSC frame of machine time for the SPU (about 737 samples at 44.1 kHz).
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include "runtime/core/mips/cpu.h"
#include "runtime/gpu/psx/gpu.h"
#include "runtime/platform/psx/bios_hle.h"
#include "runtime/platform/psx/gte/gte.h"
#include "runtime/platform/psx/io.h"
#include "runtime/platform/psx/memory_map.h"
#include "runtime/platform/psx/pad/sio0.h"
#include "runtime/platform/psx/spu/spu.h"

namespace kiln::psx {

/// The program ended: it returned from its entry point, called exit(), or reached the frame limit.
struct ProgramStop {
  std::string reason;
  uint32_t exit_code = 0;
};

/// What the PS-X EXE header put where (see recompiler/loaders/psxexe): enough to start the program.
struct ProgramImage {
  uint32_t entry = 0, gp = 0, text_address = 0;
  uint32_t bss_address = 0, bss_size = 0;
  uint32_t initial_sp = 0; ///< 0: the BIOS default stack
  std::span<const uint8_t> text;
};

/// Returning from the entry point lands here (ra at start): a KSEG1 BIOS address no BIOS code uses.
constexpr uint32_t exit_address = 0xBFC0FF00u;
/// A callback the BIOS runs (an event handler) returns here ($ra while it runs).
constexpr uint32_t callback_return_address = 0xBFC0FF10u;
/// The default stack the BIOS gives an EXE that names none (psx-spx: 801FFF00h).
constexpr uint32_t default_stack = 0x801FFF00u;

/// NTSC timing (psx-spx "GPU Timings"): 263 lines of 3413 video clocks per frame at 53.693175 MHz, and the
/// 33.8688 MHz CPU clock (768 cycles per 44.1 kHz sample): 59.826 frames per second.
constexpr uint64_t cpu_clock_hz = 33868800, video_clock_hz = 53693175, video_clocks_per_frame = 263 * 3413;

/// Interrupt controller lines (I_STAT/I_MASK bits).
namespace irq {
constexpr uint32_t vblank = 1u << 0, gpu = 1u << 1, cdrom = 1u << 2, dma = 1u << 3, timer0 = 1u << 4, timer1 = 1u << 5,
                   timer2 = 1u << 6, controller = 1u << 7, sio = 1u << 8, spu = 1u << 9;
}

class Machine {
public:
  struct Options {
    unsigned frame_limit = 0;                                ///< stop after this many frames (0: never)
    std::function<void(unsigned frame, Machine&)> on_frame;  ///< called at each VBLANK, before the limit check
    std::function<void(std::string_view)> on_trace;          ///< one line per BIOS call (differential checks)
    std::function<void(std::string_view)> tty;               ///< printed text (default: stdout)
  };

  explicit Machine(Options options);

  r3000::Cpu cpu;
  Gte gte;
  Gpu gpu;
  IoRegisters io;
  Spu spu;
  Sio0 sio0;
  Bios bios;

  /// Copies the text into RAM, clears the BSS, sets PC, $gp, $sp/$fp and $ra = exit_address.
  void load(const ProgramImage& image);

  // ---- memory (RAM and scratchpad inline; everything else through the I/O map) ----
  uint8_t read8(uint32_t a) {
    if (uint8_t* p = direct(a)) return *p;
    return static_cast<uint8_t>(io.read(*this, a, 1));
  }
  uint16_t read16(uint32_t a) {
    if (uint8_t* p = direct(a)) { uint16_t v; std::memcpy(&v, p, 2); return v; }
    return static_cast<uint16_t>(io.read(*this, a, 2));
  }
  uint32_t read32(uint32_t a) {
    if (uint8_t* p = direct(a)) { uint32_t v; std::memcpy(&v, p, 4); return v; }
    return io.read(*this, a, 4);
  }
  void write8(uint32_t a, uint8_t v) {
    if (uint8_t* p = direct(a)) *p = v;
    else io.write(*this, a, v, 1);
  }
  void write16(uint32_t a, uint16_t v) {
    if (uint8_t* p = direct(a)) std::memcpy(p, &v, 2);
    else io.write(*this, a, v, 2);
  }
  void write32(uint32_t a, uint32_t v) {
    if (uint8_t* p = direct(a)) std::memcpy(p, &v, 4);
    else io.write(*this, a, v, 4);
  }

  /// Host pointer to RAM or scratchpad behind `a` (mirrors folded), or nullptr for anything else.
  uint8_t* direct(uint32_t a) {
    const uint32_t physical = physical_address(a);
    if (physical < ram_mirror_span) return &ram_[physical & (ram_size - 1)];
    if (auto s = scratchpad_offset(a)) return &scratchpad_[*s];
    return nullptr;
  }
  std::span<uint8_t> ram() { return {ram_.data(), ram_.size()}; }

  // ---- control leaving compiled code ----
  /// Handles a jump to a BIOS entry (A0h/B0h/C0h: the call, then PC = $ra) or to exit_address (throws
  /// ProgramStop). Returns false for any other address.
  bool enter_hle(uint32_t address);
  /// After an exception was raised (cpu.exception_taken): a SYSCALL is answered as the BIOS does (Enter/Exit
  /// CriticalSection) and PC returns after it; anything else stops with a kiln::Error naming PC and the cause.
  void handle_exception(uint32_t pc);

  // ---- callbacks ----
  /// Runs guest code at `address` as the BIOS runs an event or interrupt handler: all CPU state saved, $a0 =
  /// `argument`, $ra = callback_return_address, $sp below the interrupted code's frame, and everything restored
  /// afterwards (also when the callback leaves by a C++ exception). Returns the callback's $v0.
  uint32_t call_callback(uint32_t address, uint32_t argument = 0);
  /// Set by whoever executes guest code (recompiled functions or the interpreter): run from cpu.pc until
  /// cpu.pc == callback_return_address.
  std::function<void(Machine&)> run_callback;
  bool in_callback() const { return callback_depth_ > 0; }

  // ---- time ----
  /// A frame ends: its machine time passes (the SPU produces its samples), VBLANK is raised; if the CPU takes the interrupt (Status IEc and IM2, and I_STAT & I_MASK) the
  /// SysEnqIntRP chains run; VBLANK events are delivered (handlers run), the frame is reported, and the frame
  /// limit may stop the program.
  void vblank();
  unsigned frames() const { return frames_; }

  void print(std::string_view text) const;
  void trace(std::string_view line) const { if (options_.on_trace) options_.on_trace(line); }

private:
  Options options_;
  std::unique_ptr<std::array<uint8_t, ram_size>> ram_storage_ = std::make_unique<std::array<uint8_t, ram_size>>();
  std::array<uint8_t, ram_size>& ram_ = *ram_storage_;
  std::array<uint8_t, scratchpad_size> scratchpad_{};
  unsigned frames_ = 0;
  uint64_t frame_time_remainder_ = 0; ///< fractions of a CPU cycle, in 1/video_clock_hz units
  unsigned callback_depth_ = 0;
};

/// The Bus the semantics in runtime/core/mips/ops.h run on: the PS1's R3000A variant over a Machine.
struct Bus {
  static constexpr r3000::Variant variant = r3000::Variant::r3000;
  Machine& m;
  uint8_t read8(uint32_t a) { return m.read8(a); }
  uint16_t read16(uint32_t a) { return m.read16(a); }
  uint32_t read32(uint32_t a) { return m.read32(a); }
  void write8(uint32_t a, uint8_t v) { m.write8(a, v); }
  void write16(uint32_t a, uint16_t v) { m.write16(a, v); }
  void write32(uint32_t a, uint32_t v) { m.write32(a, v); }
  Gte& gte() { return m.gte; }
};

} // namespace kiln::psx
