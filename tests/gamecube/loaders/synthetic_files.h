#pragma once
// Small DOL, REL and disc image files built field by field (the layouts of recompiler/loaders/dol/dol.h, rel.h
// and disc_image.h) and a CodeWarrior map: the loader tests' inputs and the fuzz targets' seeds.
#include <string_view>

#include "recompiler/loaders/dol/rel.h"
#include "tests/gamecube/loaders/bytes_builder.h"

namespace kiln::gamecube::testing {

// A DOL with text0 (0x20 bytes at 0x80003100), data0 (0x10 bytes at 0x80004000) and a BSS of 0x40 bytes from
// 0x80003ff0 that covers data0: only [0x80003ff0, 0x80004000) and [0x80004010, 0x80004030) are zero-filled.
inline Bytes small_dol() {
  Bytes d(0x130);
  d.u32(0x00, 0x100).u32(0x48, 0x80003100).u32(0x90, 0x20);             // text0
  d.u32(0x1c, 0x120).u32(0x64, 0x80004000).u32(0xac, 0x10);             // data0
  d.u32(0xd8, 0x80003ff0).u32(0xdc, 0x40).u32(0xe0, 0x80003104);        // bss, entry
  for (uint32_t i = 0; i < 8; ++i) d.u32(0x100 + 4 * i, 0x60000000 + i); // text words
  for (uint32_t i = 0; i < 4; ++i) d.u32(0x120 + 4 * i, 0xd0d00000 + i); // data words
  return d;
}

// A version-3 REL, module 1: section 1 text (0x10 bytes at 0x70, executable), section 2 data (8 bytes at 0x80),
// section 3 the .bss (0x20 bytes). Imports: itself (a bl from text+4 to text+0xc, an lis/addi pair at text+8 for
// bss+4), then the DOL (two words of data: 0x80003100 and 0x80003104).
inline Bytes small_rel() {
  Bytes r(0x100);
  r.u32(0x00, 1).u32(0x0c, 4).u32(0x10, 0x4c).u32(0x1c, 3).u32(0x20, 0x20);
  r.u32(0x24, 0x98).u32(0x28, 0x88).u32(0x2c, 0x10);
  r.u8(0x30, 1).u32(0x34, 0x0).u8(0x32, 1).u32(0x3c, 0xc); // prolog text+0, unresolved text+0xc
  r.u32(0x40, 8).u32(0x44, 32).u32(0x48, 0x98);
  r.u32(0x54, 0x70 | 1).u32(0x58, 0x10);                   // section 1
  r.u32(0x5c, 0x80).u32(0x60, 8);                          // section 2
  r.u32(0x64, 0).u32(0x68, 0x20);                          // section 3: .bss
  r.u32(0x70, 0x7c0802a6).u32(0x74, 0x48000001).u32(0x78, 0x3c600000).u32(0x7c, 0x4e800020);
  r.u32(0x88, 1).u32(0x8c, 0x98).u32(0x90, 0).u32(0x94, 0xc8); // imports
  const auto entry = [&](uint32_t at, uint16_t distance, uint8_t type, uint8_t section, uint32_t addend) {
    r.u16(at, distance).u8(at + 2, type).u8(at + 3, section).u32(at + 4, addend);
  };
  entry(0x98, 0, rel_type::dolphin_section, 1, 0);
  entry(0xa0, 4, rel_type::ppc_rel24, 1, 0xc);
  entry(0xa8, 6, rel_type::ppc_addr16_ha, 3, 4);
  entry(0xb0, 0, rel_type::ppc_addr16_lo, 3, 4); // lands on the same halfword: a later entry may rewrite it
  entry(0xb8, 0, rel_type::dolphin_end, 0, 0);
  entry(0xc8, 0, rel_type::dolphin_section, 2, 0);
  entry(0xd0, 0, rel_type::ppc_addr32, 0, 0x80003100);
  entry(0xd8, 4, rel_type::ppc_addr32, 0, 0x80003104);
  entry(0xe0, 0, rel_type::dolphin_end, 0, 0);
  return r;
}

inline constexpr uint32_t fst_at = 0x2600;

// boot.bin for "GKLE01" version 1, bi2.bin (24 MiB, America), a 0x20-byte apploader, the small DOL at 0x2480, and
// an FST of root, sub/ (holding m.REL), readme and an empty file; file bytes from 0x2800.
inline Bytes small_disc() {
  Bytes d(0x2a00);
  d.text(0, "GKLE").text(4, "01").u8(7, 1).u32(0x1c, 0xc2339f3d).text(0x20, "kiln test disc");
  d.u32(0x420, 0x2480).u32(0x424, fst_at).u32(0x428, 5 * 12 + 23).u32(0x42c, 5 * 12 + 23);
  d.u32(0x440 + 4, 0x01800000).u32(0x440 + 0x18, 1);
  d.text(0x2440, "2001/10/05").u32(0x2450, 0x81200000).u32(0x2454, 0x20).u32(0x2458, 0);
  d.bytes(0x2480, small_dol().data);
  const auto entry = [&](uint32_t i, uint32_t word0, uint32_t a, uint32_t b) { d.u32(fst_at + 12 * i, word0).u32(fst_at + 12 * i + 4, a).u32(fst_at + 12 * i + 8, b); };
  entry(0, 0x01000000, 0, 5);
  entry(1, 0x01000000 | 0, 0, 3);  // "sub"
  entry(2, 4, 0x2800, 8);          // "m.REL"
  entry(3, 10, 0x2808, 4);         // "readme"
  entry(4, 17, 0x2810, 0);         // "empty"
  d.bytes(fst_at + 60, std::vector<uint8_t>{'s', 'u', 'b', 0, 'm', '.', 'R', 'E', 'L', 0, 'r', 'e', 'a', 'd', 'm', 'e', 0,
                                            'e', 'm', 'p', 't', 'y', 0});
  d.text(0x2800, "RELBYTES").text(0x2808, "text");
  return d;
}

// A CodeWarrior map in the linker's layout: the link tree, .init/.text blocks of the older 3-column form with a
// section row, an UNUSED row and an "(entry of ...)" row, a .data block with the file-offset column, the memory map.
inline constexpr std::string_view codewarrior_map = R"(Link map of __start
  1] __start (func,global) found in os.a __start.c
  2] main (func,global) found in main.o

.init section layout
  Starting        Virtual
  address  Size   address
  -----------------------
  00000000 000064 80003100  1 .init 	os.a __start.c
  00000000 000064 80003100  4 __start 	os.a __start.c
  00000064 000000 80003164 __start_entry (entry of __start) 	os.a __start.c

.text section layout
  Starting        Virtual
  address  Size   address
  -----------------------
  UNUSED   000048 ........ unused_function main.o
  00000000 000050 80005940  4 main 	main.o
  00000050 000050 80005990  4 helper 	main.o

.data section layout
  Starting        Virtual  File
  address  Size   address  offset
  ---------------------------------
  00000000 000010 80210000 0020d000  8 table 	main.o
  00000010 000004 80210010 0020d010 16 operator new(unsigned long) 	new.o (lib.a)

Memory map:
                   Starting Size     File
                   address           Offset
              .init  80003100 00000064 00000100
)";

} // namespace kiln::gamecube::testing
