#pragma once
// The instruction fields of the PowerPC formats (PEM "Instruction Formats"), LSB-0: the one place both the
// semantics (runtime/core/ppc/ops.h) and the recompiler's encoding table read them from.
#include <cstdint>

namespace kiln::ppc::field {

constexpr unsigned d(uint32_t w) { return (w >> 21) & 31; } ///< rD/rS/frD/frS, TO, BO, crbD
constexpr unsigned a(uint32_t w) { return (w >> 16) & 31; } ///< rA/frA, BI, crbA
constexpr unsigned b(uint32_t w) { return (w >> 11) & 31; } ///< rB/frB, SH, NB, crbB
constexpr unsigned c(uint32_t w) { return (w >> 6) & 31; }  ///< frC, MB
constexpr unsigned me(uint32_t w) { return (w >> 1) & 31; }
constexpr unsigned crfd(uint32_t w) { return (w >> 23) & 7; }
constexpr unsigned crfs(uint32_t w) { return (w >> 18) & 7; }
constexpr uint32_t uimm(uint32_t w) { return w & 0xFFFF; }
constexpr int32_t simm(uint32_t w) { return static_cast<int16_t>(w & 0xFFFF); }
constexpr bool oe(uint32_t w) { return (w >> 10) & 1; }
constexpr bool rc(uint32_t w) { return w & 1; }
constexpr bool aa(uint32_t w) { return (w >> 1) & 1; }
constexpr bool lk(uint32_t w) { return w & 1; }
/// Branch displacements in bytes (bc: 14 bits, b: 24 bits, both word-scaled and sign-extended).
constexpr int32_t bd(uint32_t w) { return static_cast<int16_t>(w & 0xFFFC); }
constexpr int32_t li(uint32_t w) { return (static_cast<int32_t>(w << 6) >> 6) & ~3; }
/// mfspr/mtspr/mftb: the two 5-bit halves of the number are swapped in the word.
constexpr unsigned spr_number(uint32_t w) { return ((w >> 16) & 31) | ((w >> 6) & 0x3E0); }
constexpr unsigned crm(uint32_t w) { return (w >> 12) & 0xFF; }
constexpr unsigned fm(uint32_t w) { return (w >> 17) & 0xFF; }
constexpr unsigned sr(uint32_t w) { return (w >> 16) & 15; }
constexpr unsigned fpscr_imm(uint32_t w) { return (w >> 12) & 15; }
/// psq_l/psq_st: 12-bit displacement, W bit 15, GQR index bits 12-14; the indexed forms: W bit 10, I bits 7-9.
constexpr int32_t psq_d(uint32_t w) { return static_cast<int32_t>(w << 20) >> 20; }
constexpr unsigned psq_w(uint32_t w) { return (w >> 15) & 1; }
constexpr unsigned psq_i(uint32_t w) { return (w >> 12) & 7; }
constexpr unsigned psq_wx(uint32_t w) { return (w >> 10) & 1; }
constexpr unsigned psq_ix(uint32_t w) { return (w >> 7) & 7; }

} // namespace kiln::ppc::field
