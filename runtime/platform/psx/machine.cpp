#include "runtime/platform/psx/machine.h"

#include <fmt/format.h>

#include <cstdio>

#include "runtime/base/error.h"

namespace kiln::psx {
namespace {

constexpr unsigned t1 = 9, v0 = 2, ra = 31;
constexpr uint32_t status_iec = 1u << 0, status_im2 = 1u << 10;

const char* exception_name(uint32_t code) {
  switch (code) {
    case 0x04: return "address error on load or fetch";
    case 0x05: return "address error on store";
    case 0x06: case 0x07: return "bus error";
    case 0x08: return "SYSCALL";
    case 0x09: return "BREAK";
    case 0x0A: return "reserved instruction";
    case 0x0B: return "coprocessor unusable";
    case 0x0C: return "arithmetic overflow";
    default: return "exception";
  }
}

} // namespace

Machine::Machine(Options options) : options_(std::move(options)) {
  spu.on_interrupt = [this] { io.raise(irq::spu); };
  sio0.on_interrupt = [this] { io.raise(irq::controller); };
}

void Machine::load(const ProgramImage& image) {
  for (size_t i = 0; i < image.text.size(); ++i) write8(image.text_address + static_cast<uint32_t>(i), image.text[i]);
  for (uint32_t i = 0; i < image.bss_size; ++i) write8(image.bss_address + i, 0);
  cpu.pc = image.entry;
  cpu.gpr[28] = image.gp;
  const uint32_t stack = image.initial_sp ? image.initial_sp : default_stack;
  cpu.gpr[29] = cpu.gpr[30] = stack;
  cpu.gpr[ra] = exit_address;
}

bool Machine::enter_hle(uint32_t address) {
  const uint32_t physical = physical_address(address);
  if (address == exit_address) throw ProgramStop{"returned from the entry point", cpu.gpr[v0]};
  if (physical != 0xA0 && physical != 0xB0 && physical != 0xC0) return false;
  // The jump's delay slot may have issued a load; it lands before the BIOS code's first instruction ends.
  r3000::retire_load(cpu);
  bios.call(*this, static_cast<char>('A' + (physical - 0xA0) / 0x10), cpu.gpr[t1] & 0xFF);
  r3000::retire_load(cpu);
  cpu.pc = cpu.gpr[ra];
  return true;
}

void Machine::handle_exception(uint32_t pc) {
  const uint32_t code = (cpu.cop0[r3000::cop0::cause] >> 2) & 0x1F;
  const bool in_delay_slot = (cpu.cop0[r3000::cop0::cause] & r3000::cop0::cause_bd) != 0;
  if (code == static_cast<uint32_t>(r3000::ExceptionCode::syscall) && !in_delay_slot) {
    // The BIOS handler: back to the interrupted context (RFE), answer the call, return after the SYSCALL.
    uint32_t& status = cpu.cop0[r3000::cop0::status];
    status = (status & ~0x0Fu) | ((status >> 2) & 0x0Fu);
    switch (cpu.gpr[4]) {
      case 1: // EnterCriticalSection: were interrupts enabled?
        r3000::set_gpr(cpu, v0, (status & (status_iec | status_im2)) == (status_iec | status_im2) ? 1 : 0);
        status &= ~(status_iec | status_im2);
        break;
      case 2: status |= status_iec | status_im2; break; // ExitCriticalSection
      default: break;                                  // NoFunction / ChangeThreadSubFunction: nothing to do
    }
    cpu.pc = cpu.cop0[r3000::cop0::epc] + 4;
    cpu.exception_taken = false;
    return;
  }
  throw Error(fmt::format("psx: {} at guest pc {:#010x} (Cause {:#010x}, EPC {:#010x}, BadVaddr {:#010x}); kiln does not run "
                          "guest exception handlers",
                          exception_name(code), pc, cpu.cop0[r3000::cop0::cause], cpu.cop0[r3000::cop0::epc],
                          cpu.cop0[r3000::cop0::bad_vaddr]));
}

uint32_t Machine::call_callback(uint32_t address, uint32_t argument) {
  if (!run_callback) throw Error(fmt::format("psx: no way to run the guest callback at {:#010x}", address));
  struct Restore {
    Machine& m;
    const r3000::Cpu saved;
    ~Restore() {
      --m.callback_depth_;
      m.cpu = saved;
    }
  } restore{*this, cpu};
  ++callback_depth_;
  cpu.delay = cpu.branch = r3000::PendingBranch{};
  cpu.load = cpu.next_load = r3000::PendingLoad{};
  cpu.gpr[29] = (restore.saved.gpr[29] - 0x100) & ~7u; // below whatever the interrupted code keeps at its $sp
  cpu.gpr[4] = argument;
  cpu.gpr[ra] = callback_return_address;
  cpu.pc = address;
  trace(fmt::format("callback {:08x}", address));
  run_callback(*this);
  return cpu.gpr[v0];
}

void Machine::vblank() {
  frame_time_remainder_ += video_clocks_per_frame * cpu_clock_hz;
  spu.advance(frame_time_remainder_ / video_clock_hz);
  frame_time_remainder_ %= video_clock_hz;
  io.raise(irq::vblank);
  ++frames_;
  sio0.frame = frames_;
  const uint32_t status = cpu.cop0[r3000::cop0::status];
  if ((status & status_iec) && (status & status_im2) && (io.i_stat & io.i_mask)) bios.run_interrupt_chains(*this);
  bios.deliver_vblank(*this);
  if (options_.on_frame) options_.on_frame(frames_, *this);
  if (options_.frame_limit && frames_ >= options_.frame_limit)
    throw ProgramStop{fmt::format("frame limit ({}) reached", options_.frame_limit), 0};
}

void Machine::print(std::string_view text) const {
  if (options_.tty) {
    options_.tty(text);
  } else {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
}

} // namespace kiln::psx
