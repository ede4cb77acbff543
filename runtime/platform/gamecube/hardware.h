#pragma once
// The GameCube's hardware registers as state (hardware.cpp gives them their behaviour; docs/gamecube.md lists
// every register, its offset and what kiln does). Physical base 0x0C000000; each block is a big-endian register
// file, so 8-, 16- and 32-bit accesses see the same bytes the hardware's registers hold.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::gamecube {

namespace hw {
constexpr uint32_t cp = 0x0C000000u, pe = 0x0C001000u, vi = 0x0C002000u, pi = 0x0C003000u, mi = 0x0C004000u;
constexpr uint32_t dsp = 0x0C005000u, di = 0x0C006000u, si = 0x0C006400u, exi = 0x0C006800u, ai = 0x0C006C00u;
constexpr uint32_t gather_pipe = 0x0C008000u;
/// PI interrupt cause/mask bits (YAGCD 5.6 "PI": INTSR/INTMR).
namespace pi_irq {
constexpr uint32_t error = 1u << 0, reset_switch = 1u << 1, di = 1u << 2, si = 1u << 3, exi = 1u << 4, ai = 1u << 5,
                   dsp = 1u << 6, mi = 1u << 7, vi = 1u << 8, pe_token = 1u << 9, pe_finish = 1u << 10, cp = 1u << 11,
                   debug = 1u << 12, hsp = 1u << 13;
/// INTSR bit 16: the reset switch's state, set while it is not pressed.
constexpr uint32_t reset_switch_state = 1u << 16;
} // namespace pi_irq
} // namespace hw

/// A controller's state as the SI answers a poll (YAGCD 5.8: buttons with bit 7 "use origin" set, the main stick,
/// the C stick, the analog triggers). Neutral: nothing pressed, sticks centred at 0x80.
struct PadState {
  uint16_t buttons = 0;
  uint8_t stick_x = 0x80, stick_y = 0x80, substick_x = 0x80, substick_y = 0x80, trigger_l = 0, trigger_r = 0;
};
namespace pad {
constexpr uint16_t left = 0x0001, right = 0x0002, down = 0x0004, up = 0x0008, z = 0x0010, r = 0x0020, l = 0x0040,
                   use_origin = 0x0080, a = 0x0100, b = 0x0200, x = 0x0400, y = 0x0800, start = 0x1000;
} // namespace pad

/// One EXI channel's registers (CSR, MAR, LENGTH, CR, DATA) and the transfer state of the device it selected.
struct ExiChannel {
  uint32_t csr = 0, mar = 0, length = 0, cr = 0, data = 0;
  unsigned selected = 0;       ///< CSR's chip select (bit n-7: device n), 0 = none
  unsigned transferred = 0;    ///< bytes since the device was selected
  uint32_t command = 0;        ///< the first word sent to the IPL/RTC/SRAM device: its address and direction
};

struct Hardware {
  std::array<uint8_t, 0x80> cp{};
  std::array<uint8_t, 0x100> pe{};
  std::array<uint8_t, 0x100> vi{};
  std::array<uint8_t, 0x80> mi{};
  std::array<uint8_t, 0x200> dsp{};
  // PI
  uint32_t pi_mask = 0;
  uint32_t pi_fifo_base = 0, pi_fifo_end = 0, pi_fifo_write = 0;
  // VI: the beam and the four display interrupts (DI0-DI3)
  uint64_t vi_ticks = 0; ///< time-base ticks into the current frame
  // DI
  std::array<uint32_t, 10> di{}; ///< DISR, DICVR, DICMDBUF0-2, DIMAR, DILENGTH, DICR, DIIMMBUF, DICFG
  // SI
  std::array<uint32_t, 16> si{};  ///< channel buffers (0x00-0x2C), poll, COMCSR, SR, EXILK
  std::array<uint8_t, 0x80> si_io{}; ///< the communication buffer at 0x80
  PadState pads[4];
  bool pad_connected[4] = {true, false, false, false};
  // EXI
  ExiChannel exi[3];
  std::array<uint8_t, 64> sram{};
  uint32_t rtc = 0;              ///< seconds since 2000-01-01
  std::string uart_line;         ///< what the UART received since its last newline
  // AI
  uint32_t ai_control = 0, ai_volume = 0, ai_interrupt_timing = 0;
  uint64_t ai_sample_ticks = 0;  ///< time-base ticks since the sample counter last counted
  uint32_t ai_samples = 0;
  // The gather pipe and the GX FIFO it fills.
  std::array<uint8_t, 32> gather{};
  unsigned gather_fill = 0;
  std::vector<uint8_t> gx_stream; ///< every 32-byte burst, in order (the GX consumer's input)
  // Mail to the DSP (no DSP program runs: kept for reports).
  std::vector<uint32_t> dsp_mail;
};

} // namespace kiln::gamecube
