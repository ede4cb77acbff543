// Sound RAM transfers (psx-spx "SPU Memory Access"): the manual-write FIFO, DMA4 in both directions, the
// transfer address in 8-byte units, and the IRQ address trapping transfers.
#include <catch2/catch.hpp>

#include "tests/platform/psx/spu/spu_harness.h"

using namespace spu_test;

namespace {

constexpr uint32_t dma4_madr = 0x1F8010C0u, dma4_bcr = 0x1F8010C4u, dma4_chcr = 0x1F8010C8u;
constexpr uint32_t dpcr = 0x1F8010F0u, i_stat = 0x1F801070u;

void start_dma4(Spu& s, uint32_t ram_address, uint32_t blocks, bool to_spu) {
  s.m.write32(dpcr, s.m.read32(dpcr) | 0x80000u); // channel 4 enabled
  s.m.write32(dma4_madr, ram_address);
  s.m.write32(dma4_bcr, (blocks << 16) | 0x10); // blocks of 10h words (psx-spx "SPU RAM DMA-Write")
  s.m.write32(dma4_chcr, to_spu ? 0x01000201u : 0x01000200u);
}

} // namespace

TEST_CASE("psx SPU manual write puts the FIFO at the transfer address", "[psx][spu]") {
  Spu s;
  s.write(spucnt, spu_on);
  s.write(transfer_control, 0x0004);
  s.write(transfer_address, 0x0400); // byte address 2000h
  for (uint16_t h = 0; h < 32; ++h) s.write(transfer_fifo, static_cast<uint16_t>(0x1100 + h));
  CHECK(s.m.spu.ram()[0x2000] == 0); // nothing moves before the mode says "manual write"
  s.write(spucnt, spu_on | 0x10);
  CHECK((s.read(spustat) & 0x3F) == 0x10); // SPUSTAT bits 0-5 follow SPUCNT
  for (unsigned h = 0; h < 32; ++h) {
    INFO("halfword " << h);
    CHECK(s.m.spu.ram()[0x2000 + 2 * h] == static_cast<uint8_t>(h));
    CHECK(s.m.spu.ram()[0x2001 + 2 * h] == 0x11);
  }
  CHECK(s.m.spu.ram()[0x2040] == 0);
  // The 1DA6h register keeps what was written; the internal address moved on by 32 halfwords.
  CHECK(s.read(transfer_address) == 0x0400);
  s.write(transfer_fifo, 0xBEEF); // in manual-write mode a FIFO write goes on at the internal address
  CHECK(s.m.spu.ram()[0x2040] == 0xEF);
  CHECK(s.m.spu.ram()[0x2041] == 0xBE);
}

TEST_CASE("psx SPU DMA4 writes sound RAM and reads it back", "[psx][spu]") {
  Spu s;
  constexpr unsigned words = 2 * 0x10;
  for (uint32_t i = 0; i < words; ++i) s.m.write32(0x80010000u + 4 * i, 0xA5000000u ^ (i * 0x01030507u));
  s.write(spucnt, spu_on);
  s.write(transfer_control, 0x0004);
  s.write(transfer_address, 0x1000 / 8);
  s.write(spucnt, spu_on | 0x20); // DMA write
  CHECK((s.read(spustat) & 0x380) == 0x180); // DMA write request (bit 8); bit 7 = SPUCNT bit 5
  start_dma4(s, 0x80010000u, 2, true);
  CHECK((s.m.read32(dma4_chcr) & 0x01000000u) == 0); // finished
  // Each word is two halfwords, low first: sound RAM holds the words' bytes in order from 1000h.
  for (uint32_t i = 0; i < words; ++i) {
    const uint32_t w = 0xA5000000u ^ (i * 0x01030507u);
    for (unsigned b = 0; b < 4; ++b) CHECK(s.m.spu.ram()[0x1000 + 4 * i + b] == static_cast<uint8_t>(w >> (8 * b)));
  }
  // Back into RAM at 80020000h through DMA read mode.
  s.write(spucnt, spu_on);
  s.write(transfer_address, 0x1000 / 8);
  s.write(spucnt, spu_on | 0x30);
  CHECK((s.read(spustat) & 0x380) == 0x280); // DMA read request (bit 9); bit 7 = SPUCNT bit 5
  start_dma4(s, 0x80020000u, 2, false);
  for (uint32_t i = 0; i < words; ++i) CHECK(s.m.read32(0x80020000u + 4 * i) == s.m.read32(0x80010000u + 4 * i));
  CHECK(s.m.read32(0x80020000u + 4 * words) == 0); // exactly two blocks
  CHECK(s.m.read32(dma4_madr) == 0x00020000u + 4 * words);
}

TEST_CASE("psx SPU transfers reaching the IRQ address raise IRQ9 once until acknowledged", "[psx][spu]") {
  Spu s;
  s.write(irq_address, 0x3008 / 8);
  s.write(spucnt, spu_on | 0x40); // IRQ9 enabled
  s.write(transfer_control, 0x0004);
  s.write(transfer_address, 0x3000 / 8);
  for (int h = 0; h < 4; ++h) s.write(transfer_fifo, 0x1111); // 3000h..3007h: not yet
  s.write(spucnt, spu_on | 0x40 | 0x10);
  CHECK((s.read(spustat) & 0x40) == 0);
  CHECK((s.m.io.i_stat & kiln::psx::irq::spu) == 0);
  s.write(transfer_fifo, 0x2222); // 3008h
  CHECK((s.read(spustat) & 0x40) != 0);
  CHECK((s.m.io.i_stat & kiln::psx::irq::spu) != 0);
  s.m.write32(i_stat, ~kiln::psx::irq::spu);
  s.write(transfer_address, 0x3008 / 8);
  s.write(transfer_fifo, 0x3333); // again, but the flag is still set: no new interrupt
  CHECK((s.m.io.i_stat & kiln::psx::irq::spu) == 0);
  s.write(spucnt, spu_on | 0x10); // SPUCNT bit 6 = 0 acknowledges
  CHECK((s.read(spustat) & 0x40) == 0);
}

TEST_CASE("psx SPU bus: halfword and word access, odd byte writes ignored", "[psx][spu]") {
  Spu s;
  s.m.write32(voice_register(2, 0x4), 0x02341000u); // pitch 1000h, start address 0234h (two halfwords)
  CHECK(s.read(voice_register(2, 0x4)) == 0x1000);
  CHECK(s.read(voice_register(2, 0x6)) == 0x0234);
  CHECK(s.m.read32(voice_register(2, 0x4)) == 0x02341000u);
  s.m.write8(voice_register(2, 0x5), 0x77); // odd: ignored
  CHECK(s.read(voice_register(2, 0x4)) == 0x1000);
  s.m.write8(voice_register(2, 0x4), 0x77); // even: a 16-bit write
  CHECK(s.read(voice_register(2, 0x4)) == 0x0077);
  CHECK(s.m.read8(voice_register(2, 0x7)) == 0x02);
  // Reverb registers are not modelled: kept for reads.
  s.write(spu_register(0x1C0), 0x1234);
  CHECK(s.read(spu_register(0x1C0)) == 0x1234);
}
