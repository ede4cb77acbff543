// DOL and REL loaders and the module linker on inputs built field by field at the offsets YAGCD 14.2 (DOL) and
// the REL format's header/section/import/relocation tables give, with expected values worked out from the
// PowerPC ELF ABI's relocation formulas (#lo, #hi, #ha, the branch fields): every accepted field, every refusal.
#include <catch2/catch.hpp>

#include <functional>
#include <optional>
#include <string>

#include "recompiler/loaders/dol/dol.h"
#include "recompiler/loaders/dol/module_link.h"
#include "recompiler/loaders/dol/rel.h"
#include "runtime/base/error.h"
#include "tests/gamecube/loaders/synthetic_files.h"

namespace {

using namespace kiln;
using namespace kiln::gamecube;
using kiln::gamecube::testing::Bytes;
using kiln::gamecube::testing::small_dol;
using kiln::gamecube::testing::small_rel;

/// Runs `f` expecting a kiln::Error whose message holds `expected` and whose location is `file` at `offset`
/// (no offset: a location without one).
void require_error(const std::function<void()>& f, const std::string& expected, const std::string& file,
                   std::optional<uint64_t> offset) {
  try {
    f();
    FAIL("no error; expected: " << expected);
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.message().find(expected) != std::string::npos);
    CHECK(e.location().file == file);
    CHECK(e.location().offset == offset);
  }
}

TEST_CASE("gamecube DOL: sections, BSS around a data section, entry", "[gamecube]") {
  const Dol dol = parse_dol(small_dol().data, "small.dol");
  REQUIRE(dol.sections.size() == 2);
  CHECK(dol.sections[0].name() == "text0");
  CHECK(dol.sections[1].name() == "data0");
  CHECK(dol.entry == 0x80003104);
  CHECK(dol.file_end == 0x130);
  const GuestImage& image = dol.image;
  REQUIRE(image.segments.size() == 4);
  CHECK(image.segments[0].name == "text0");
  CHECK(image.segments[0].executable);
  CHECK_FALSE(image.segments[0].writable);
  CHECK(image.segments[1].name == "bss");
  CHECK(image.segments[1].address == 0x80003ff0);
  CHECK(image.segments[1].size == 0x10);
  CHECK(image.segments[2].name == "data0");
  CHECK(image.segments[2].writable);
  CHECK(image.segments[3].name == "bss1");
  CHECK(image.segments[3].address == 0x80004010);
  CHECK(image.segments[3].size == 0x20);
  CHECK(image.entry == 0x80003104);
  CHECK(image.read_word(0x80003104) == 0x60000001);
  CHECK(image.read_word(0x8000400c) == 0xd0d00003);
  CHECK(image.read_word(0x8000402c) == 0);
  CHECK(image.notes.empty());
  CHECK(is_dol(small_dol().data));
  CHECK_FALSE(is_dol(small_rel().data));
  require_error([&] { (void)image.read(0x80003120, 4); }, "no segment of small.dol holds address 0x80003120", "small.dol", std::nullopt);
}

TEST_CASE("gamecube DOL: the uncached mirror is MEM1 too, and a size-0 section with stale fields is noted", "[gamecube]") {
  Bytes d = small_dol();
  d.u32(0x64, 0xc0004000).u32(0xd8, 0xc0003ff0);
  d.u32(0x04, 0x1234).u32(0x4c, 0x80009000); // text1: size 0
  const Dol dol = parse_dol(d.data, "mirror.dol");
  CHECK(dol.image.segments[2].address == 0xc0004000);
  REQUIRE(dol.image.notes.size() == 1);
  CHECK(dol.image.notes[0].find("text1 has size 0 (unused) but offset 0x1234 and address 0x80009000") != std::string::npos);
}

TEST_CASE("gamecube DOL: malformed headers name the field", "[gamecube]") {
  const auto refuse = [](Bytes d, const std::string& expected, uint64_t offset) {
    require_error([&] { (void)parse_dol(d.data, "bad.dol"); }, expected, "bad.dol", offset);
  };
  refuse(Bytes(0x80), "a DOL header is 0x100 bytes, but the file has only 0x80", 0);
  refuse(small_dol().u32(0x1c, 0x128), "data0 [0x128, 0x138) runs past the end of the file (0x130 bytes)", 0x1c);
  refuse(small_dol().u32(0x00, 0x80), "text0 starts at file offset 0x80, inside the 0x100-byte header", 0x00);
  refuse(small_dol().u32(0x64, 0x817ffff8), "data0 at 0x817ffff8 (size 0x10) is outside MEM1", 0x64);
  refuse(small_dol().u32(0x64, 0x90000000), "data0 at 0x90000000 (size 0x10) is outside MEM1", 0x64);
  refuse(small_dol().u32(0x48, 0x80003102), "text0 address 0x80003102 is not a multiple of 4", 0x48);
  refuse(small_dol().u32(0x90, 0x1e), "text0 size 0x1e is not a multiple of 4", 0x90);
  refuse(small_dol().u32(0x1c, 0x11e), "data0 file offset 0x11e is not a multiple of 4", 0x1c);
  refuse(small_dol().u32(0x64, 0x80003110), "data0 [0x80003110, 0x80003120) from bad.dol overlaps text0", 0x1c);
  refuse(small_dol().u32(0x64, 0xc0003110), "data0 [0xc0003110, 0xc0003120) from bad.dol overlaps text0", 0x1c);
  refuse(small_dol().u32(0xe0, 0x80004000), "entry point 0x80004000 is not inside a text section", 0xe0);
  refuse(small_dol().u32(0x90, 0), "the DOL has no text section", 0x90);
  refuse(small_dol().u32(0xd8, 0x817ffff0), "BSS at 0x817ffff0 (size 0x40) is outside MEM1", 0xd8);
}

TEST_CASE("gamecube REL: header, sections, entry points and the relocation streams", "[gamecube]") {
  const RelModule m = parse_rel(small_rel().data, "small.rel");
  CHECK(m.id == 1);
  CHECK(m.version == 3);
  CHECK(is_rel(small_rel().data));
  CHECK_FALSE(is_rel(small_dol().data));
  CHECK(m.align == 8);
  CHECK(m.bss_align == 32);
  CHECK(m.fix_size == 0x98u);
  REQUIRE(m.sections.size() == 4);
  CHECK_FALSE(m.sections[0].used());
  CHECK(m.sections[1].executable);
  CHECK(m.sections[1].file_offset == 0x70);
  CHECK(m.sections[2].size == 8);
  CHECK(m.bss_section() == 3u);
  CHECK(m.prolog.present());
  CHECK_FALSE(m.epilog.present());
  CHECK(m.unresolved.offset == 0xc);
  REQUIRE(m.imports.size() == 2);
  CHECK(m.imports[0].module_id == 1);
  REQUIRE(m.imports[0].relocations.size() == 3);
  CHECK(m.imports[0].relocations[0].type == rel_type::ppc_rel24);
  CHECK(m.imports[0].relocations[0].section == 1);
  CHECK(m.imports[0].relocations[0].offset == 4);
  CHECK(m.imports[0].relocations[1].offset == 0xa);
  CHECK(m.imports[0].relocations[1].entry_offset == 0xa8);
  REQUIRE(m.imports[1].relocations.size() == 2);
  CHECK(m.imports[1].relocations[1].offset == 4);
  CHECK(m.imports[1].relocations[1].addend == 0x80003104);
}

TEST_CASE("gamecube REL: linked with the DOL at chosen addresses", "[gamecube]") {
  const Dol dol = parse_dol(small_dol().data, "small.dol");
  const RelModule m = parse_rel(small_rel().data, "small.rel");
  const PlacedModule placed{&m, 0x80100000, 0x80100100};
  const LinkedProgram program = link_modules(dol, {&placed, 1});
  REQUIRE(program.modules.size() == 1);
  const LinkedModule& linked = program.modules[0];
  CHECK(linked.section_addresses[1] == 0x80100070u);
  CHECK(linked.section_addresses[3] == 0x80100100u);
  CHECK(linked.prolog == 0x80100070u);
  CHECK(linked.unresolved == 0x8010007cu);
  CHECK(linked.relocations_applied == 5);
  const GuestImage& image = program.image;
  // bl from 0x80100074 to 0x8010007c: displacement 8 into the LI field.
  CHECK(image.read_word(0x80100074) == 0x48000009);
  // The ADDR16_LO of bss+4 (0x80100104) rewrote the halfword the ADDR16_HA (0x8010) wrote first.
  CHECK(image.read_word(0x80100078) == 0x3c600000u + 0x0104);
  CHECK(image.read_word(0x80100080) == 0x80003100);
  CHECK(image.read_word(0x80100084) == 0x80003104);
  const ImageSegment* bss = image.segment_at(0x80100100);
  REQUIRE(bss);
  CHECK(bss->name == "rel1.section3");
  CHECK(bss->size == 0x20);
  CHECK(image.segment_at(0x80100070)->executable);
  REQUIRE(image.symbols.size() == 2);
  CHECK(image.symbols[0].name == "rel1._prolog");

  const auto defaults = place_after_dol(dol, {&m, 1});
  REQUIRE(defaults.size() == 1);
  CHECK(defaults[0].load_address == 0x80004040); // past the BSS end (0x80004030), at 32 bytes
  CHECK(defaults[0].bss_address == 0x80004140);  // past the 0x100-byte file, at bssAlign 32
}

TEST_CASE("gamecube REL linking refuses what does not fit", "[gamecube]") {
  const Dol dol = parse_dol(small_dol().data, "small.dol");
  const auto refuse_link = [&](Bytes r, PlacedModule placed, const std::string& expected, uint64_t offset) {
    const RelModule m = parse_rel(r.data, "bad.rel");
    placed.module = &m;
    require_error([&] { (void)link_modules(dol, {&placed, 1}); }, expected, "bad.rel", offset);
  };
  const PlacedModule at{nullptr, 0x80100000, 0x80100100};
  // The DOL import's first word becomes a REL24 to absolute 0: 0x80100080 cannot branch that far.
  refuse_link(small_rel().u8(0xd2, rel_type::ppc_rel24).u32(0xd4, 0), at,
              "R_PPC_REL24 at 0x80100080 (section 2 offset 0x0) against 0x0: displacement -0x80100080 does not fit the branch's 26-bit", 0xd0);
  refuse_link(small_rel().u8(0xd2, rel_type::ppc_addr16).u32(0xd4, 0x12345), at, "value 0x12345 does not fit 16 bits", 0xd0);
  refuse_link(small_rel().u32(0x90, 7), at, "imports from module 7, which is not among the linked modules (0 (the DOL), 1)", 0x90);
  refuse_link(small_rel().u8(0xa3, 0), at, "R_PPC_REL24 against section 0 of module 1 (bad.rel), which has no such section", 0xa3);
  refuse_link(small_rel(), {nullptr, 0x80100004, 0x80100100}, "load address 0x80100004 is not a multiple of the module's align 0x8", 0x40);
  refuse_link(small_rel(), {nullptr, 0x80100000, 0x80100110}, ".bss address 0x80100110 is not a multiple of the module's bssAlign 0x20", 0x44);
  refuse_link(small_rel(), {nullptr, 0x80003090, 0x80100100}, "rel1.section1 [0x80003100, 0x80003110) from bad.rel overlaps text0", 0x54);
  refuse_link(small_rel(), {nullptr, 0x817fff80, 0x80100100}, "load address 0x817fff80 (file size 0x100) is outside MEM1", 0);
}

TEST_CASE("gamecube REL: malformed files name the field or entry", "[gamecube]") {
  const auto refuse = [](Bytes r, const std::string& expected, uint64_t offset) {
    require_error([&] { (void)parse_rel(r.data, "bad.rel"); }, expected, "bad.rel", offset);
  };
  refuse(Bytes(0x20), "a REL header is at least 0x40 bytes, but the file has only 0x20", 0);
  refuse(small_rel().u32(0x1c, 4), "REL version 4 (kiln reads versions 1 to 3)", 0x1c);
  refuse(small_rel().u32(0x00, 0), "module id 0 belongs to the DOL", 0);
  refuse(small_rel().u32(0x04, 0x80200000), "this is a module copied from memory after OSLink", 0x04);
  refuse(small_rel().u32(0x0c, 40), "the section table (40 entries at 0x4c) runs past the end of the file", 0x0c);
  refuse(small_rel().u32(0x5c, 0xfc), "section 2 [0xfc, 0x104) runs past the end of the file (0x100 bytes)", 0x5c);
  refuse(small_rel().u32(0x5c, 0x40), "section 2 at 0x40 overlaps the 0x4c-byte header", 0x5c);
  refuse(small_rel().u32(0x5c, 0).u32(0x60, 0x20), "section 3 is a second .bss (section 2 is one already)", 0x64);
  refuse(small_rel().u32(0x20, 0x40), ".bss section 3 has size 0x20, but the header's bssSize is 0x40", 0x68);
  refuse(small_rel().u32(0x4c, 0x70), "section 0 is not empty", 0x4c);
  refuse(small_rel().u8(0x31, 2), "the epilog is in section 2, which is not an executable section with code", 0x31);
  refuse(small_rel().u32(0x3c, 0x10), "the unresolved handler offset 0x10 is past the end of section 1 (0x10 bytes)", 0x3c);
  refuse(small_rel().u32(0x40, 12), "align 0xc is not a power of two", 0x40);
  refuse(small_rel().u32(0x2c, 0x0c), "impSize 0xc is not a multiple of 8", 0x2c);
  refuse(small_rel().u32(0x2c, 0x80), "the import table [0x88, 0x108) runs past the end of the file", 0x28);
  refuse(small_rel().u32(0x90, 1), "the import table lists module 1 twice", 0x90);
  refuse(small_rel().u8(0xa2, 14), "unknown relocation type 14", 0xa2);
  refuse(small_rel().u8(0xa2, 204), "unknown relocation type 204", 0xa2);
  refuse(small_rel().u8(0x9a, rel_type::ppc_none), "R_PPC_REL24 comes before any R_DOLPHIN_SECTION", 0xa0);
  refuse(small_rel().u8(0x9b, 3), "R_DOLPHIN_SECTION selects section 3, which is not a section with bytes", 0x9b);
  refuse(small_rel().u16(0xa0, 0x10), "R_PPC_REL24 patches offset 0x10 of section 1, past its end (0x10 bytes)", 0xa0);
  refuse(small_rel().u16(0xe0, 0).u8(0xe2, rel_type::dolphin_nop).u8(0xfa, rel_type::dolphin_nop),
         "the relocations for module 0 from 0xc8 run past the end of the file (0x100 bytes) without an R_DOLPHIN_END", 0x90);
  refuse(small_rel().u32(0x94, 0xb0), "the relocations for module 0 [0xb0, 0xb1) overlap another import's [0x98, 0xc0)", 0x90);
}

TEST_CASE("gamecube REL versions 1 and 2 have shorter headers", "[gamecube]") {
  Bytes v1 = small_rel();
  v1.u32(0x1c, 1);
  const RelModule m1 = parse_rel(v1.data, "v1.rel");
  CHECK(m1.align == 0);
  CHECK_FALSE(m1.fix_size.has_value());
  Bytes v2 = small_rel();
  v2.u32(0x1c, 2).u32(0x48, 0xdeadbeef);
  const RelModule m2 = parse_rel(v2.data, "v2.rel");
  CHECK(m2.align == 8);
  CHECK_FALSE(m2.fix_size.has_value());
}

/// One relocation applied to `word` at `address` for S + A = `target`; the patched word.
uint32_t applied(uint8_t type, uint32_t word, uint32_t address, uint32_t target, size_t at = 0) {
  Bytes b(4);
  b.u32(0, word);
  const auto problem = apply_relocation(type, std::span<uint8_t>(b.data).subspan(at), address, target);
  INFO((problem ? *problem : "applied"));
  REQUIRE_FALSE(problem);
  return load<uint32_t>(b.data.data(), Endian::big);
}

std::string refused(uint8_t type, uint32_t word, uint32_t address, uint32_t target) {
  Bytes b(4);
  b.u32(0, word);
  const auto problem = apply_relocation(type, b.data, address, target);
  return problem ? *problem : "applied";
}

TEST_CASE("gamecube Relocation fields: the ABI's formulas, OSLink's masks, kiln's range checks", "[gamecube]") {
  using namespace rel_type;
  CHECK(applied(ppc_addr32, 0, 0x80100000, 0x80018000) == 0x80018000);
  // #lo, #hi, #ha of 0x80018000: 0x8000, 0x8001, and 0x8002 (the low half is negative to addi).
  CHECK(applied(ppc_addr16_lo, 0x38630000, 0x80100000, 0x80018000, 2) == 0x38638000);
  CHECK(applied(ppc_addr16_hi, 0x3c600000, 0x80100000, 0x80018000, 2) == 0x3c608001);
  CHECK(applied(ppc_addr16_ha, 0x3c600000, 0x80100000, 0x80018000, 2) == 0x3c608002);
  CHECK(applied(ppc_addr16_ha, 0x3c600000, 0x80100000, 0x80017ffc, 2) == 0x3c608001);
  CHECK(applied(ppc_addr16, 0, 0x80100000, 0x1234) == 0x12340000);
  CHECK(applied(ppc_addr16, 0, 0x80100000, 0xffff8000) == 0x80000000);
  CHECK(refused(ppc_addr16, 0, 0x80100000, 0x10000) == "value 0x10000 does not fit 16 bits");
  // ba 0x1000; the lowest and highest 32 MiB are reachable, 0x02000000 is not.
  CHECK(applied(ppc_addr24, 0x48000002, 0x80100000, 0x1000) == 0x48001002);
  CHECK(applied(ppc_addr24, 0x48000003, 0x80100000, 0xfe000000) == 0x4a000003);
  CHECK(refused(ppc_addr24, 0x48000002, 0x80100000, 0x02000000) == "target 0x2000000 does not fit the branch's 26-bit signed field");
  // bca 12,2: 16-bit signed absolute targets; BRTAKEN keeps the y bit (0x00200000) as the file has it.
  CHECK(applied(ppc_addr14, 0x41820002, 0x80100000, 0x7ffc) == 0x41827ffe);
  CHECK(applied(ppc_addr14_brtaken, 0x41a20002, 0x80100000, 0x100) == 0x41a20102);
  CHECK(applied(ppc_addr14_brntaken, 0x41820002, 0x80100000, 0xffff8000) == 0x41828002);
  CHECK(refused(ppc_addr14, 0x41820002, 0x80100000, 0x8000) == "target 0x8000 does not fit the branch's 16-bit signed field");
  CHECK(refused(ppc_addr14, 0x41820002, 0x80100000, 0x102) == "target 0x102 is not a multiple of 4");
  // bl back by 4 and forward by 0x1fffffc; REL14 within +-32 KiB.
  CHECK(applied(ppc_rel24, 0x48000001, 0x80003104, 0x80003100) == 0x4bfffffd);
  CHECK(applied(ppc_rel24, 0x48000001, 0x80000000, 0x81fffffc) == 0x49fffffd);
  CHECK(refused(ppc_rel24, 0x48000001, 0x80000000, 0x82000000) == "displacement 0x2000000 does not fit the branch's 26-bit signed field");
  CHECK(applied(ppc_rel14, 0x41820000, 0x80008000, 0x80000000) == 0x41828000);
  CHECK(applied(ppc_rel14_brtaken, 0x41a20000, 0x80000000, 0x80000010) == 0x41a20010);
  CHECK(applied(ppc_rel14_brntaken, 0x40820000, 0x80000000, 0x80007ffc) == 0x40827ffc);
  CHECK(refused(ppc_rel14, 0x41820000, 0x80000000, 0x80008000) == "displacement 0x8000 does not fit the branch's 16-bit signed field");
  CHECK(refused(ppc_rel14, 0x41820000, 0x80000000, 0x80000002) == "displacement 0x2 is not a multiple of 4");
}

} // namespace
