// The Maxwell/Pascal encoding table (notation in encoding_table.h).
// Facts from envytools envydis/gm107.c (opcode bits, field positions, modifier values), cross-checked with
// Ryujinx InstTable.cs/InstDecoders.cs field names and Mesa NAK sm50.rs; no code is taken from them.
#include "translator/sass/sm5x/encoding_table.h"

namespace kiln::sass::sm5x {
namespace {

/// Opcode bits are written as the top 16 bits of the word.
constexpr uint64_t top(uint64_t bits) { return bits << 48; }

// Shared modifier notations.
#define FSRC "R0, R8 n48 a46, "               // FADD/FMNMX destination and first source
#define CMPF "cmp@48:4=%FCMP"
#define CMPI "cmp@49:3=F,LT,EQ,LE,GT,NE,GE,T"
#define BOP "bop@45:2=AND,OR,XOR,?"
#define TEXDIM "E29:2+28:1=1D/2D/3D/CUBE/ARRAY_1D/ARRAY_2D/ARRAY_3D/ARRAY_CUBE"
#define BARMODE "mode@32:2+35:2=SYNC,ARRIVE,RED.POPC,SCAN,?,?,RED.AND,?,?,?,RED.OR,?,?,?,?,?"
#define LDSIZE "size@48:3=U8,S8,U16,S16,,64,128,?"
#define ATOMTYPE "type@"
#define ATOMTYPES "=,S32,U64,F32.FTZ.RN,?,S64,?,?"
// RED type 6: RED.E.ADD.F64.RN (sm_60 atomicAdd on doubles, CUDA 11.8 listings).
#define REDTYPES "=,S32,U64,F32.FTZ.RN,?,S64,F64.RN,?"
// Every bit of a word but those named: rows inferred from the CUDA 11.8 listings fix every bit no listed word varies.
constexpr uint64_t all_but(uint64_t fields) { return ~fields; }
constexpr uint64_t field(unsigned lsb, unsigned width) { return ((uint64_t{1} << width) - 1) << lsb; }
constexpr uint64_t kRegisterFields = field(0, 8) | field(8, 8) | field(16, 4);  // R0, R8, guard

} // namespace

std::vector<EncodingRow> encoding_rows() {
  return {
      // ---- float arithmetic -------------------------------------------------------------------------------
      {Opcode::fadd, top(0x5c58), top(0xfff8), FSRC "R20 n45 a49", "FTZ@44; rnd@39:2=%RND; SAT@50; CC@47"},
      {Opcode::fadd, top(0x4c58), top(0xfff8), FSRC "C n45 a49", "FTZ@44; rnd@39:2=%RND; SAT@50; CC@47"},
      {Opcode::fadd, top(0x3858), top(0xfef8), FSRC "F20 n45 a49", "FTZ@44; rnd@39:2=%RND; SAT@50; CC@47"},
      {Opcode::fadd32i, top(0x0800), top(0xfc00), "R0, R8 n56 a54, F32 n53 a57", "FTZ@55; CC@52"},
      {Opcode::fmul, top(0x5c68), top(0xfff8), "R0, R8, R20 n48", "fmz@44:2=%FMZ; scale@41:3=%SCALE; rnd@39:2=%RND; SAT@50; CC@47"},
      {Opcode::fmul, top(0x4c68), top(0xfff8), "R0, R8, C n48", "fmz@44:2=%FMZ; scale@41:3=%SCALE; rnd@39:2=%RND; SAT@50; CC@47"},
      {Opcode::fmul, top(0x3868), top(0xfef8), "R0, R8, F20 n48", "fmz@44:2=%FMZ; scale@41:3=%SCALE; rnd@39:2=%RND; SAT@50; CC@47"},
      {Opcode::fmul32i, top(0x1e00), top(0xff00), "R0, R8, F32", "fmz@53:2=%FMZ; SAT@55; CC@52"},
      {Opcode::ffma, top(0x5980), top(0xff80), "R0, R8, R20 n48, R39 n49", "fmz@53:2=%FMZ; rnd@51:2=%RND; SAT@50; CC@47"},
      {Opcode::ffma, top(0x4980), top(0xff80), "R0, R8, C n48, R39 n49", "fmz@53:2=%FMZ; rnd@51:2=%RND; SAT@50; CC@47"},
      {Opcode::ffma, top(0x3280), top(0xfe80), "R0, R8, F20 n48, R39 n49", "fmz@53:2=%FMZ; rnd@51:2=%RND; SAT@50; CC@47"},
      {Opcode::ffma, top(0x5180), top(0xff80), "R0, R8, R39 n48, C n49", "fmz@53:2=%FMZ; rnd@51:2=%RND; SAT@50; CC@47"},
      {Opcode::ffma32i, top(0x0c00), top(0xfc00), "R0, R8 n56, F32, R0 n57", "fmz@53:2=%FMZ; SAT@55; CC@52"},
      {Opcode::fmnmx, top(0x5c60), top(0xfff8), FSRC "R20 n45 a49, P39 i42", "FTZ@44; CC@47"},
      {Opcode::fmnmx, top(0x4c60), top(0xfff8), FSRC "C n45 a49, P39 i42", "FTZ@44; CC@47"},
      {Opcode::fmnmx, top(0x3860), top(0xfef8), FSRC "F20 n45 a49, P39 i42", "FTZ@44; CC@47"},
      {Opcode::mufu, top(0x5080), top(0xfff8), "R0, R8 n48 a46",
       "fn@20:4=COS,SIN,EX2,LG2,RCP,RSQ,RCP64H,RSQ64H,SQRT,?,?,?,?,?,?,?; SAT@50"},
      {Opcode::fsetp, top(0x5bb0), top(0xfff0), "P3, P0, R8 n43 a7, R20 n6 a44, P39 i42", CMPF "; FTZ@47; " BOP},
      {Opcode::fsetp, top(0x4bb0), top(0xfff0), "P3, P0, R8 n43 a7, C n6 a44, P39 i42", CMPF "; FTZ@47; " BOP},
      {Opcode::fsetp, top(0x36b0), top(0xfef0), "P3, P0, R8 n43 a7, F20 n6 a44, P39 i42", CMPF "; FTZ@47; " BOP},
      {Opcode::fset, top(0x5800), top(0xff00), "R0, R8 n43 a54, R20 n53 a44, P39 i42", "BF@52; " CMPF "; FTZ@55; " BOP "; CC@47"},
      {Opcode::fset, top(0x4800), top(0xfe00), "R0, R8 n43 a54, C n53 a44, P39 i42", "BF@52; " CMPF "; FTZ@55; " BOP "; CC@47"},
      {Opcode::fset, top(0x3000), top(0xfe00), "R0, R8 n43 a54, F20 n53 a44, P39 i42", "BF@52; " CMPF "; FTZ@55; " BOP "; CC@47"},
      {Opcode::fchk, top(0x5c88), top(0xfff8), "P0, R8, R20", "DIVIDE"},
      {Opcode::fswzadd, top(0x50f8), top(0xfff8), "R0, R8, R20, U8@28", "FTZ@44; rnd@39:2=%RND; NDV@38; CC@47"},
      {Opcode::rro, top(0x5c90), top(0xfff8), "R0, R20 n45 a49", "op@39:1=SINCOS,EX2"},
      {Opcode::rro, top(0x3890), top(0xfef8), "R0, F20 n45 a49", "op@39:1=SINCOS,EX2"},
      // ---- integer arithmetic -----------------------------------------------------------------------------
      {Opcode::iadd, top(0x5c10), top(0xfff8), "R0, R8 n49, R20 n48", "SAT@50; X@43; CC@47"},
      {Opcode::iadd, top(0x4c10), top(0xfff8), "R0, R8 n49, C n48", "SAT@50; X@43; CC@47"},
      {Opcode::iadd, top(0x3810), top(0xfef8), "R0, R8 n49, I20 n48", "SAT@50; X@43; CC@47"},
      {Opcode::iadd32i, top(0x1c00), top(0xfe80), "R0, R8 n56, I32", "SAT@54; X@53; CC@52"},
      {Opcode::iadd3, top(0x5cc0), top(0xfff0),
       "R0, R8 n51 s35:2=/H0/H1/?, R20 n50 s33:2=/H0/H1/?, R39 n49 s31:2=/H0/H1/?", "shift@37:2=,RS,LS,?; X@48; CC@47"},
      {Opcode::iadd3, top(0x4cc0), top(0xfff0), "R0, R8 n51, C n50, R39 n49", "X@48; CC@47"},
      {Opcode::iadd3, top(0x38c0), top(0xfef0), "R0, R8 n51, I20 n50, R39 n49", "X@48; CC@47"},
      {Opcode::iscadd, top(0x5c18), top(0xfff8), "R0, R8 n49, R20 n48, U5@39", "CC@47"},
      {Opcode::iscadd, top(0x4c18), top(0xfff8), "R0, R8 n49, C n48, U5@39", "CC@47"},
      {Opcode::iscadd, top(0x3818), top(0xfef8), "R0, R8 n49, I20 n48, U5@39", "CC@47"},
      {Opcode::iscadd32i, top(0x1400), top(0xfc00), "R0, R8, I32, U5@53", "CC@52"},
      {Opcode::imul, top(0x5c38), top(0xfff8), "R0, R8, R20", "types@40:2=U32.U32,S32.U32,U32.S32,; HI@39; CC@47"},
      {Opcode::imul, top(0x4c38), top(0xfff8), "R0, R8, C", "types@40:2=U32.U32,S32.U32,U32.S32,; HI@39; CC@47"},
      {Opcode::imul, top(0x3838), top(0xfef8), "R0, R8, I20", "types@40:2=U32.U32,S32.U32,U32.S32,; HI@39; CC@47"},
      {Opcode::imul32i, top(0x1f00), top(0xff00), "R0, R8, I32", "types@54:2=U32.U32,S32.U32,U32.S32,; HI@53; CC@52"},
      {Opcode::xmad, top(0x5b00), top(0xffc0), "R0, R8 s53:1=/H1, R20 s35:1=/H1, R39",
       "signs@48:2=%XSIGN; PSL@36; mode@50:3=,CLO,CHI,CSFU,CBCC,?,?,?; MRG@37; X@38; CC@47"},
      {Opcode::xmad, top(0x4e00), top(0xfe00), "R0, R8 s53:1=/H1, C s52:1=/H1, R39",
       "signs@48:2=%XSIGN; PSL@55; mode@50:2=,CLO,CHI,CSFU; MRG@56; X@54; CC@47"},
      {Opcode::xmad, top(0x3600), top(0xfec0), "R0, R8 s53:1=/H1, U16@20, R39",
       "signs@48:2=%XSIGN; PSL@36; mode@50:3=,CLO,CHI,CSFU,CBCC,?,?,?; MRG@37; X@38; CC@47"},
      {Opcode::xmad, top(0x5100), top(0xff80), "R0, R8 s53:1=/H1, R39 s52:1=/H1 u1, C",
       "signs@48:2=%XSIGN; mode@50:2=,CLO,CHI,CSFU; X@54; CC@47"},
      {Opcode::imnmx, top(0x5c20), top(0xfff8), "R0, R8, R20, P39 i42", "type@48:1=U32,; mode@43:2=,XLO,XMED,XHI; CC@47"},
      {Opcode::imnmx, top(0x4c20), top(0xfff8), "R0, R8, C, P39 i42", "type@48:1=U32,; mode@43:2=,XLO,XMED,XHI; CC@47"},
      {Opcode::imnmx, top(0x3820), top(0xfef8), "R0, R8, I20, P39 i42", "type@48:1=U32,; mode@43:2=,XLO,XMED,XHI; CC@47"},
      // ---- double precision (fields as the FADD/FMUL/FFMA/FSETP rows; the CUDA 11.8 listings confirm them) ----
      // DADD reads its second register through the third reuse flag (DADD R6, R2.reuse, R4.reuse has flags 0b101).
      {Opcode::dadd, top(0x5c70), top(0xfff8), "R0, R8 n48 a46, R20 n45 a49 u2", "rnd@39:2=%RND"},
      {Opcode::dadd, top(0x4c70), top(0xfff8), "R0, R8 n48 a46, C n45 a49", "rnd@39:2=%RND"},
      {Opcode::dadd, top(0x3870), top(0xfef8), "R0, R8 n48 a46, D20 n45 a49", "rnd@39:2=%RND"},
      {Opcode::dmul, top(0x5c80), top(0xfff8), "R0, R8, R20 n48", "rnd@39:2=%RND"},
      {Opcode::dmul, top(0x4c80), top(0xfff8), "R0, R8, C n48", "rnd@39:2=%RND"},
      {Opcode::dmul, top(0x3880), top(0xfef8), "R0, R8, D20 n48", "rnd@39:2=%RND"},
      {Opcode::dfma, top(0x5b70), top(0xfff0), "R0, R8, R20 n48, R39 n49", "rnd@50:2=%RND"},
      {Opcode::dfma, top(0x4b70), top(0xfff0), "R0, R8, C n48, R39 n49", "rnd@50:2=%RND"},
      {Opcode::dfma, top(0x3670), top(0xfef0), "R0, R8, D20 n48, R39 n49", "rnd@50:2=%RND"},
      {Opcode::dfma, top(0x5370), top(0xfff0), "R0, R8, R39 n48, C n49", "rnd@50:2=%RND"},
      // FCMP: R0 = compare(R39, 0) ? R8 : B, opcode pattern as ICMP's (CUDA 11.8 listings: the constant and literal
      // forms; compare 48:4 as FSETP's).
      {Opcode::fcmp, top(0x5ba0), top(0xfff0), "R0, R8, R20, R39", CMPF},
      {Opcode::fcmp, top(0x4ba0), top(0xfff0), "R0, R8, C, R39", CMPF},
      {Opcode::fcmp, top(0x36a0), top(0xfef0), "R0, R8, F20, R39", CMPF},
      {Opcode::fcmp, top(0x53a0), top(0xfff0), "R0, R8, R39, C", CMPF},
      // Half-precision pairs (sm_53+): the only forms the CUDA 11.8 listings hold. Swizzle 47:2 of the first source
      // and 28:2 of the second (none, F32, H0_H0, H1_H1), negate 31 of the second, .F32 result 49; HADD2's literal
      // form holds each half's top 10 bits (sign, exponent, 4 significand bits) at 30 (printed first) and 20.
      {Opcode::hfma2, top(0x5d00), top(0xfff8), "R0, R8 s47:2=/F32/H0_H0/H1_H1, R20 s28:2=/F32/H0_H0/H1_H1, R39", "F32@49"},
      {Opcode::hmul2, top(0x5d08), top(0xfff8), "R0, R8 s47:2=/F32/H0_H0/H1_H1, R20 s28:2=/F32/H0_H0/H1_H1", "F32@49"},
      {Opcode::hadd2, top(0x5d10), top(0xfff8), "R0, R8 s47:2=/F32/H0_H0/H1_H1, R20 n31 s28:2=/F32/H0_H0/H1_H1", "F32@49"},
      {Opcode::hadd2, top(0x7a00), all_but(kRegisterFields | field(20, 20)), "R0, R8, HF30, HF20", ""},
      // VMNMX.MX.MIN with every bit but the four registers fixed (the only form; applications.cu's clamp).
      {Opcode::vmnmx, 0x3b6f006060000000, all_but(kRegisterFields | field(20, 8) | field(39, 8)), "R0, R8, R20, R39", "MX; MIN"},
      // CSETP: a condition-code test combined with a predicate (CSETP.SFT.AND P0, PT, CC, PT).
      {Opcode::csetp, top(0x50a0), top(0xfff8), "P3, P0, E=CC, P39 i42", "cc@8:5=%CCTEST; " BOP},
      {Opcode::dsetp, top(0x5b80), top(0xfff0), "P3, P0, R8 n43 a7, R20 n6 a44, P39 i42", CMPF "; " BOP},
      {Opcode::dsetp, top(0x4b80), top(0xfff0), "P3, P0, R8 n43 a7, C n6 a44, P39 i42", CMPF "; " BOP},
      {Opcode::dsetp, top(0x3680), top(0xfef0), "P3, P0, R8 n43 a7, D20 n6 a44, P39 i42", CMPF "; " BOP},
      // ICMP: R0 = compare(R39, 0) ? R8 : R20 (the third source is compared with zero).
      {Opcode::icmp, top(0x5b40), top(0xfff0), "R0, R8, R20, R39", CMPI "; type@48:1=U32,"},
      {Opcode::icmp, top(0x4b40), top(0xfff0), "R0, R8, C, R39", CMPI "; type@48:1=U32,"},
      {Opcode::icmp, top(0x3640), top(0xfef0), "R0, R8, I20, R39", CMPI "; type@48:1=U32,"},
      {Opcode::icmp, top(0x5340), top(0xfff0), "R0, R8, R39, C", CMPI "; type@48:1=U32,"},
      // LEA: R0 = (R8 << shift) + B; LEA.HI shifts the 64-bit pair R39:R8 and adds the high word.
      {Opcode::lea, top(0x5bd0), top(0xfff8), "P48 ?7, R0, R8 n45, R20, U5@39 ?0", "X@46; CC@47"},
      {Opcode::lea, top(0x4bd0), top(0xfff8), "P48 ?7, R0, R8 n45, C, U5@39 ?0", "X@46; CC@47"},
      {Opcode::lea, top(0x36d0), top(0xfef8), "P48 ?7, R0, R8 n45, I20, U5@39 ?0", "X@46; CC@47"},
      {Opcode::lea, top(0x5bd8), top(0xfff8), "P48 ?7, R0, R8 n37, R20, R39, U5@28 ?0", "HI; X@38; CC@47"},
      {Opcode::lea, top(0x1800), top(0xf800), "P48 ?7, R0, R8 n56, C, R39, U5@51 ?0", "HI; X@57; CC@47"},
      {Opcode::isetp, top(0x5b60), top(0xfff0), "P3, P0, R8, R20, P39 i42", CMPI "; type@48:1=U32,; X@43; " BOP},
      {Opcode::isetp, top(0x4b60), top(0xfff0), "P3, P0, R8, C, P39 i42", CMPI "; type@48:1=U32,; X@43; " BOP},
      {Opcode::isetp, top(0x3660), top(0xfef0), "P3, P0, R8, I20, P39 i42", CMPI "; type@48:1=U32,; X@43; " BOP},
      {Opcode::iset, top(0x5b50), top(0xfff0), "R0, R8, R20, P39 i42", "BF@44; " CMPI "; type@48:1=U32,; X@43; " BOP "; CC@47"},
      {Opcode::iset, top(0x4b50), top(0xfff0), "R0, R8, C, P39 i42", "BF@44; " CMPI "; type@48:1=U32,; X@43; " BOP "; CC@47"},
      {Opcode::iset, top(0x3650), top(0xfef0), "R0, R8, I20, P39 i42", "BF@44; " CMPI "; type@48:1=U32,; X@43; " BOP "; CC@47"},
      {Opcode::lop, top(0x5c40), top(0xfff8), "P48 ?7, R0, R8 i39, R20 i40", "op@41:2=AND,OR,XOR,PASS_B; X@43; pop@44:2=,T,Z,NZ; CC@47"},
      {Opcode::lop, top(0x4c40), top(0xfff8), "P48 ?7, R0, R8 i39, C i40", "op@41:2=AND,OR,XOR,PASS_B; X@43; pop@44:2=,T,Z,NZ; CC@47"},
      {Opcode::lop, top(0x3840), top(0xfef8), "P48 ?7, R0, R8 i39, I20 i40", "op@41:2=AND,OR,XOR,PASS_B; X@43; pop@44:2=,T,Z,NZ; CC@47"},
      {Opcode::lop32i, top(0x0400), top(0xfc00), "R0, R8 i55, U32 i56", "op@53:2=AND,OR,XOR,PASS_B; X@57; CC@52"},
      {Opcode::lop3, top(0x5be0), top(0xfff8), "P48 ?7, R0, R8, R20, R39, U8@28", "LUT; X@38; pop@36:2=,T,Z,NZ; CC@47"},
      {Opcode::lop3, top(0x0200), top(0xfe00), "R0, R8, C, R39, U8@48", "LUT; X@56; CC@47"},
      {Opcode::lop3, top(0x3c00), top(0xfc00), "R0, R8, I20, R39, U8@48", "LUT; CC@47"},
      {Opcode::shl, top(0x5c48), top(0xfff8), "R0, R8, R20", "W@39; X@43; CC@47"},
      {Opcode::shl, top(0x4c48), top(0xfff8), "R0, R8, C", "W@39; X@43; CC@47"},
      {Opcode::shl, top(0x3848), top(0xfef8), "R0, R8, I20", "W@39; X@43; CC@47"},
      {Opcode::shr, top(0x5c28), top(0xfff8), "R0, R8, R20", "type@48:1=U32,; W@39; X@44; BREV@40; CC@47"},
      {Opcode::shr, top(0x4c28), top(0xfff8), "R0, R8, C", "type@48:1=U32,; W@39; X@44; BREV@40; CC@47"},
      {Opcode::shr, top(0x3828), top(0xfef8), "R0, R8, I20", "type@48:1=U32,; W@39; X@44; BREV@40; CC@47"},
      {Opcode::shf, top(0x5cf8), top(0xfff8), "R0, R8, R20, R39", "R; W@50; type@37:2=%SHFTYPE; x@48:2=%SHFX; CC@47"},
      {Opcode::shf, top(0x38f8), top(0xfef8), "R0, R8, U6@20, R39", "R; W@50; type@37:2=%SHFTYPE; x@48:2=%SHFX; CC@47"},
      {Opcode::shf, top(0x5bf8), top(0xfff8), "R0, R8, R20, R39", "L; W@50; type@37:2=%SHFTYPE; x@48:2=%SHFX; CC@47"},
      {Opcode::shf, top(0x36f8), top(0xfef8), "R0, R8, U6@20, R39", "L; W@50; type@37:2=%SHFTYPE; x@48:2=%SHFX; CC@47"},
      {Opcode::bfe, top(0x5c00), top(0xfff8), "R0, R8, R20", "type@48:1=U32,; BREV@40; CC@47"},
      {Opcode::bfe, top(0x4c00), top(0xfff8), "R0, R8, C", "type@48:1=U32,; BREV@40; CC@47"},
      {Opcode::bfe, top(0x3800), top(0xfef8), "R0, R8, I20", "type@48:1=U32,; BREV@40; CC@47"},
      {Opcode::bfi, top(0x5bf0), top(0xfff8), "R0, R8, R20, R39", "CC@47"},
      {Opcode::bfi, top(0x4bf0), top(0xfff8), "R0, R8, C, R39", "CC@47"},
      {Opcode::bfi, top(0x36f0), top(0xfef8), "R0, R8, I20, R39", "CC@47"},
      {Opcode::bfi, top(0x53f0), top(0xfff8), "R0, R8, R39, C", "CC@47"},
      {Opcode::flo, top(0x5c30), top(0xfff8), "R0, R20 i40", "type@48:1=U32,; SH@41; CC@47"},
      {Opcode::flo, top(0x4c30), top(0xfff8), "R0, C i40", "type@48:1=U32,; SH@41; CC@47"},
      {Opcode::flo, top(0x3830), top(0xfef8), "R0, I20 i40", "type@48:1=U32,; SH@41; CC@47"},
      {Opcode::popc, top(0x5c08), top(0xfff8), "R0, R20 i40", ""},
      {Opcode::popc, top(0x4c08), top(0xfff8), "R0, C i40", ""},
      {Opcode::popc, top(0x3808), top(0xfef8), "R0, I20 i40", ""},
      {Opcode::sel, top(0x5ca0), top(0xfff8), "R0, R8, R20, P39 i42", ""},
      {Opcode::sel, top(0x4ca0), top(0xfff8), "R0, R8, C, P39 i42", ""},
      {Opcode::sel, top(0x38a0), top(0xfef8), "R0, R8, I20, P39 i42", ""},
      {Opcode::prmt, top(0x5bc0), top(0xfff0), "R0, R8, R20, R39", "mode@48:3=,F4E,B4E,RC8,ECL,ECR,RC16,?"},
      {Opcode::prmt, top(0x4bc0), top(0xfff0), "R0, R8, C, R39", "mode@48:3=,F4E,B4E,RC8,ECL,ECR,RC16,?"},
      {Opcode::prmt, top(0x36c0), top(0xfef0), "R0, R8, I20, R39", "mode@48:3=,F4E,B4E,RC8,ECL,ECR,RC16,?"},
      {Opcode::prmt, top(0x53c0), top(0xfff0), "R0, R8, R39, C", "mode@48:3=,F4E,B4E,RC8,ECL,ECR,RC16,?"},
      {Opcode::psetp, top(0x5090), top(0xfff8), "P3, P0, P12 i15, P29 i32, P39 i42", "bop1@24:2=AND,OR,XOR,?; " BOP},
      {Opcode::pset, top(0x5088), top(0xfff8), "R0, P12 i15, P29 i32, P39 i42", "BF@44; bop1@24:2=AND,OR,XOR,?; " BOP "; CC@47"},
      {Opcode::p2r, top(0x38e8), top(0xfef8), "R0, E40:1=PR/CC, R8, I20", "byte@41:2=,B1,B2,B3"},
      {Opcode::r2p, top(0x38f0), top(0xfef8), "E40:1=PR/CC, R8, I20", "byte@41:2=,B1,B2,B3"},
      // ---- conversions and moves --------------------------------------------------------------------------
      {Opcode::f2f, top(0x5ca8), top(0xfff8), "R0, R20 n45 a49 s41:1=/H1", "FTZ@44; dst@8:2=%FTYPE; src@10:2=%FTYPE; rnd@39:2+42:1=%F2FRND; SAT@50; CC@47"},
      {Opcode::f2f, top(0x4ca8), top(0xfff8), "R0, C n45 a49 s41:1=/H1", "FTZ@44; dst@8:2=%FTYPE; src@10:2=%FTYPE; rnd@39:2+42:1=%F2FRND; SAT@50; CC@47"},
      {Opcode::f2f, top(0x38a8), top(0xfef8), "R0, F20 n45 a49 s41:1=/H1", "FTZ@44; dst@8:2=%FTYPE; src@10:2=%FTYPE; rnd@39:2+42:1=%F2FRND; SAT@50; CC@47"},
      {Opcode::f2i, top(0x5cb0), top(0xfff8), "R0, R20 n45 a49 s41:1=/H1", "FTZ@44; dst@8:2+12:1=%ITYPE; src@10:2=%FTYPE; rnd@39:2=,FLOOR,CEIL,TRUNC; CC@47"},
      {Opcode::f2i, top(0x4cb0), top(0xfff8), "R0, C n45 a49 s41:1=/H1", "FTZ@44; dst@8:2+12:1=%ITYPE; src@10:2=%FTYPE; rnd@39:2=,FLOOR,CEIL,TRUNC; CC@47"},
      {Opcode::f2i, top(0x38b0), top(0xfef8), "R0, F20 n45 a49 s41:1=/H1", "FTZ@44; dst@8:2+12:1=%ITYPE; src@10:2=%FTYPE; rnd@39:2=,FLOOR,CEIL,TRUNC; CC@47"},
      {Opcode::i2f, top(0x5cb8), top(0xfff8), "R0, R20 n45 a49 s41:2=/B1/B2/B3", "dst@8:2=%FTYPE; src@10:2+13:1=%ITYPE; rnd@39:2=%RND; CC@47"},
      {Opcode::i2f, top(0x4cb8), top(0xfff8), "R0, C n45 a49 s41:2=/B1/B2/B3", "dst@8:2=%FTYPE; src@10:2+13:1=%ITYPE; rnd@39:2=%RND; CC@47"},
      {Opcode::i2f, top(0x38b8), top(0xfef8), "R0, I20 n45 a49 s41:2=/B1/B2/B3", "dst@8:2=%FTYPE; src@10:2+13:1=%ITYPE; rnd@39:2=%RND; CC@47"},
      {Opcode::i2i, top(0x5ce0), top(0xfff8), "R0, R20 n45 a49 s41:2=/B1/B2/B3", "dst@8:2+12:1=%ITYPE; src@10:2+13:1=%ITYPE; SAT@50; CC@47"},
      {Opcode::i2i, top(0x4ce0), top(0xfff8), "R0, C n45 a49 s41:2=/B1/B2/B3", "dst@8:2+12:1=%ITYPE; src@10:2+13:1=%ITYPE; SAT@50; CC@47"},
      {Opcode::i2i, top(0x38e0), top(0xfef8), "R0, I20 n45 a49 s41:2=/B1/B2/B3", "dst@8:2+12:1=%ITYPE; src@10:2+13:1=%ITYPE; SAT@50; CC@47"},
      {Opcode::mov, top(0x5c98), top(0xfff8), "R0, R20, U4@39 ?15", ""},
      {Opcode::mov, top(0x4c98), top(0xfff8), "R0, C, U4@39 ?15", ""},
      {Opcode::mov, top(0x3898), top(0xfef8), "R0, I20, U4@39 ?15", ""},
      {Opcode::mov32i, top(0x0100), top(0xfff0), "R0, U32, U4@12 ?15", ""},
      {Opcode::s2r, top(0xf0c8), top(0xfff8), "R0, SR", ""},
      {Opcode::cs2r, top(0x50c8), top(0xfff8), "R0, SR", ""},
      // ---- memory -----------------------------------------------------------------------------------------
      {Opcode::ldc, top(0xef90), top(0xfff8), "R0, CX", LDSIZE "; mode@44:2=,IL,IS,ISL"},
      {Opcode::ld, top(0x8000), top(0xe000), "R0, M32, P58 ?7", "E@52; cache@56:2=,CG,CI,CV; size@53:3=U8,S8,U16,S16,,64,128,?"},
      {Opcode::st, top(0xa000), top(0xe000), "M32, R0, P58 ?7", "E@52; cache@56:2=,CG,CS,WT; size@53:3=U8,S8,U16,S16,,64,128,?"},
      {Opcode::ldg, top(0xeed0), top(0xfff8), "R0, M24", "E@45; cache@46:2=,CG,CI,CV; size@48:3=U8,S8,U16,S16,,64,128,U.128"},
      {Opcode::stg, top(0xeed8), top(0xfff8), "M24, R0", "E@45; cache@46:2=,CG,CS,WT; " LDSIZE},
      {Opcode::lds, top(0xef48), top(0xfff8), "R0, M24", "U@44; size@48:3=U8,S8,U16,S16,32,64,128,?"},
      {Opcode::sts, top(0xef58), top(0xfff8), "M24, R0", LDSIZE},
      {Opcode::ldl, top(0xef40), top(0xfff8), "R0, M24", "cache@44:2=,LU,CI,CV; " LDSIZE},
      {Opcode::stl, top(0xef50), top(0xfff8), "M24, R0", "cache@44:2=,CG,CS,WT; " LDSIZE},
      {Opcode::ald, top(0xefd8), top(0xfff8), "R0, A, R39 ?255", "O@32; P@31; size@47:2=,64,96,128"},
      {Opcode::ast, top(0xeff0), top(0xfff8), "A, R0, R39 ?255", "P@31; size@47:2=,64,96,128"},
      {Opcode::ipa, top(0xe000), top(0xff00), "R0, A28, R20, R39 ?255, P47 ?7 i50",
       "mode@54:2=PASS,,CONSTANT,SC; sample@52:2=,CENTROID,OFFSET,?; SAT@51; IDX@38"},
      {Opcode::out, top(0xfbe0), top(0xfff8), "R0, R8, R20", "prim@39:2=?,EMIT,CUT,EMIT_THEN_CUT"},
      {Opcode::out, top(0xebe0), top(0xfff8), "R0, R8, C", "prim@39:2=?,EMIT,CUT,EMIT_THEN_CUT"},
      {Opcode::out, top(0xf6e0), top(0xfef8), "R0, R8, I20", "prim@39:2=?,EMIT,CUT,EMIT_THEN_CUT"},
      // Global atomics: operation 23:3 (RED) / 52:4 (ATOM), type 20:3 / 49:3, address offset signed 20 bits at 28.
      {Opcode::red, top(0xebf8), top(0xfff8), "M20@28, R0", "E@48; op@23:3=ADD,MIN,MAX,INC,DEC,AND,OR,XOR; " ATOMTYPE "20:3" REDTYPES},
      // ATOM.CAS: compare value in R20, swap value in the register after it (after the pair for .64): the listings
      // print the implied register (ATOM.E.CAS R6, [R2], R8, R9 / ATOM.E.CAS.64 RZ, [R12], R4, R6).
      {Opcode::atom, top(0xeef0), top(0xfffe), "R0, M20@28, R20, R20+1", "E@48; CAS"},
      {Opcode::atom, top(0xeef2), top(0xfffe), "R0, M20@28, R20, R20+2", "E@48; CAS.64"},
      // Shared atomics (CUDA 11.8 listings): operation 52:4 as ATOM's, type 28:2 (U32, S32, U64, S64 by the
      // S32/U64 words seen), address [R8 + 22 bits at 30 counting words]; CAS has its own opcode (0xee4/0xee5).
      {Opcode::atoms, top(0xec00), top(0xff00), "R0, M22@30 x4, R20",
       "op@52:4=ADD,MIN,MAX,INC,DEC,AND,OR,XOR,EXCH,?,?,?,?,?,?,?; type@28:2=,S32,U64,S64"},
      {Opcode::atoms, top(0xee40), top(0xfff0), "R0, M22@30 x4, R20, R20+1", "CAS"},
      {Opcode::atoms, top(0xee50), top(0xfff0), "R0, M22@30 x4, R20, R20+2", "CAS.64"},
      // Surface loads and stores (CUDA 11.8 texture_surface.cu, the only forms ptxas wrote): surface index 36:13 as
      // TEX's, dimension 33:3 (1D = 0, 2D = 3), out-of-bounds handling 49:2 (IGN = 0, TRAP = 2); bits 20-27 (0x0c)
      // and .D.BA (51-52) are fixed as every word has them.
      {Opcode::suld, top(0xeb18) | (0x0cULL << 20), all_but(kRegisterFields | field(33, 3) | field(36, 13) | field(49, 2)),
       "R0, [R8], U13@36", "D; BA; dim@33:3=1D,?,?,2D,?,?,?,?; clamp@49:2=IGN,?,TRAP,?"},
      {Opcode::sust, top(0xeb38) | (0x0cULL << 20), all_but(kRegisterFields | field(33, 3) | field(36, 13) | field(49, 2)),
       "[R8], R0, U13@36", "D; BA; dim@33:3=1D,?,?,2D,?,?,?,?; clamp@49:2=IGN,?,TRAP,?"},
      {Opcode::atom, top(0xed00), top(0xff00), "R0, M20@28, R20", "E@48; op@52:4=ADD,MIN,MAX,INC,DEC,AND,OR,XOR,EXCH,?,?,?,?,?,?,?; " ATOMTYPE "49:3" ATOMTYPES},
      {Opcode::membar, top(0xef98), top(0xfff8), "", "level@8:2=CTA,GL,SYS,?; invalidate@0:2=,IVALLD,IVALLT,IVALLTD"},
      // ---- texture ----------------------------------------------------------------------------------------
      {Opcode::tex, top(0xc038), top(0xfc38), "R0, R8, R20, U13@36, " TEXDIM ", U4@31",
       "lod@55:3=%TEXLOD; AOFFI@54; DC@50; NODEP@49"},
      {Opcode::tex, top(0xdeb8), top(0xfff8), "R0, R8, R20, " TEXDIM ", U4@31", "B; lod@37:3=%TEXLOD; AOFFI@36; DC@50; NDV@35; NODEP@49"},
      // TEXS/TLDS as the CUDA 11.8 listings print them: TEXS.LL ... 2D, RG (the target's LOD part after the mnemonic,
      // the mask as components), an RZ fourth operand omitted.
      {Opcode::texs, top(0xd000), top(0xf600), "R28, R0, R8, R20 ?255, U13@36, E53:4=%TEXSTARGET m, U3@50 c", "prec@59:1=F16,; NODEP@49"},
      {Opcode::tlds, top(0xd200), top(0xf600), "R28, R0, R8, R20 ?255, U13@36, E53:4=%TLDSTARGET m, U3@50 c", "prec@59:1=F16,; NODEP@49"},
      {Opcode::tld, top(0xdc38), top(0xff38), "R0, R8, R20, U13@36, " TEXDIM ", U4@31", "lod@55:1=LZ,LL; AOFFI@35; MS@50; CL@54; NODEP@49"},
      {Opcode::tld, top(0xdd38), top(0xff38), "R0, R8, R20, " TEXDIM ", U4@31", "B; lod@55:1=LZ,LL; AOFFI@35; MS@50; CL@54; NODEP@49"},
      {Opcode::tld4, top(0xc838), top(0xfc38), "R0, R8, R20 ?255, U13@36, " TEXDIM ", U4@31",
       "comp@56:2=R,G,B,A; offset@54:2=,AOFFI,PTP,?; DC@50; NDV@35; NODEP@49"},
      {Opcode::tld4, top(0xdef8), top(0xfff8), "R0, R8, R20, " TEXDIM ", U4@31",
       "B; comp@38:2=R,G,B,A; offset@36:2=,AOFFI,PTP,?; DC@50; NDV@35; NODEP@49"},
      {Opcode::tld4s, top(0xdf00), top(0xff40), "R28, R0, R8, R20, U13@36", "F16@55; comp@52:2=R,G,B,A; AOFFI@51; DC@50; NODEP@49"},
      {Opcode::txq, top(0xdf48), top(0xfff8), "R0, R8, E22:6=%TXQ, U13@36, U4@31", "NODEP@49"},
      {Opcode::txq, top(0xdf50), top(0xfff8), "R0, R8, E22:6=%TXQ, U13@36, U4@31", "B; NODEP@49"},
      {Opcode::tmml, top(0xdf58), top(0xfff8), "R0, R8, U13@36, " TEXDIM ", U4@31", "LOD; NDV@35; NODEP@49"},
      {Opcode::tmml, top(0xdf60), top(0xfff8), "R0, R8, R20, " TEXDIM ", U4@31", "B; LOD; NDV@35; NODEP@49"},
      // ---- control ----------------------------------------------------------------------------------------
      {Opcode::kil, top(0xe330), top(0xfff0), "", "cc@0:5=%CC"},
      // A condition-code test prints as BRA's first operand (BRA CC.NEU, 0x150).
      {Opcode::bra, top(0xe240), top(0xfff0) | 0x20, "T", "U@7; LMT@6; &cc@0:5=%CC"},
      {Opcode::brx, top(0xe250), top(0xfff0) | 0x20, "R8, S24@20", "LMT@6; cc@0:5=%CC"},
      {Opcode::ssy, top(0xe290), top(0xfff0) | 0x20, "T", "", false},
      {Opcode::pbk, top(0xe2a0), top(0xfff0) | 0x20, "T", "", false},
      {Opcode::pcnt, top(0xe2b0), top(0xfff0) | 0x20, "T", "", false},
      {Opcode::sync, top(0xf0f8), top(0xfff8), "", "cc@0:5=%CC"},
      {Opcode::brk, top(0xe340), top(0xfff0), "", "cc@0:5=%CC"},
      {Opcode::cont, top(0xe350), top(0xfff0), "", "cc@0:5=%CC"},
      {Opcode::exit, top(0xe300), top(0xfff0), "", "KEEPREFCOUNT@5; cc@0:5=%CC"},
      {Opcode::ret, top(0xe320), top(0xfff0), "", "cc@0:5=%CC"},
      // CAL (relative call): bit 6 is set in every call ptxas writes; nvdisasm prints no flag for it.
      {Opcode::cal, top(0xe260) | 0x40, top(0xfff0) | 0x60, "T", "", false},
      // JCAL: an absolute call, its target relocated (0 in the word; the listings name the callee, at code offset 8).
      {Opcode::jcal, top(0xe220) | 0x40, top(0xfff0) | 0x60, "TA", "", false},
      // BPT.TRAP 0x1 (-G code's trap): the one word the listings hold; the code at 20:20.
      {Opcode::bpt, top(0xe3a0) | 0xc0, all_but(field(20, 20)), "U20@20", "TRAP", false},
      // BAR: bits 43-44 choose register or literal for the barrier number (8) and the thread count (20).
      // Mode 32:2 and reduction 35:2 in one field: BAR.RED without AND/OR is the population count (BAR.RED.POPC).
      {Opcode::bar, top(0xf0a8), top(0xfff8) | 0x180000000000, "R8, R20, P39 ?7 i42", BARMODE},
      {Opcode::bar, top(0xf0a8) | 0x080000000000, top(0xfff8) | 0x180000000000, "R8, U12@20, P39 ?7 i42", BARMODE},
      {Opcode::bar, top(0xf0a8) | 0x100000000000, top(0xfff8) | 0x180000000000, "U8@8, R20 ?255, P39 ?7 i42", BARMODE},
      {Opcode::bar, top(0xf0a8) | 0x180000000000, top(0xfff8) | 0x180000000000, "U8@8, U12@20 ?0, P39 ?7 i42", BARMODE},
      // B2R.RESULT: the barrier reduction's result (the listings' only form: bit 32 and 0xff at 8 fixed).
      {Opcode::b2r, top(0xf0b8) | (1ULL << 32) | 0xff00, all_but(field(0, 8) | field(16, 4) | field(45, 3)), "R0, P45 ?7", "RESULT"},
      {Opcode::vote, top(0x50d8), top(0xfff8), "R0, P45, P39 i42", "mode@48:2=ALL,ANY,EQ,?"},
      // SHFL: bits 28-29 choose register or literal for the lane (20) and the clamp/segment mask (39 / 34).
      {Opcode::shfl, top(0xef10), top(0xfff8) | 0x30000000, "P48, R0, R8, R20, R39", "mode@30:2=IDX,UP,DOWN,BFLY"},
      {Opcode::shfl, top(0xef10) | 0x10000000, top(0xfff8) | 0x30000000, "P48, R0, R8, U5@20, R39", "mode@30:2=IDX,UP,DOWN,BFLY"},
      {Opcode::shfl, top(0xef10) | 0x20000000, top(0xfff8) | 0x30000000, "P48, R0, R8, R20, U13@34", "mode@30:2=IDX,UP,DOWN,BFLY"},
      {Opcode::shfl, top(0xef10) | 0x30000000, top(0xfff8) | 0x30000000, "P48, R0, R8, U5@20, U13@34", "mode@30:2=IDX,UP,DOWN,BFLY"},
      // DEPBAR.LE waits until scoreboard 26:3 counts at most 20:6; without .LE it waits for the scoreboards of 0:6,
      // printed as a set (DEPBAR {1}; the listings hold no DEPBAR without .LE that names a scoreboard or count).
      {Opcode::depbar, top(0xf0f0) | field(29, 1), top(0xfff8) | field(29, 1), "E26:3=SB0/SB1/SB2/SB3/SB4/SB5/SB6/SB7, U6@20, U6@0 ?0", "LE"},
      {Opcode::depbar, top(0xf0f0), top(0xfff8) | field(20, 12), "U6@0 b", ""},
      {Opcode::nop, top(0x50b0), top(0xfff8), "U16@20 ?0", "TRIG@13; cc@8:5=%CC"},
  };
}

} // namespace kiln::sass::sm5x
