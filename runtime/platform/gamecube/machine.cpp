// Memory, low-memory globals, the CPU hooks and interrupt delivery of the GameCube (docs/gamecube.md).
#include "runtime/platform/gamecube/machine.h"

#include <fmt/format.h>

#include "runtime/base/error.h"

namespace kiln::gamecube {

Machine::Machine() : mem1(memory_map::mem1_size), aram(memory_map::aram_size), gx(std::make_unique<gx::CommandProcessor>(mem1)) {
  // SRAM (64 bytes behind the IPL device): zero settings with the checksums the SDK verifies over the 16-bit
  // words at 0x0C-0x13 (their sum at 0x00, the sum of their complements at 0x02; libogc documents the check).
  uint32_t sum = 0, inverse = 0;
  for (unsigned i = 0x0C; i < 0x14; i += 2) {
    const uint32_t w = uint32_t{hw.sram[i]} << 8 | hw.sram[i + 1];
    sum += w;
    inverse += w ^ 0xFFFFu;
  }
  hw.sram[0] = static_cast<uint8_t>(sum >> 8), hw.sram[1] = static_cast<uint8_t>(sum);
  hw.sram[2] = static_cast<uint8_t>(inverse >> 8), hw.sram[3] = static_cast<uint8_t>(inverse);
}

void unmapped(const Machine& m, uint32_t address, unsigned size, bool write) {
  throw Error(fmt::format("gamecube: {}-bit {} {:#010x} at guest PC {:#010x}: no memory or hardware register there (MEM1 is 24 MiB at "
                          "0x80000000/0xC0000000, the hardware at 0xCC000000, the locked cache at 0xE0000000 once HID2[LCE] is set)",
                          size * 8, write ? "write to" : "read of", address, m.cpu.pc));
}

void Bus::spr_read(ppc::Cpu& c, unsigned spr) const {
  if (spr == ppc::spr::tbl_read || spr == ppc::spr::tbu_read || spr == ppc::spr::dec) {
    advance_time(m, clocks::ticks_per_hook);
    check_interrupts(m, c.pc);
  }
  // WPAR[BNE]: the gather pipe holds bytes not yet sent as a burst.
  if (spr == ppc::spr::wpar) c.spr[ppc::spr::wpar] = (c.spr[ppc::spr::wpar] & ~1u) | (m.hw.gather_fill != 0 ? 1u : 0u);
}

void Bus::spr_written(ppc::Cpu& c, unsigned spr, uint32_t old) const {
  if (spr == ppc::spr::dec) {
    // 750CL UM "Decrementer": the exception is signalled when bit 0 goes from 0 to 1, a write included.
    if (!(old & 0x80000000u) && (c.spr[ppc::spr::dec] & 0x80000000u)) m.decrementer_pending = true;
    if (c.spr[ppc::spr::dec] & 0x80000000u) check_interrupts(m, c.next_pc);
  }
  if (spr == ppc::spr::dma_l && (c.spr[ppc::spr::dma_l] & 2u)) locked_cache_dma(m);
}

void Bus::msr_written(ppc::Cpu& c) const { check_interrupts(m, c.next_pc); }

void check_interrupts(Machine& m, uint32_t resume_at) {
  ppc::Cpu& c = m.cpu;
  if (!(c.msr & ppc::msr::ee)) return;
  // PEM "Exception Priorities": the external interrupt before the decrementer.
  ppc::Exception kind;
  if (pending_external(m)) {
    kind = ppc::Exception::external;
  } else if (m.decrementer_pending) {
    m.decrementer_pending = false; // taking it clears the request (PEM "Decrementer Exception")
    kind = ppc::Exception::decrementer;
  } else {
    return;
  }
  const uint32_t pc = c.pc, next_pc = c.next_pc;
  const bool exception_taken = c.exception_taken;
  ppc::raise_exception(c, kind, resume_at);
  c.exception_taken = false;
  run_handler(m, resume_at);
  c.pc = pc, c.next_pc = next_pc, c.exception_taken = exception_taken;
}

void write_boot_info(Machine& m, const BootInfo& info) {
  using namespace low_memory;
  std::copy(info.disc_header.begin(), info.disc_header.end(), m.mem1.begin());
  auto put = [&](uint32_t at, uint32_t v) { store<uint32_t>(m.mem1.data() + at, v, Endian::big); };
  put(boot_magic_at, boot_magic);
  put(boot_version_at, boot_version);
  put(memory_size_at, memory_map::mem1_size);
  put(console_type_at, console_retail);
  put(arena_lo_at, info.arena_lo);
  put(arena_hi_at, info.arena_hi);
  put(fst_address_at, info.fst_address);
  put(fst_max_size_at, info.fst_max_size);
  put(tv_mode_at, tv_ntsc);
  put(aram_size_at, memory_map::aram_size);
  put(simulated_memory_size_at, memory_map::mem1_size);
  put(bus_clock_at, clocks::bus_hz);
  put(core_clock_at, clocks::core_hz);
}

} // namespace kiln::gamecube
