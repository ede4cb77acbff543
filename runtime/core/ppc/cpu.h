#pragma once
// The Gekko (IBM PowerPC 750CL with paired singles) guest CPU state, as the IBM PowerPC 750CL RISC
// Microprocessor User's Manual ("750CL UM") and the PowerPC Microprocessor Family: The Programming Environments
// Manual for 32-Bit Microprocessors ("PEM") lay it out. Recompiled code and the step interpreter
// (runtime/core/ppc/step.h) both run on it through runtime/core/ppc/ops.h.
//
// Bit numbers in comments are the usual LSB-0 ones (value >> n & 1); the manuals number bits from the MSB.
//
// The Bus a semantics function receives is the platform's view of everything outside the core:
//   uint8_t read8(uint32_t); uint16_t read16(uint32_t); uint32_t read32(uint32_t); uint64_t read64(uint32_t);
//   void write8(uint32_t, uint8_t); ... write64(uint32_t, uint64_t);
//       guest memory is big-endian: read32 returns the word as the guest sees it (the Bus swaps bytes on a
//       little-endian host); addresses need not be aligned (the 750CL handles misaligned integer accesses
//       in hardware). A store to the gather pipe (WPAR's address) is an ordinary write the platform sees.
// and, optionally (the semantics detect each with `requires`; a platform without one gets the default):
//   bool system_call(Cpu&);                        sc: true = handled here (linux-user); default: the
//                                                  system call exception at 0xC00, as Dolphin OS expects
//   void spr_read(Cpu&, unsigned spr);             before mfspr/mftb read it: refresh DEC, TB, ...
//   void spr_written(Cpu&, unsigned spr, uint32_t old);  after mtspr: DEC, DMA_L (locked-cache DMA), HID0,
//                                                  WPAR, HID2 ... (state is already updated)
//   void msr_written(Cpu&);                        after mtmsr/rfi (MSR[EE] may deliver a pending interrupt)
//   void cache_block(Cpu&, CacheOp, uint32_t ea);  dcbf/dcbst/dcbi/dcbt/dcbtst/icbi (default: nothing)
//   void locked_cache_zero(Cpu&, uint32_t ea);     dcbz_l (default: the 32-byte block zeroed through writes)
#include <bit>
#include <cstdint>

namespace kiln::ppc {

/// SPR numbers (750CL UM, "Special-Purpose Registers"; PEM "SPR Encodings"). Bit 4 of the number set means
/// supervisor-only (PEM, mtspr/mfspr).
namespace spr {
constexpr unsigned xer = 1, lr = 8, ctr = 9, dsisr = 18, dar = 19, dec = 22, sdr1 = 25, srr0 = 26, srr1 = 27;
constexpr unsigned tbl_read = 268, tbu_read = 269; ///< mftb's time base numbers
constexpr unsigned sprg0 = 272, ear = 282, tbl_write = 284, tbu_write = 285, pvr = 287;
constexpr unsigned ibat0u = 528, dbat0u = 536, ibat4u = 560, dbat4u = 568; ///< 8 each: upper/lower pairs
constexpr unsigned gqr0 = 912, hid2 = 920, wpar = 921, dma_u = 922, dma_l = 923;
constexpr unsigned ummcr0 = 936, upmc1 = 937, upmc2 = 938, usia = 939, ummcr1 = 940, upmc3 = 941, upmc4 = 942;
constexpr unsigned mmcr0 = 952, pmc1 = 953, pmc2 = 954, sia = 955, mmcr1 = 956, pmc3 = 957, pmc4 = 958;
constexpr unsigned hid0 = 1008, hid1 = 1009, iabr = 1010, hid4 = 1011, dabr = 1013, l2cr = 1017, ictc = 1019;
constexpr unsigned thrm1 = 1020, thrm2 = 1021, thrm3 = 1022;
constexpr unsigned count = 1024;
constexpr bool privileged(unsigned n) { return (n & 0x10) != 0; }
/// The PVR of a retail GameCube's Gekko (DD2.4e, "HW2"), as Dolphin and gc-linux record it.
constexpr uint32_t gekko_pvr = 0x00083214;
} // namespace spr

/// MSR bits (PEM "Machine State Register").
namespace msr {
constexpr uint32_t pow = 1u << 18, ile = 1u << 16, ee = 1u << 15, pr = 1u << 14, fp = 1u << 13, me = 1u << 12,
                   fe0 = 1u << 11, se = 1u << 10, be = 1u << 9, fe1 = 1u << 8, ip = 1u << 6, ir = 1u << 5,
                   dr = 1u << 4, pmm = 1u << 2, ri = 1u << 1, le = 1u << 0;
/// The bits an exception saves in SRR1 and rfi restores (PEM "Exception Processing": MSR[16-23,25-27,30-31]).
constexpr uint32_t saved = 0x0000FF73u;
} // namespace msr

/// HID2 bits the Gekko adds (750CL UM "HID2"): paired singles, quantized loads/stores, locked cache, DMA queue.
namespace hid2 {
constexpr uint32_t lsqe = 1u << 31, wpe = 1u << 30, pse = 1u << 29, lce = 1u << 28;
} // namespace hid2

/// SRR1 bits a program exception sets (PEM "Program Exception").
namespace srr1 {
constexpr uint32_t fp_enabled = 1u << 20, illegal = 1u << 19, privileged = 1u << 18, trap = 1u << 17;
} // namespace srr1

/// XER as the architecture lays it out (the state keeps the fields apart).
namespace xer {
constexpr uint32_t so = 1u << 31, ov = 1u << 30, ca = 1u << 29, byte_count = 0x7F;
} // namespace xer

/// CR field bits (PEM "Condition Register"): within a 4-bit field LT is the high bit.
namespace cr {
constexpr uint8_t lt = 8, gt = 4, eq = 2, so = 1;
} // namespace cr

/// Exception vector offsets (PEM "Exception Vector Offsets"; 750CL UM adds thermal management).
enum class Exception : uint32_t {
  system_reset = 0x100,
  machine_check = 0x200,
  dsi = 0x300,
  isi = 0x400,
  external = 0x500,
  alignment = 0x600,
  program = 0x700,
  fp_unavailable = 0x800,
  decrementer = 0x900,
  system_call = 0xC00,
  trace = 0xD00,
  performance_monitor = 0xF00,
  instruction_breakpoint = 0x1300,
  thermal = 0x1700,
};

/// The cache-block instructions a platform may want to see (icbi: code the recompiler must not trust).
enum class CacheOp : uint8_t { flush, store, invalidate, touch, touch_for_store, invalidate_instruction };

/// One FPR: on the Gekko every FPR holds a pair; ps0 is the register the base FPU uses. Kept as bit patterns
/// so that moves preserve a signaling NaN exactly; the values are doubles (ps1 holds a double-format value).
struct Fpr {
  uint64_t ps0 = 0, ps1 = 0;
  bool operator==(const Fpr&) const = default;
};

struct Cpu {
  uint32_t gpr[32] = {};
  Fpr fpr[32] = {};
  uint8_t cr[8] = {};       ///< CR0..CR7, each LT GT EQ SO in bits 3..0
  uint32_t lr = 0, ctr = 0;
  bool xer_so = false, xer_ov = false, xer_ca = false;
  uint8_t xer_byte_count = 0; ///< XER[25-31]: lswx/stswx length
  uint32_t fpscr = 0;
  uint32_t msr = 0;
  uint32_t sr[16] = {};     ///< segment registers
  uint64_t timebase = 0;    ///< TBU:TBL (mftb, mttbl/mttbu)
  uint32_t spr[spr::count] = {}; ///< every other SPR, indexed by its number (SRR0/1, HID0/2/4, GQRn, DEC, ...)
  bool reserved = false;    ///< lwarx's reservation
  uint32_t reserve_address = 0;
  uint32_t pc = 0;          ///< address of the instruction being executed
  uint32_t next_pc = 0;     ///< where control goes after it: pc + 4 unless it branched or raised an exception
  bool exception_taken = false; ///< this instruction raised an exception (next_pc is its vector)

  Cpu() { spr[spr::pvr] = spr::gekko_pvr; }
};

// ---- CR and XER as the architecture's 32-bit registers ----
inline uint32_t cr_word(const Cpu& c) {
  uint32_t v = 0;
  for (unsigned i = 0; i < 8; ++i) v |= uint32_t{c.cr[i]} << (28 - 4 * i);
  return v;
}
inline void set_cr_word(Cpu& c, uint32_t v) {
  for (unsigned i = 0; i < 8; ++i) c.cr[i] = static_cast<uint8_t>((v >> (28 - 4 * i)) & 15);
}
/// CR bit `bi` as the branch and CR-logical instructions number it (0 = CR0[LT] ... 31 = CR7[SO]).
inline bool cr_bit(const Cpu& c, unsigned bi) { return (c.cr[(bi >> 2) & 7] >> (3 - (bi & 3))) & 1; }
inline void set_cr_bit(Cpu& c, unsigned bi, bool value) {
  const uint8_t bit = static_cast<uint8_t>(1u << (3 - (bi & 3)));
  uint8_t& field = c.cr[(bi >> 2) & 7];
  field = value ? (field | bit) : (field & ~bit);
}
inline uint32_t xer_word(const Cpu& c) {
  return (c.xer_so ? xer::so : 0) | (c.xer_ov ? xer::ov : 0) | (c.xer_ca ? xer::ca : 0) | c.xer_byte_count;
}
/// mtxer: the 750CL implements SO, OV, CA and the byte count; the other bits read as zero.
inline void set_xer_word(Cpu& c, uint32_t v) {
  c.xer_so = v & xer::so;
  c.xer_ov = v & xer::ov;
  c.xer_ca = v & xer::ca;
  c.xer_byte_count = static_cast<uint8_t>(v & xer::byte_count);
}

// ---- FPR values ----
inline double ps0(const Cpu& c, unsigned f) { return std::bit_cast<double>(c.fpr[f].ps0); }
inline double ps1(const Cpu& c, unsigned f) { return std::bit_cast<double>(c.fpr[f].ps1); }

// ---- exceptions ----
/// Exception entry (PEM "Exception Processing"): SRR0 = the address to resume at, SRR1 = the saved MSR bits
/// plus `srr1_bits`, MSR cleared except ILE/ME/IP (LE takes ILE), control goes to the vector (at FFF0_0000
/// when MSR[IP] is set). The vector is a physical address: translation is off in the handler.
inline void raise_exception(Cpu& c, Exception e, uint32_t resume_at, uint32_t srr1_bits = 0) {
  c.spr[spr::srr0] = resume_at;
  c.spr[spr::srr1] = (c.msr & msr::saved) | srr1_bits;
  const uint32_t kept = c.msr & (msr::ile | msr::me | msr::ip);
  c.msr = kept | ((kept & msr::ile) ? msr::le : 0);
  c.next_pc = ((kept & msr::ip) ? 0xFFF00000u : 0u) | static_cast<uint32_t>(e);
  c.exception_taken = true;
}

} // namespace kiln::ppc
