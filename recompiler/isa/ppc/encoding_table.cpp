// The Gekko encodings: the PowerPC 32-bit base ISA as the PowerPC Programming Environments Manual (PEM,
// "Instruction Set Listings") lays it out, the 750CL's implementation of it (IBM PowerPC 750CL User's Manual,
// "Instruction Set": no fsqrt/fsqrts, no 64-bit instructions) and the Gekko additions from the same manual
// ("Paired-Single Instructions", psq_*, dcbz_l). One row per instruction; see encoding_table.h for the columns.
// Masks are strict: fields the manuals mark reserved must be zero, as GNU objdump requires (it ignores two
// reserved bits, bit 22 of cmpi/cmpli and bit 0 of the indexed psq forms, and so does the table).
#include "recompiler/isa/ppc/encoding_table.h"

#include <capstone/capstone.h>
#include <fmt/format.h>

#include <array>
#include <vector>

#include "runtime/base/error.h"
#include "runtime/core/ppc/fields.h"

namespace kiln::ppc {
namespace {

constexpr uint32_t primary(uint32_t op) { return op << 26; }
/// X/XO/A-form extended opcodes all sit from bit 1 up; the masks say how many bits they have.
constexpr uint32_t ext(uint32_t op, uint32_t xo) { return op << 26 | xo << 1; }

constexpr uint32_t m_primary = 0xFC000000;
constexpr uint32_t m_x = 0xFC0007FE;  // opcode + 10-bit extended opcode
constexpr uint32_t m_xo = 0xFC0003FE; // opcode + 9-bit extended opcode (OE in bit 10)
constexpr uint32_t m_a = 0xFC00003E;  // opcode + 5-bit extended opcode
constexpr uint32_t rc0 = 0x1;         // Rc / reserved bit 0 must be zero
constexpr uint32_t z_d = 0x03E00000, z_a = 0x001F0000, z_b = 0x0000F800, z_c = 0x000007C0;

using O = Operand;
using L = Flow;
using namespace trait;

// Trait shorthands.
constexpr uint32_t oe_rc = has_oe | has_rc;
constexpr uint32_t fp = floating | fpscr_rw;               // FP arithmetic
constexpr uint32_t fp_single = floating | fpscr_rw | writes_ps1;
constexpr uint32_t ps = floating | fpscr_rw | paired | writes_ps1;
constexpr uint32_t ps_move = floating | paired | writes_ps1; // bit moves: no FPSCR
constexpr uint32_t fload = floating | loads, fstore = floating | stores;
constexpr uint32_t qload = floating | quantized | loads | writes_ps1, qstore = floating | quantized | stores;

// Capstone 4 names every conditional-branch form by its own simplified mnemonic.
constexpr uint16_t bc_family[] = {
    PPC_INS_BC, PPC_INS_BCA, PPC_INS_BCL, PPC_INS_BCLA, PPC_INS_BDNZ, PPC_INS_BDNZA, PPC_INS_BDNZL, PPC_INS_BDNZLA,
    PPC_INS_BDZ, PPC_INS_BDZA, PPC_INS_BDZL, PPC_INS_BDZLA, PPC_INS_BT, PPC_INS_BF, PPC_INS_BTA, PPC_INS_BFA,
    PPC_INS_BTL, PPC_INS_BFL, PPC_INS_BTLA, PPC_INS_BFLA, PPC_INS_BDNZT, PPC_INS_BDNZF, PPC_INS_BDZT, PPC_INS_BDZF,
    PPC_INS_BDNZTA, PPC_INS_BDNZFA, PPC_INS_BDZTA, PPC_INS_BDZFA, PPC_INS_BDNZTL, PPC_INS_BDNZFL, PPC_INS_BDZTL,
    PPC_INS_BDZFL, PPC_INS_BDNZTLA, PPC_INS_BDNZFLA, PPC_INS_BDZTLA, PPC_INS_BDZFLA};
constexpr uint16_t bclr_family[] = {PPC_INS_BCLR, PPC_INS_BCLRL, PPC_INS_BLR, PPC_INS_BLRL, PPC_INS_BDNZLR,
                                    PPC_INS_BDNZLRL, PPC_INS_BDZLR, PPC_INS_BDZLRL, PPC_INS_BTLR, PPC_INS_BFLR,
                                    PPC_INS_BTLRL, PPC_INS_BFLRL, PPC_INS_BDNZTLR, PPC_INS_BDZTLR,
                                    PPC_INS_BDZFLR, PPC_INS_BDNZTLRL, PPC_INS_BDNZFLRL, PPC_INS_BDZTLRL, PPC_INS_BDZFLRL};
constexpr uint16_t bcctr_family[] = {PPC_INS_BCCTR, PPC_INS_BCCTRL, PPC_INS_BCTR, PPC_INS_BCTRL,
                                     PPC_INS_BTCTR, PPC_INS_BFCTR, PPC_INS_BTCTRL, PPC_INS_BFCTRL};
constexpr uint16_t tw_family[] = {PPC_INS_TW, PPC_INS_TRAP, PPC_INS_TWLT, PPC_INS_TWEQ, PPC_INS_TWGT,
                                  PPC_INS_TWNE, PPC_INS_TWLLT, PPC_INS_TWLGT, PPC_INS_TWU};
constexpr uint16_t twi_family[] = {PPC_INS_TWI, PPC_INS_TWLTI, PPC_INS_TWEQI, PPC_INS_TWGTI,
                                   PPC_INS_TWNEI, PPC_INS_TWLLTI, PPC_INS_TWLGTI, PPC_INS_TWUI};
// ... and the SPR moves by the SPR names of every PowerPC it knows (AMR, DSCR, the 4xx DCCR ...).
constexpr uint16_t spr_family[] = {
    PPC_INS_MFSPR, PPC_INS_MFXER, PPC_INS_MFLR, PPC_INS_MFCTR, PPC_INS_MFAMR, PPC_INS_MFASR, PPC_INS_MFCFAR,
    PPC_INS_MFDAR, PPC_INS_MFDBATL, PPC_INS_MFDBATU, PPC_INS_MFDCCR, PPC_INS_MFDEAR, PPC_INS_MFDSCR, PPC_INS_MFDSISR,
    PPC_INS_MFESR, PPC_INS_MFIBATL, PPC_INS_MFIBATU, PPC_INS_MFICCR, PPC_INS_MFPID, PPC_INS_MFPVR, PPC_INS_MFRTCL,
    PPC_INS_MFRTCU, PPC_INS_MFSPEFSCR, PPC_INS_MFSRR2, PPC_INS_MFSRR3, PPC_INS_MFTBHI, PPC_INS_MFTBLO, PPC_INS_MFTCR};
constexpr uint16_t mtspr_family[] = {
    PPC_INS_MTSPR, PPC_INS_MTXER, PPC_INS_MTLR, PPC_INS_MTCTR, PPC_INS_MTTBL, PPC_INS_MTTBU, PPC_INS_MTAMR,
    PPC_INS_MTCFAR, PPC_INS_MTDAR, PPC_INS_MTDBATL, PPC_INS_MTDBATU, PPC_INS_MTDCCR, PPC_INS_MTDEAR, PPC_INS_MTDSCR,
    PPC_INS_MTDSISR, PPC_INS_MTESR, PPC_INS_MTIBATL, PPC_INS_MTIBATU, PPC_INS_MTICCR, PPC_INS_MTPID,
    PPC_INS_MTSPEFSCR, PPC_INS_MTSRR2, PPC_INS_MTSRR3, PPC_INS_MTTBHI, PPC_INS_MTTBLO, PPC_INS_MTTCR};
constexpr uint16_t rlwinm_family[] = {PPC_INS_RLWINM, PPC_INS_SLWI, PPC_INS_SRWI, PPC_INS_ROTLWI, PPC_INS_CLRLWI};

// clang-format off
constexpr Encoding table[] = {
  // ---- integer arithmetic ----
  {Opcode::addi,    "addi",   primary(14), m_primary, {O::rd, O::ra0, O::simm}, L::none, 0, {PPC_INS_ADDI, PPC_INS_LI, PPC_INS_LA}},
  {Opcode::addis,   "addis",  primary(15), m_primary, {O::rd, O::ra0, O::simm}, L::none, 0, {PPC_INS_ADDIS, PPC_INS_LIS}},
  {Opcode::addic,   "addic",  primary(12), m_primary, {O::rd, O::ra, O::simm}, L::none, writes_ca, {PPC_INS_ADDIC}},
  {Opcode::addic_dot, "addic.", primary(13), m_primary, {O::rd, O::ra, O::simm}, L::none, writes_ca | always_rc, {PPC_INS_ADDIC}},
  {Opcode::subfic,  "subfic", primary(8), m_primary, {O::rd, O::ra, O::simm}, L::none, writes_ca, {PPC_INS_SUBFIC}},
  {Opcode::mulli,   "mulli",  primary(7), m_primary, {O::rd, O::ra, O::simm}, L::none, 0, {PPC_INS_MULLI}},
  {Opcode::add,     "add",    ext(31, 266), m_xo, {O::rd, O::ra, O::rb}, L::none, oe_rc, {PPC_INS_ADD}},
  {Opcode::addc,    "addc",   ext(31, 10), m_xo, {O::rd, O::ra, O::rb}, L::none, oe_rc | writes_ca, {PPC_INS_ADDC}},
  {Opcode::adde,    "adde",   ext(31, 138), m_xo, {O::rd, O::ra, O::rb}, L::none, oe_rc | reads_ca | writes_ca, {PPC_INS_ADDE}},
  {Opcode::addme,   "addme",  ext(31, 234), m_xo | z_b, {O::rd, O::ra}, L::none, oe_rc | reads_ca | writes_ca, {PPC_INS_ADDME}},
  {Opcode::addze,   "addze",  ext(31, 202), m_xo | z_b, {O::rd, O::ra}, L::none, oe_rc | reads_ca | writes_ca, {PPC_INS_ADDZE}},
  {Opcode::subf,    "subf",   ext(31, 40), m_xo, {O::rd, O::ra, O::rb}, L::none, oe_rc, {PPC_INS_SUBF, PPC_INS_SUB}},
  {Opcode::subfc,   "subfc",  ext(31, 8), m_xo, {O::rd, O::ra, O::rb}, L::none, oe_rc | writes_ca, {PPC_INS_SUBFC, PPC_INS_SUBC}},
  {Opcode::subfe,   "subfe",  ext(31, 136), m_xo, {O::rd, O::ra, O::rb}, L::none, oe_rc | reads_ca | writes_ca, {PPC_INS_SUBFE}},
  {Opcode::subfme,  "subfme", ext(31, 232), m_xo | z_b, {O::rd, O::ra}, L::none, oe_rc | reads_ca | writes_ca, {PPC_INS_SUBFME}},
  {Opcode::subfze,  "subfze", ext(31, 200), m_xo | z_b, {O::rd, O::ra}, L::none, oe_rc | reads_ca | writes_ca, {PPC_INS_SUBFZE}},
  {Opcode::neg,     "neg",    ext(31, 104), m_xo | z_b, {O::rd, O::ra}, L::none, oe_rc, {PPC_INS_NEG}},
  {Opcode::mullw,   "mullw",  ext(31, 235), m_xo, {O::rd, O::ra, O::rb}, L::none, oe_rc, {PPC_INS_MULLW}},
  {Opcode::mulhw,   "mulhw",  ext(31, 75), m_xo | 0x400, {O::rd, O::ra, O::rb}, L::none, has_rc, {PPC_INS_MULHW}},
  {Opcode::mulhwu,  "mulhwu", ext(31, 11), m_xo | 0x400, {O::rd, O::ra, O::rb}, L::none, has_rc, {PPC_INS_MULHWU}},
  {Opcode::divw,    "divw",   ext(31, 491), m_xo, {O::rd, O::ra, O::rb}, L::none, oe_rc, {PPC_INS_DIVW}},
  {Opcode::divwu,   "divwu",  ext(31, 459), m_xo, {O::rd, O::ra, O::rb}, L::none, oe_rc, {PPC_INS_DIVWU}},
  // ---- compares (L, bit 21, must be 0 on a 32-bit processor; bit 22 is reserved) ----
  {Opcode::cmp,     "cmp",    ext(31, 0), m_x | rc0 | 0x00600000, {O::crfd, O::ra, O::rb}, L::none, 0, {PPC_INS_CMPW}},
  {Opcode::cmpl,    "cmpl",   ext(31, 32), m_x | rc0 | 0x00600000, {O::crfd, O::ra, O::rb}, L::none, 0, {PPC_INS_CMPLW}},
  {Opcode::cmpi,    "cmpi",   primary(11), m_primary | 0x00200000, {O::crfd, O::ra, O::simm}, L::none, 0, {PPC_INS_CMPWI}},
  {Opcode::cmpli,   "cmpli",  primary(10), m_primary | 0x00200000, {O::crfd, O::ra, O::uimm}, L::none, 0, {PPC_INS_CMPLWI}},
  // ---- logical ----
  {Opcode::andi_dot,  "andi.",  primary(28), m_primary, {O::ra_w, O::rs, O::uimm}, L::none, always_rc, {PPC_INS_ANDI}},
  {Opcode::andis_dot, "andis.", primary(29), m_primary, {O::ra_w, O::rs, O::uimm}, L::none, always_rc, {PPC_INS_ANDIS}},
  {Opcode::ori,     "ori",    primary(24), m_primary, {O::ra_w, O::rs, O::uimm}, L::none, 0, {PPC_INS_ORI, PPC_INS_NOP}},
  {Opcode::oris,    "oris",   primary(25), m_primary, {O::ra_w, O::rs, O::uimm}, L::none, 0, {PPC_INS_ORIS}},
  {Opcode::xori,    "xori",   primary(26), m_primary, {O::ra_w, O::rs, O::uimm}, L::none, 0, {PPC_INS_XORI}},
  {Opcode::xoris,   "xoris",  primary(27), m_primary, {O::ra_w, O::rs, O::uimm}, L::none, 0, {PPC_INS_XORIS}},
  {Opcode::and_,    "and",    ext(31, 28), m_x, {O::ra_w, O::rs, O::rb}, L::none, has_rc, {PPC_INS_AND}},
  {Opcode::andc,    "andc",   ext(31, 60), m_x, {O::ra_w, O::rs, O::rb}, L::none, has_rc, {PPC_INS_ANDC}},
  {Opcode::or_,     "or",     ext(31, 444), m_x, {O::ra_w, O::rs, O::rb}, L::none, has_rc, {PPC_INS_OR, PPC_INS_MR}},
  {Opcode::orc,     "orc",    ext(31, 412), m_x, {O::ra_w, O::rs, O::rb}, L::none, has_rc, {PPC_INS_ORC}},
  {Opcode::xor_,    "xor",    ext(31, 316), m_x, {O::ra_w, O::rs, O::rb}, L::none, has_rc, {PPC_INS_XOR}},
  {Opcode::nand,    "nand",   ext(31, 476), m_x, {O::ra_w, O::rs, O::rb}, L::none, has_rc, {PPC_INS_NAND}},
  {Opcode::nor,     "nor",    ext(31, 124), m_x, {O::ra_w, O::rs, O::rb}, L::none, has_rc, {PPC_INS_NOR, PPC_INS_NOT}},
  {Opcode::eqv,     "eqv",    ext(31, 284), m_x, {O::ra_w, O::rs, O::rb}, L::none, has_rc, {PPC_INS_EQV}},
  {Opcode::extsb,   "extsb",  ext(31, 954), m_x | z_b, {O::ra_w, O::rs}, L::none, has_rc, {PPC_INS_EXTSB}},
  {Opcode::extsh,   "extsh",  ext(31, 922), m_x | z_b, {O::ra_w, O::rs}, L::none, has_rc, {PPC_INS_EXTSH}},
  {Opcode::cntlzw,  "cntlzw", ext(31, 26), m_x | z_b, {O::ra_w, O::rs}, L::none, has_rc, {PPC_INS_CNTLZW}},
  // ---- rotates and shifts ----
  {Opcode::rlwinm,  "rlwinm", primary(21), m_primary, {O::ra_w, O::rs, O::sh, O::mb, O::me}, L::none, has_rc, {}, false, rlwinm_family},
  {Opcode::rlwnm,   "rlwnm",  primary(23), m_primary, {O::ra_w, O::rs, O::rb, O::mb, O::me}, L::none, has_rc, {PPC_INS_RLWNM, PPC_INS_ROTLW}},
  {Opcode::rlwimi,  "rlwimi", primary(20), m_primary, {O::ra_rw, O::rs, O::sh, O::mb, O::me}, L::none, has_rc, {PPC_INS_RLWIMI}},
  {Opcode::slw,     "slw",    ext(31, 24), m_x, {O::ra_w, O::rs, O::rb}, L::none, has_rc, {PPC_INS_SLW}},
  {Opcode::srw,     "srw",    ext(31, 536), m_x, {O::ra_w, O::rs, O::rb}, L::none, has_rc, {PPC_INS_SRW}},
  {Opcode::sraw,    "sraw",   ext(31, 792), m_x, {O::ra_w, O::rs, O::rb}, L::none, has_rc | writes_ca, {PPC_INS_SRAW}},
  {Opcode::srawi,   "srawi",  ext(31, 824), m_x, {O::ra_w, O::rs, O::sh}, L::none, has_rc | writes_ca, {PPC_INS_SRAWI}},
  // ---- condition register ----
  {Opcode::crand,   "crand",  ext(19, 257), m_x | rc0, {O::crbd, O::crba, O::crbb}, L::none, 0, {PPC_INS_CRAND}},
  {Opcode::crandc,  "crandc", ext(19, 129), m_x | rc0, {O::crbd, O::crba, O::crbb}, L::none, 0, {PPC_INS_CRANDC}},
  {Opcode::creqv,   "creqv",  ext(19, 289), m_x | rc0, {O::crbd, O::crba, O::crbb}, L::none, 0, {PPC_INS_CREQV, PPC_INS_CRSET}},
  {Opcode::crnand,  "crnand", ext(19, 225), m_x | rc0, {O::crbd, O::crba, O::crbb}, L::none, 0, {PPC_INS_CRNAND}},
  {Opcode::crnor,   "crnor",  ext(19, 33), m_x | rc0, {O::crbd, O::crba, O::crbb}, L::none, 0, {PPC_INS_CRNOR, PPC_INS_CRNOT}},
  {Opcode::cror,    "cror",   ext(19, 449), m_x | rc0, {O::crbd, O::crba, O::crbb}, L::none, 0, {PPC_INS_CROR, PPC_INS_CRMOVE}},
  {Opcode::crorc,   "crorc",  ext(19, 417), m_x | rc0, {O::crbd, O::crba, O::crbb}, L::none, 0, {PPC_INS_CRORC}},
  {Opcode::crxor,   "crxor",  ext(19, 193), m_x | rc0, {O::crbd, O::crba, O::crbb}, L::none, 0, {PPC_INS_CRXOR, PPC_INS_CRCLR}},
  {Opcode::mcrf,    "mcrf",   ext(19, 0), 0xFC63FFFF, {O::crfd, O::crfs}, L::none, 0, {PPC_INS_MCRF}},
  {Opcode::mcrxr,   "mcrxr",  ext(31, 512), 0xFC7FFFFF, {O::crfd}, L::none, 0, {}, true},
  {Opcode::mtcrf,   "mtcrf",  ext(31, 144), 0xFC100FFF, {O::crm, O::rs}, L::none, 0, {PPC_INS_MTCRF, PPC_INS_MTCR}},
  {Opcode::mfcr,    "mfcr",   ext(31, 19), 0xFC1FFFFF, {O::rd}, L::none, 0, {PPC_INS_MFCR}},
  // ---- loads ----
  {Opcode::lbz,     "lbz",    primary(34), m_primary, {O::rd, O::d_ra0}, L::none, loads, {PPC_INS_LBZ}},
  {Opcode::lbzu,    "lbzu",   primary(35), m_primary, {O::rd, O::d_ra_update}, L::none, loads, {PPC_INS_LBZU}},
  {Opcode::lbzx,    "lbzx",   ext(31, 87), m_x | rc0, {O::rd, O::ra0, O::rb}, L::none, loads, {PPC_INS_LBZX}},
  {Opcode::lbzux,   "lbzux",  ext(31, 119), m_x | rc0, {O::rd, O::ra_rw, O::rb}, L::none, loads, {PPC_INS_LBZUX}},
  {Opcode::lhz,     "lhz",    primary(40), m_primary, {O::rd, O::d_ra0}, L::none, loads, {PPC_INS_LHZ}},
  {Opcode::lhzu,    "lhzu",   primary(41), m_primary, {O::rd, O::d_ra_update}, L::none, loads, {PPC_INS_LHZU}},
  {Opcode::lhzx,    "lhzx",   ext(31, 279), m_x | rc0, {O::rd, O::ra0, O::rb}, L::none, loads, {PPC_INS_LHZX}},
  {Opcode::lhzux,   "lhzux",  ext(31, 311), m_x | rc0, {O::rd, O::ra_rw, O::rb}, L::none, loads, {PPC_INS_LHZUX}},
  {Opcode::lha,     "lha",    primary(42), m_primary, {O::rd, O::d_ra0}, L::none, loads, {PPC_INS_LHA}},
  {Opcode::lhau,    "lhau",   primary(43), m_primary, {O::rd, O::d_ra_update}, L::none, loads, {PPC_INS_LHAU}},
  {Opcode::lhax,    "lhax",   ext(31, 343), m_x | rc0, {O::rd, O::ra0, O::rb}, L::none, loads, {PPC_INS_LHAX}},
  {Opcode::lhaux,   "lhaux",  ext(31, 375), m_x | rc0, {O::rd, O::ra_rw, O::rb}, L::none, loads, {PPC_INS_LHAUX}},
  {Opcode::lwz,     "lwz",    primary(32), m_primary, {O::rd, O::d_ra0}, L::none, loads, {PPC_INS_LWZ}},
  {Opcode::lwzu,    "lwzu",   primary(33), m_primary, {O::rd, O::d_ra_update}, L::none, loads, {PPC_INS_LWZU}},
  {Opcode::lwzx,    "lwzx",   ext(31, 23), m_x | rc0, {O::rd, O::ra0, O::rb}, L::none, loads, {PPC_INS_LWZX}},
  {Opcode::lwzux,   "lwzux",  ext(31, 55), m_x | rc0, {O::rd, O::ra_rw, O::rb}, L::none, loads, {PPC_INS_LWZUX}},
  {Opcode::lhbrx,   "lhbrx",  ext(31, 790), m_x | rc0, {O::rd, O::ra0, O::rb}, L::none, loads, {PPC_INS_LHBRX}},
  {Opcode::lwbrx,   "lwbrx",  ext(31, 534), m_x | rc0, {O::rd, O::ra0, O::rb}, L::none, loads, {PPC_INS_LWBRX}},
  {Opcode::lmw,     "lmw",    primary(46), m_primary, {O::rd, O::d_ra0}, L::none, loads, {PPC_INS_LMW}},
  {Opcode::lswi,    "lswi",   ext(31, 597), m_x | rc0, {O::rd, O::ra0, O::nb}, L::none, loads, {PPC_INS_LSWI}},
  {Opcode::lswx,    "lswx",   ext(31, 533), m_x | rc0, {O::rd, O::ra0, O::rb}, L::none, loads, {}, true},
  {Opcode::lwarx,   "lwarx",  ext(31, 20), m_x | rc0, {O::rd, O::ra0, O::rb}, L::none, loads, {PPC_INS_LWARX}},
  // ---- stores ----
  {Opcode::stb,     "stb",    primary(38), m_primary, {O::rs, O::d_ra0}, L::none, stores, {PPC_INS_STB}},
  {Opcode::stbu,    "stbu",   primary(39), m_primary, {O::rs, O::d_ra_update}, L::none, stores, {PPC_INS_STBU}},
  {Opcode::stbx,    "stbx",   ext(31, 215), m_x | rc0, {O::rs, O::ra0, O::rb}, L::none, stores, {PPC_INS_STBX}},
  {Opcode::stbux,   "stbux",  ext(31, 247), m_x | rc0, {O::rs, O::ra_rw, O::rb}, L::none, stores, {PPC_INS_STBUX}},
  {Opcode::sth,     "sth",    primary(44), m_primary, {O::rs, O::d_ra0}, L::none, stores, {PPC_INS_STH}},
  {Opcode::sthu,    "sthu",   primary(45), m_primary, {O::rs, O::d_ra_update}, L::none, stores, {PPC_INS_STHU}},
  {Opcode::sthx,    "sthx",   ext(31, 407), m_x | rc0, {O::rs, O::ra0, O::rb}, L::none, stores, {PPC_INS_STHX}},
  {Opcode::sthux,   "sthux",  ext(31, 439), m_x | rc0, {O::rs, O::ra_rw, O::rb}, L::none, stores, {PPC_INS_STHUX}},
  {Opcode::stw,     "stw",    primary(36), m_primary, {O::rs, O::d_ra0}, L::none, stores, {PPC_INS_STW}},
  {Opcode::stwu,    "stwu",   primary(37), m_primary, {O::rs, O::d_ra_update}, L::none, stores, {PPC_INS_STWU}},
  {Opcode::stwx,    "stwx",   ext(31, 151), m_x | rc0, {O::rs, O::ra0, O::rb}, L::none, stores, {PPC_INS_STWX}},
  {Opcode::stwux,   "stwux",  ext(31, 183), m_x | rc0, {O::rs, O::ra_rw, O::rb}, L::none, stores, {PPC_INS_STWUX}},
  {Opcode::sthbrx,  "sthbrx", ext(31, 918), m_x | rc0, {O::rs, O::ra0, O::rb}, L::none, stores, {PPC_INS_STHBRX}},
  {Opcode::stwbrx,  "stwbrx", ext(31, 662), m_x | rc0, {O::rs, O::ra0, O::rb}, L::none, stores, {PPC_INS_STWBRX}},
  {Opcode::stmw,    "stmw",   primary(47), m_primary, {O::rs, O::d_ra0}, L::none, stores, {PPC_INS_STMW}},
  {Opcode::stswi,   "stswi",  ext(31, 725), m_x | rc0, {O::rs, O::ra0, O::nb}, L::none, stores, {PPC_INS_STSWI}},
  {Opcode::stswx,   "stswx",  ext(31, 661), m_x | rc0, {O::rs, O::ra0, O::rb}, L::none, stores, {}, true},
  {Opcode::stwcx_dot, "stwcx.", ext(31, 150) | 1, m_x | rc0, {O::rs, O::ra0, O::rb}, L::none, stores | always_rc, {PPC_INS_STWCX}},
  // ---- branches (AA bit 1 and LK bit 0 free) ----
  {Opcode::b,       "b",      primary(18), m_primary, {O::li}, L::branch, 0, {PPC_INS_B, PPC_INS_BA, PPC_INS_BL, PPC_INS_BLA}},
  {Opcode::bc,      "bc",     primary(16), m_primary, {O::bo, O::bi, O::bd}, L::branch_conditional, 0, {}, false, bc_family},
  {Opcode::bclr,    "bclr",   ext(19, 16), m_x | z_b, {O::bo, O::bi}, L::branch_to_lr, 0, {}, false, bclr_family},
  {Opcode::bcctr,   "bcctr",  ext(19, 528), m_x | z_b, {O::bo, O::bi}, L::branch_to_ctr, 0, {}, false, bcctr_family},
  // ---- system ----
  {Opcode::sc,      "sc",     primary(17) | 2, 0xFFFFFFFF, {}, L::system_call, 0, {PPC_INS_SC}},
  {Opcode::rfi,     "rfi",    ext(19, 50), 0xFFFFFFFF, {}, L::exception_return, privileged, {PPC_INS_RFI}},
  {Opcode::tw,      "tw",     ext(31, 4), m_x | rc0, {O::to, O::ra, O::rb}, L::trap, 0, {}, false, tw_family},
  {Opcode::twi,     "twi",    primary(3), m_primary, {O::to, O::ra, O::simm}, L::trap, 0, {}, false, twi_family},
  {Opcode::mfspr,   "mfspr",  ext(31, 339), m_x | rc0, {O::rd, O::spr}, L::none, 0, {}, false, spr_family},
  {Opcode::mtspr,   "mtspr",  ext(31, 467), m_x | rc0, {O::spr, O::rs}, L::none, 0, {}, false, mtspr_family},
  {Opcode::mftb,    "mftb",   ext(31, 371), m_x | rc0, {O::rd, O::tbr}, L::none, 0, {PPC_INS_MFTB, PPC_INS_MFTBU}},
  {Opcode::mfmsr,   "mfmsr",  ext(31, 83), 0xFC1FFFFF, {O::rd}, L::none, privileged, {PPC_INS_MFMSR}},
  {Opcode::mtmsr,   "mtmsr",  ext(31, 146), 0xFC1FFFFF, {O::rs}, L::none, privileged, {PPC_INS_MTMSR}},
  {Opcode::mfsr,    "mfsr",   ext(31, 595), 0xFC10FFFF, {O::rd, O::sr}, L::none, privileged, {PPC_INS_MFSR}},
  {Opcode::mtsr,    "mtsr",   ext(31, 210), 0xFC10FFFF, {O::sr, O::rs}, L::none, privileged, {PPC_INS_MTSR}},
  {Opcode::mfsrin,  "mfsrin", ext(31, 659), 0xFC1F07FF, {O::rd, O::rb}, L::none, privileged, {PPC_INS_MFSRIN}},
  {Opcode::mtsrin,  "mtsrin", ext(31, 242), 0xFC1F07FF, {O::rs, O::rb}, L::none, privileged, {PPC_INS_MTSRIN}},
  {Opcode::sync,    "sync",   ext(31, 598), 0xFFFFFFFF, {}, L::none, 0, {PPC_INS_SYNC}},
  {Opcode::isync,   "isync",  ext(19, 150), 0xFFFFFFFF, {}, L::none, 0, {PPC_INS_ISYNC}},
  {Opcode::eieio,   "eieio",  ext(31, 854), 0xFFFFFFFF, {}, L::none, 0, {PPC_INS_EIEIO}},
  {Opcode::tlbie,   "tlbie",  ext(31, 306), 0xFFFF07FF, {O::rb}, L::none, privileged, {PPC_INS_TLBIE}},
  {Opcode::tlbsync, "tlbsync", ext(31, 566), 0xFFFFFFFF, {}, L::none, privileged, {PPC_INS_TLBSYNC}},
  {Opcode::eciwx,   "eciwx",  ext(31, 310), m_x | rc0, {O::rd, O::ra0, O::rb}, L::none, loads, {}, true},
  {Opcode::ecowx,   "ecowx",  ext(31, 438), m_x | rc0, {O::rs, O::ra0, O::rb}, L::none, stores, {}, true},
  // ---- cache ----
  {Opcode::dcbf,    "dcbf",   ext(31, 86), 0xFFE007FF, {O::ra0, O::rb}, L::none, 0, {PPC_INS_DCBF}},
  {Opcode::dcbi,    "dcbi",   ext(31, 470), 0xFFE007FF, {O::ra0, O::rb}, L::none, privileged | stores, {PPC_INS_DCBI}},
  {Opcode::dcbst,   "dcbst",  ext(31, 54), 0xFFE007FF, {O::ra0, O::rb}, L::none, 0, {PPC_INS_DCBST}},
  {Opcode::dcbt,    "dcbt",   ext(31, 278), 0xFFE007FF, {O::ra0, O::rb}, L::none, 0, {PPC_INS_DCBT}},
  {Opcode::dcbtst,  "dcbtst", ext(31, 246), 0xFFE007FF, {O::ra0, O::rb}, L::none, 0, {PPC_INS_DCBTST}},
  {Opcode::dcbz,    "dcbz",   ext(31, 1014), 0xFFE007FF, {O::ra0, O::rb}, L::none, stores, {PPC_INS_DCBZ}},
  {Opcode::icbi,    "icbi",   ext(31, 982), 0xFFE007FF, {O::ra0, O::rb}, L::none, 0, {PPC_INS_ICBI}},
  {Opcode::dcbz_l,  "dcbz_l", ext(4, 1014), 0xFFE007FF, {O::ra0_named, O::rb}, L::none, locked_cache | stores, {}, true},
  // ---- FP loads and stores ----
  {Opcode::lfs,     "lfs",    primary(48), m_primary, {O::frd, O::d_ra0}, L::none, fload | writes_ps1, {PPC_INS_LFS}},
  {Opcode::lfsu,    "lfsu",   primary(49), m_primary, {O::frd, O::d_ra_update}, L::none, fload | writes_ps1, {PPC_INS_LFSU}},
  {Opcode::lfsx,    "lfsx",   ext(31, 535), m_x | rc0, {O::frd, O::ra0, O::rb}, L::none, fload | writes_ps1, {PPC_INS_LFSX}},
  {Opcode::lfsux,   "lfsux",  ext(31, 567), m_x | rc0, {O::frd, O::ra_rw, O::rb}, L::none, fload | writes_ps1, {PPC_INS_LFSUX}},
  {Opcode::lfd,     "lfd",    primary(50), m_primary, {O::frd, O::d_ra0}, L::none, fload, {PPC_INS_LFD}},
  {Opcode::lfdu,    "lfdu",   primary(51), m_primary, {O::frd, O::d_ra_update}, L::none, fload, {PPC_INS_LFDU}},
  {Opcode::lfdx,    "lfdx",   ext(31, 599), m_x | rc0, {O::frd, O::ra0, O::rb}, L::none, fload, {PPC_INS_LFDX}},
  {Opcode::lfdux,   "lfdux",  ext(31, 631), m_x | rc0, {O::frd, O::ra_rw, O::rb}, L::none, fload, {PPC_INS_LFDUX}},
  {Opcode::stfs,    "stfs",   primary(52), m_primary, {O::frs, O::d_ra0}, L::none, fstore, {PPC_INS_STFS}},
  {Opcode::stfsu,   "stfsu",  primary(53), m_primary, {O::frs, O::d_ra_update}, L::none, fstore, {PPC_INS_STFSU}},
  {Opcode::stfsx,   "stfsx",  ext(31, 663), m_x | rc0, {O::frs, O::ra0, O::rb}, L::none, fstore, {PPC_INS_STFSX}},
  {Opcode::stfsux,  "stfsux", ext(31, 695), m_x | rc0, {O::frs, O::ra_rw, O::rb}, L::none, fstore, {PPC_INS_STFSUX}},
  {Opcode::stfd,    "stfd",   primary(54), m_primary, {O::frs, O::d_ra0}, L::none, fstore, {PPC_INS_STFD}},
  {Opcode::stfdu,   "stfdu",  primary(55), m_primary, {O::frs, O::d_ra_update}, L::none, fstore, {PPC_INS_STFDU}},
  {Opcode::stfdx,   "stfdx",  ext(31, 727), m_x | rc0, {O::frs, O::ra0, O::rb}, L::none, fstore, {PPC_INS_STFDX}},
  {Opcode::stfdux,  "stfdux", ext(31, 759), m_x | rc0, {O::frs, O::ra_rw, O::rb}, L::none, fstore, {PPC_INS_STFDUX}},
  {Opcode::stfiwx,  "stfiwx", ext(31, 983), m_x | rc0, {O::frs, O::ra0, O::rb}, L::none, fstore, {PPC_INS_STFIWX}},
  // ---- FP arithmetic: opcode 63 double, 59 single (A-form; unused register fields zero) ----
  {Opcode::fadd,    "fadd",    ext(63, 21), m_a | z_c, {O::frd, O::fra, O::frb}, L::none, fp | has_rc, {PPC_INS_FADD}},
  {Opcode::fadds,   "fadds",   ext(59, 21), m_a | z_c, {O::frd, O::fra, O::frb}, L::none, fp_single | has_rc, {PPC_INS_FADDS}},
  {Opcode::fsub,    "fsub",    ext(63, 20), m_a | z_c, {O::frd, O::fra, O::frb}, L::none, fp | has_rc, {PPC_INS_FSUB}},
  {Opcode::fsubs,   "fsubs",   ext(59, 20), m_a | z_c, {O::frd, O::fra, O::frb}, L::none, fp_single | has_rc, {PPC_INS_FSUBS}},
  {Opcode::fmul,    "fmul",    ext(63, 25), m_a | z_b, {O::frd, O::fra, O::frc}, L::none, fp | has_rc, {PPC_INS_FMUL}},
  {Opcode::fmuls,   "fmuls",   ext(59, 25), m_a | z_b, {O::frd, O::fra, O::frc}, L::none, fp_single | has_rc, {PPC_INS_FMULS}},
  {Opcode::fdiv,    "fdiv",    ext(63, 18), m_a | z_c, {O::frd, O::fra, O::frb}, L::none, fp | has_rc, {PPC_INS_FDIV}},
  {Opcode::fdivs,   "fdivs",   ext(59, 18), m_a | z_c, {O::frd, O::fra, O::frb}, L::none, fp_single | has_rc, {PPC_INS_FDIVS}},
  {Opcode::fmadd,   "fmadd",   ext(63, 29), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, fp | has_rc, {PPC_INS_FMADD}},
  {Opcode::fmadds,  "fmadds",  ext(59, 29), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, fp_single | has_rc, {PPC_INS_FMADDS}},
  {Opcode::fmsub,   "fmsub",   ext(63, 28), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, fp | has_rc, {PPC_INS_FMSUB}},
  {Opcode::fmsubs,  "fmsubs",  ext(59, 28), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, fp_single | has_rc, {PPC_INS_FMSUBS}},
  {Opcode::fnmadd,  "fnmadd",  ext(63, 31), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, fp | has_rc, {PPC_INS_FNMADD}},
  {Opcode::fnmadds, "fnmadds", ext(59, 31), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, fp_single | has_rc, {PPC_INS_FNMADDS}},
  {Opcode::fnmsub,  "fnmsub",  ext(63, 30), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, fp | has_rc, {PPC_INS_FNMSUB}},
  {Opcode::fnmsubs, "fnmsubs", ext(59, 30), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, fp_single | has_rc, {PPC_INS_FNMSUBS}},
  {Opcode::fres,    "fres",    ext(59, 24), m_a | z_a | z_c, {O::frd, O::frb}, L::none, fp_single | has_rc, {PPC_INS_FRES}},
  {Opcode::frsqrte, "frsqrte", ext(63, 26), m_a | z_a | z_c, {O::frd, O::frb}, L::none, fp | has_rc, {PPC_INS_FRSQRTE}},
  {Opcode::frsp,    "frsp",    ext(63, 12), m_x | z_a, {O::frd, O::frb}, L::none, fp_single | has_rc, {PPC_INS_FRSP}},
  {Opcode::fctiw,   "fctiw",   ext(63, 14), m_x | z_a, {O::frd, O::frb}, L::none, fp | has_rc, {PPC_INS_FCTIW}},
  {Opcode::fctiwz,  "fctiwz",  ext(63, 15), m_x | z_a, {O::frd, O::frb}, L::none, fp | has_rc, {PPC_INS_FCTIWZ}},
  {Opcode::fsel,    "fsel",    ext(63, 23), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, floating | has_rc, {PPC_INS_FSEL}},
  {Opcode::fabs,    "fabs",    ext(63, 264), m_x | z_a, {O::frd, O::frb}, L::none, floating | has_rc, {PPC_INS_FABS}},
  {Opcode::fnabs,   "fnabs",   ext(63, 136), m_x | z_a, {O::frd, O::frb}, L::none, floating | has_rc, {PPC_INS_FNABS}},
  {Opcode::fneg,    "fneg",    ext(63, 40), m_x | z_a, {O::frd, O::frb}, L::none, floating | has_rc, {PPC_INS_FNEG}},
  {Opcode::fmr,     "fmr",     ext(63, 72), m_x | z_a, {O::frd, O::frb}, L::none, floating | has_rc, {PPC_INS_FMR}},
  {Opcode::fcmpu,   "fcmpu",   ext(63, 0), m_x | rc0 | 0x00600000, {O::crfd, O::fra, O::frb}, L::none, fp, {PPC_INS_FCMPU}},
  {Opcode::fcmpo,   "fcmpo",   ext(63, 32), m_x | rc0 | 0x00600000, {O::crfd, O::fra, O::frb}, L::none, fp, {}, true},
  // ---- FPSCR ----
  {Opcode::mffs,    "mffs",    ext(63, 583), m_x | z_a | z_b, {O::frd}, L::none, floating | has_rc, {PPC_INS_MFFS}},
  {Opcode::mtfsf,   "mtfsf",   ext(63, 711), m_x | 0x02010000, {O::fm, O::frb}, L::none, fp | has_rc, {PPC_INS_MTFSF}},
  {Opcode::mtfsfi,  "mtfsfi",  ext(63, 134), m_x | 0x007F0800, {O::fpscr_field, O::fpscr_imm}, L::none, fp | has_rc, {PPC_INS_MTFSFI}},
  {Opcode::mtfsb0,  "mtfsb0",  ext(63, 70), m_x | z_a | z_b, {O::fpscr_bit}, L::none, fp | has_rc, {PPC_INS_MTFSB0}},
  {Opcode::mtfsb1,  "mtfsb1",  ext(63, 38), m_x | z_a | z_b, {O::fpscr_bit}, L::none, fp | has_rc, {PPC_INS_MTFSB1}},
  {Opcode::mcrfs,   "mcrfs",   ext(63, 64), 0xFC63FFFF, {O::crfd, O::fpscr_crfs}, L::none, fp, {PPC_INS_MCRFS}},
  // ---- paired-single loads and stores (750CL UM "psq_l" ...): opcodes 56/57/60/61, indexed forms under 4 ----
  {Opcode::psq_l,   "psq_l",   primary(56), m_primary, {O::frd, O::psq_d_ra0, O::psq_w, O::psq_i}, L::none, qload, {}, true},
  {Opcode::psq_lu,  "psq_lu",  primary(57), m_primary, {O::frd, O::psq_d_ra_update, O::psq_w, O::psq_i}, L::none, qload, {}, true},
  {Opcode::psq_lx,  "psq_lx",  ext(4, 6), 0xFC00007E, {O::frd, O::ra0_named, O::rb, O::psq_wx, O::psq_ix}, L::none, qload, {}, true},
  {Opcode::psq_lux, "psq_lux", ext(4, 38), 0xFC00007E, {O::frd, O::ra_rw, O::rb, O::psq_wx, O::psq_ix}, L::none, qload, {}, true},
  {Opcode::psq_st,  "psq_st",  primary(60), m_primary, {O::frs, O::psq_d_ra0, O::psq_w, O::psq_i}, L::none, qstore, {}, true},
  {Opcode::psq_stu, "psq_stu", primary(61), m_primary, {O::frs, O::psq_d_ra_update, O::psq_w, O::psq_i}, L::none, qstore, {}, true},
  {Opcode::psq_stx, "psq_stx", ext(4, 7), 0xFC00007E, {O::frs, O::ra0_named, O::rb, O::psq_wx, O::psq_ix}, L::none, qstore, {}, true},
  {Opcode::psq_stux, "psq_stux", ext(4, 39), 0xFC00007E, {O::frs, O::ra_rw, O::rb, O::psq_wx, O::psq_ix}, L::none, qstore, {}, true},
  // ---- paired-single arithmetic (opcode 4; A-form rows fix bits 1-5, X-form rows bits 1-10) ----
  {Opcode::ps_add,    "ps_add",    ext(4, 21), m_a | z_c, {O::frd, O::fra, O::frb}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_sub,    "ps_sub",    ext(4, 20), m_a | z_c, {O::frd, O::fra, O::frb}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_mul,    "ps_mul",    ext(4, 25), m_a | z_b, {O::frd, O::fra, O::frc}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_div,    "ps_div",    ext(4, 18), m_a | z_c, {O::frd, O::fra, O::frb}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_madd,   "ps_madd",   ext(4, 29), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_msub,   "ps_msub",   ext(4, 28), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_nmadd,  "ps_nmadd",  ext(4, 31), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_nmsub,  "ps_nmsub",  ext(4, 30), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_muls0,  "ps_muls0",  ext(4, 12), m_a | z_b, {O::frd, O::fra, O::frc}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_muls1,  "ps_muls1",  ext(4, 13), m_a | z_b, {O::frd, O::fra, O::frc}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_madds0, "ps_madds0", ext(4, 14), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_madds1, "ps_madds1", ext(4, 15), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_sum0,   "ps_sum0",   ext(4, 10), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_sum1,   "ps_sum1",   ext(4, 11), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_merge00, "ps_merge00", ext(4, 528), m_x, {O::frd, O::fra, O::frb}, L::none, ps_move | has_rc, {}, true},
  {Opcode::ps_merge01, "ps_merge01", ext(4, 560), m_x, {O::frd, O::fra, O::frb}, L::none, ps_move | has_rc, {}, true},
  {Opcode::ps_merge10, "ps_merge10", ext(4, 592), m_x, {O::frd, O::fra, O::frb}, L::none, ps_move | has_rc, {}, true},
  {Opcode::ps_merge11, "ps_merge11", ext(4, 624), m_x, {O::frd, O::fra, O::frb}, L::none, ps_move | has_rc, {}, true},
  {Opcode::ps_neg,    "ps_neg",    ext(4, 40), m_x | z_a, {O::frd, O::frb}, L::none, ps_move | has_rc, {}, true},
  {Opcode::ps_abs,    "ps_abs",    ext(4, 264), m_x | z_a, {O::frd, O::frb}, L::none, ps_move | has_rc, {}, true},
  {Opcode::ps_nabs,   "ps_nabs",   ext(4, 136), m_x | z_a, {O::frd, O::frb}, L::none, ps_move | has_rc, {}, true},
  {Opcode::ps_mr,     "ps_mr",     ext(4, 72), m_x | z_a, {O::frd, O::frb}, L::none, ps_move | has_rc, {}, true},
  {Opcode::ps_sel,    "ps_sel",    ext(4, 23), m_a, {O::frd, O::fra, O::frc, O::frb}, L::none, ps_move | has_rc, {}, true},
  {Opcode::ps_res,    "ps_res",    ext(4, 24), m_a | z_a | z_c, {O::frd, O::frb}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_rsqrte, "ps_rsqrte", ext(4, 26), m_a | z_a | z_c, {O::frd, O::frb}, L::none, ps | has_rc, {}, true},
  {Opcode::ps_cmpu0,  "ps_cmpu0",  ext(4, 0), m_x | rc0 | 0x00600000, {O::crfd, O::fra, O::frb}, L::none, floating | fpscr_rw | paired, {}, true},
  {Opcode::ps_cmpu1,  "ps_cmpu1",  ext(4, 64), m_x | rc0 | 0x00600000, {O::crfd, O::fra, O::frb}, L::none, floating | fpscr_rw | paired, {}, true},
  {Opcode::ps_cmpo0,  "ps_cmpo0",  ext(4, 32), m_x | rc0 | 0x00600000, {O::crfd, O::fra, O::frb}, L::none, floating | fpscr_rw | paired, {}, true},
  {Opcode::ps_cmpo1,  "ps_cmpo1",  ext(4, 96), m_x | rc0 | 0x00600000, {O::crfd, O::fra, O::frb}, L::none, floating | fpscr_rw | paired, {}, true},
};
// clang-format on

constexpr bool table_in_opcode_order() {
  for (size_t i = 0; i < std::size(table); ++i)
    if (static_cast<size_t>(table[i].opcode) != i) return false;
  return std::size(table) == static_cast<size_t>(Opcode::count);
}
static_assert(table_in_opcode_order(), "one row per Opcode, in runtime/core/ppc/instructions.h order");

constexpr bool masks_cover_matches() {
  for (const Encoding& row : table)
    if ((row.match & ~row.mask) != 0) return false;
  return true;
}
static_assert(masks_cover_matches(), "a row's pattern sets only bits its mask fixes");

/// Whether register `r` is among the `count` registers from `first` up, wrapping from r31 to r0.
constexpr bool in_range(unsigned r, unsigned first, unsigned count) { return ((r - first) & 31) < count; }

} // namespace

std::span<const Encoding> encodings() { return table; }

const Encoding& encoding(Opcode opcode) {
  const auto index = static_cast<size_t>(opcode);
  if (index >= std::size(table)) throw Error(fmt::format("PowerPC: no encoding for opcode {}", index));
  return table[index];
}

bool valid_form(const Encoding& row, uint32_t word) {
  const unsigned d = field::d(word), a = field::a(word), b = field::b(word);
  switch (row.opcode) {
    // Every BO is a valid bc/bclr: the processor ignores the z bits (PEM "BO Operand Encodings"). bcctr may not
    // decrement CTR (PEM bcctr: "the instruction form is invalid").
    case Opcode::bcctr: return (d & 4) != 0;
    // PEM, each load with update: "If rA = 0 or rA = rD, the instruction form is invalid."
    case Opcode::lbzu: case Opcode::lbzux: case Opcode::lhzu: case Opcode::lhzux: case Opcode::lhau:
    case Opcode::lhaux: case Opcode::lwzu: case Opcode::lwzux:
      return a != 0 && a != d;
    // Stores, FP and paired-single accesses with update: "If rA = 0, the instruction form is invalid."
    case Opcode::stbu: case Opcode::stbux: case Opcode::sthu: case Opcode::sthux: case Opcode::stwu:
    case Opcode::stwux: case Opcode::lfsu: case Opcode::lfsux: case Opcode::lfdu: case Opcode::lfdux:
    case Opcode::stfsu: case Opcode::stfsux: case Opcode::stfdu: case Opcode::stfdux: case Opcode::psq_lu:
    case Opcode::psq_lux: case Opcode::psq_stu: case Opcode::psq_stux:
      return a != 0;
    // lmw, lswi: rA may not be among the registers loaded (rA = 0 included); lswx: nor rD = rA or rB.
    case Opcode::lmw: return a < d;
    case Opcode::lswi: return !in_range(a, d, ((b == 0 ? 32 : b) + 3) / 4);
    case Opcode::lswx: return d != a && d != b;
    default: return true;
  }
}

const Encoding* match_encoding(uint32_t word) {
  // The rows by primary opcode (every row fixes it), so a word is tried against a handful of rows.
  static const auto by_primary = [] {
    std::array<std::vector<const Encoding*>, 64> rows;
    for (const Encoding& row : table) rows[row.match >> 26].push_back(&row);
    return rows;
  }();
  for (const Encoding* row : by_primary[word >> 26])
    if (row->matches(word) && valid_form(*row, word)) return row;
  return nullptr;
}

} // namespace kiln::ppc
