#pragma once
// The PS1 hardware registers at 1F801000h..1F802FFFh (psx-spx "I/O Map") and the odd addresses around them
// (expansion regions, cache control): interrupt controller, DMA (dma.cpp), root counters, and the ports of the
// controller port (pad/sio0.h), the GPU and the SPU (spu/spu.h). Registers kiln does not model are accepted (writes kept, reads return
// what was written) and reported once each at verbose level.
#include <array>
#include <cstdint>
#include <set>

namespace kiln::psx {

class Machine;

struct RootCounter {
  uint32_t value = 0, mode = 0, target = 0;
};

class IoRegisters {
public:
  uint32_t read(Machine& m, uint32_t address, unsigned size);
  void write(Machine& m, uint32_t address, uint32_t value, unsigned size);

  // Interrupt controller.
  uint32_t i_stat = 0, i_mask = 0;
  void raise(uint32_t lines) {
    i_stat |= lines;
    fresh_lines_ |= lines;
  }

  // DMA (dma.cpp).
  struct DmaChannel {
    uint32_t madr = 0, bcr = 0, chcr = 0;
  };
  std::array<DmaChannel, 7> dma{};
  uint32_t dpcr = 0x07654321u, dicr = 0;
  void start_dma(Machine& m, unsigned channel);

  std::array<RootCounter, 3> counters{};

private:
  uint32_t read_register(Machine& m, uint32_t offset);
  void write_register(Machine& m, uint32_t offset, uint32_t value, unsigned size);
  void write_dicr(uint32_t value);
  void finish_dma(unsigned channel);
  void report_unmodelled(uint32_t address, bool write);

  uint32_t fresh_lines_ = 0; ///< lines raised since the program last read I_STAT
  std::array<uint32_t, 0x800> other_{}; ///< accepted registers of the 8 KiB I/O page, by word
  uint32_t cache_control_ = 0;
  std::set<uint32_t> reported_;
};

} // namespace kiln::psx
