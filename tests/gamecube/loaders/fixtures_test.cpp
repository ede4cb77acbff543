// The loaders on files tools/gamecube-files made from C and assembly built with the PowerPC cross tools
// (build_fixtures.sh), each checked against an independent reference: the DOL against the linked ELF it came
// from (read by the ELF container), the map against nm's listing, the RELs' sections against the objects',
// the linked modules against ld linking the same objects at the same addresses with the DOL's symbols, the
// disc image against the folder it was made from.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "recompiler/loaders/dol/disc_image.h"
#include "recompiler/loaders/dol/dol.h"
#include "recompiler/loaders/dol/module_link.h"
#include "recompiler/loaders/dol/rel.h"
#include "recompiler/loaders/dol/symbol_map.h"
#include "runtime/base/elf_container.h"
#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "tools/gamecube-files/rel_writer.h"

namespace {

using namespace kiln;
using namespace kiln::gamecube;
namespace fs = std::filesystem;

const fs::path fixtures = KILN_GAMECUBE_FIXTURES;

std::vector<uint8_t> fixture(const std::string& name) { return read_file(fixtures / name); }

struct Elf {
  std::vector<uint8_t> bytes;
  elf::Container container;
  std::vector<elf::SectionHeader> sections;
  std::vector<elf::SymbolEntry> symbols;
  explicit Elf(const fs::path& path) : bytes(read_file(path)), container(bytes, path.string()), sections(container.section_headers()) {
    for (const auto& s : sections)
      if (s.type == elf::sht_symtab) symbols = container.symbols(sections, s);
  }
  std::vector<uint8_t> bytes_of(const elf::SectionHeader& s) const {
    return {bytes.begin() + static_cast<std::ptrdiff_t>(s.file_offset), bytes.begin() + static_cast<std::ptrdiff_t>(s.file_offset + s.size)};
  }
  const elf::SectionHeader& section(const std::string& name) const {
    for (const auto& s : sections)
      if (s.name == name) return s;
    FAIL("no section " << name << " in " << container.name());
    return sections[0];
  }
  const elf::SymbolEntry& symbol(const std::string& name) const {
    for (const auto& s : symbols)
      if (s.name == name) return s;
    FAIL("no symbol " << name << " in " << container.name());
    return symbols[0];
  }
};

/// Runs a shell command; its standard output.
std::string run(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  INFO(command << "\n" << out);
  REQUIRE(pclose(pipe) == 0);
  return out;
}

TEST_CASE("gamecube DOL from the linked ELF: every loaded section, the BSS and the entry", "[gamecube]") {
  const Elf elf(fixtures / "main.elf");
  const Dol dol = parse_dol(fixture("main.dol"), "main.dol");
  CHECK(dol.entry == elf.container.header().entry);
  CHECK(dol.entry == 0x80003100);
  unsigned checked = 0;
  for (const auto& s : elf.sections) {
    if (!(s.flags & elf::shf_alloc) || s.size == 0) continue;
    INFO(s.name);
    const auto address = static_cast<uint32_t>(s.address);
    const std::vector<uint8_t> memory = dol.image.read(address, static_cast<uint32_t>(s.size));
    if (s.type == elf::sht_nobits) {
      CHECK(memory == std::vector<uint8_t>(s.size, 0));
      CHECK(address >= dol.bss_address);
      CHECK(address + s.size <= uint64_t{dol.bss_address} + dol.bss_size);
    } else {
      CHECK(memory == elf.bytes_of(s));
    }
    CHECK(dol.image.segment_at(address)->executable == s.executable());
    ++checked;
  }
  CHECK(checked == 8); // .init .text .rodata .data .sdata .sbss .sdata2 .bss
  // .sdata2 lies between .sbss and .bss: inside the BSS range, loaded from the file all the same.
  const auto& sdata2 = elf.section(".sdata2");
  CHECK(sdata2.address > dol.bss_address);
  CHECK(dol.image.segment_at(static_cast<uint32_t>(sdata2.address))->name.starts_with("data"));
  CHECK(dol.image.read_word(static_cast<uint32_t>(elf.symbol("dol_small_constant").value)) == 11);
}

TEST_CASE("gamecube The map make_dol wrote holds the symbols nm lists", "[gamecube]") {
  const std::vector<uint8_t> text = fixture("main.map");
  const SymbolMap map = read_symbol_map(std::string(text.begin(), text.end()), "main.map");
  CHECK(map.format == MapFormat::dolphin);
  std::set<std::tuple<std::string, uint32_t, uint32_t, bool>> from_map, from_nm;
  for (const MapSymbol& s : map.symbols) from_map.emplace(s.name, s.address, s.size, s.is_function);
  std::istringstream nm(run(std::string(KILN_POWERPC_NM) + " -S --defined-only " + (fixtures / "main.elf").string()));
  for (std::string line; std::getline(nm, line);) {
    std::istringstream row(line);
    std::string address, size, type, name;
    if (!(row >> address >> size >> type >> name)) continue; // no size: labels, absolute symbols
    if (std::string("TtDdBbRrGgSs").find(type[0]) == std::string::npos) continue;
    from_nm.emplace(name, std::stoul(address, nullptr, 16), std::stoul(size, nullptr, 16), type == "T" || type == "t");
  }
  CHECK(from_nm.size() == 11);
  CHECK(from_map == from_nm);
}

TEST_CASE("gamecube RELs hold their objects' sections, bss and entry points", "[gamecube]") {
  for (const std::string stem : {"module_a", "module_b"}) {
    const Elf object(fixtures / (stem + ".o"));
    const RelModule rel = parse_rel(fixture("v3/" + stem + ".rel"), stem + ".rel");
    INFO(stem);
    REQUIRE(rel.sections.size() == object.sections.size());
    for (size_t i = 0; i < object.sections.size(); ++i) {
      const auto& s = object.sections[i];
      const RelSection& r = rel.sections[i];
      INFO(s.name);
      if (!(s.flags & elf::shf_alloc) || s.size == 0) {
        CHECK_FALSE(r.used());
      } else if (s.type == elf::sht_nobits) {
        CHECK(r.is_bss());
        CHECK(r.size == s.size);
        CHECK(rel.bss_size == s.size);
      } else {
        const auto bytes = rel.section_bytes(r);
        CHECK(std::vector<uint8_t>(bytes.begin(), bytes.end()) == object.bytes_of(s));
        CHECK(r.executable == s.executable());
      }
    }
  }
  const Elf a(fixtures / "module_a.o");
  const RelModule rel = parse_rel(fixture("v3/module_a.rel"), "module_a.rel");
  CHECK(rel.prolog.section == a.symbol("_prolog").section);
  CHECK(rel.prolog.offset == a.symbol("_prolog").value);
  CHECK(rel.epilog.offset == a.symbol("_epilog").value);
  CHECK(rel.unresolved.offset == a.symbol("_unresolved").value);
  // Version 3 order: other modules, this one, the DOL; fixSize where this module's own stream begins.
  REQUIRE(rel.imports.size() == 3);
  CHECK(rel.imports[0].module_id == 2);
  CHECK(rel.imports[1].module_id == 1);
  CHECK(rel.imports[2].module_id == 0);
  CHECK(rel.fix_size == rel.imports[1].relocations_offset);
  const RelModule v1 = parse_rel(fixture("v1/module_a.rel"), "v1/module_a.rel");
  REQUIRE(v1.imports.size() == 3);
  CHECK(v1.imports[0].module_id == 0);
  CHECK(v1.imports[2].module_id == 2);
}

struct Linked {
  std::vector<RelModule> modules;
  std::vector<PlacedModule> placed;
  LinkedProgram program;
};

/// Modules a and b of a version linked with the DOL: at kiln's default places, or where `at` says.
Linked link_fixture(const Dol& dol, const std::string& version, std::vector<PlacedModule> at = {}) {
  Linked l;
  for (const std::string stem : {"module_a", "module_b"}) l.modules.push_back(parse_rel(fixture(version + "/" + stem + ".rel"), stem + ".rel"));
  l.placed = at.empty() ? place_after_dol(dol, l.modules) : at;
  for (size_t i = 0; i < l.placed.size(); ++i) l.placed[i].module = &l.modules[i];
  l.program = link_modules(dol, l.placed);
  return l;
}

/// ld's script placing each object's sections where the REL linker put the module's.
std::string placement_script(const Linked& l) {
  std::string script = "SECTIONS {\n";
  for (size_t m = 0; m < l.modules.size(); ++m) {
    const std::string stem = m == 0 ? "module_a" : "module_b";
    const Elf object(fixtures / (stem + ".o"));
    for (size_t i = 0; i < object.sections.size(); ++i) {
      const auto& address = l.program.modules[m].section_addresses[i];
      if (!address) continue;
      script += "  .m" + std::to_string(l.modules[m].id) + "s" + std::to_string(i) + " " + std::to_string(*address) +
                (object.sections[i].type == elf::sht_nobits ? " (NOLOAD)" : "") + " : { *" + stem + ".o(" + object.sections[i].name + ") }\n";
    }
  }
  return script + "  /DISCARD/ : { *(*) }\n}\n";
}

TEST_CASE("gamecube Linked modules equal ld's link of the same objects at the same addresses", "[gamecube]") {
  const Dol dol = parse_dol(fixture("main.dol"), "main.dol");
  // Versions 1 and 2 lay the file out differently (header size, where the streams go), so their sections land
  // elsewhere: each is checked against its own ld link.
  for (const std::string version : {"v1", "v2", "v3"}) {
    INFO(version);
    // Module a straddles 0x80108000 and b's sections start at 0x8020ff4c: #ha differs from #hi for many of them.
    const Linked linked = link_fixture(dol, version, {{nullptr, 0x80107f80, 0x80300000}, {nullptr, 0x8020ff00, 0x80308000}});
    const fs::path work = fixtures / "ld-reference" / version;
    fs::create_directories(work);
    write_file_if_changed(work / "placement.ld", placement_script(linked));
    run(std::string(KILN_POWERPC_LD) + " --no-warn-rwx-segments -T " + (work / "placement.ld").string() + " -R " +
        (fixtures / "main.elf").string() + " " + (fixtures / "module_a.o").string() + " " + (fixtures / "module_b.o").string() + " -o " +
        (work / "placed.elf").string());
    const Elf reference(work / "placed.elf");

    std::map<uint8_t, unsigned> types;
    size_t words_compared = 0;
    for (size_t m = 0; m < linked.modules.size(); ++m) {
      const RelModule& rel = linked.modules[m];
      // The places BR(N)TAKEN relocations patch: ld sets their prediction bit by the displacement's sign, OSLink
      // (and kiln) leave it as compiled.
      std::set<uint32_t> hinted;
      for (const RelImport& import : rel.imports)
        for (const RelRelocation& r : import.relocations) {
          ++types[r.type];
          if (r.type == rel_type::ppc_addr14_brtaken || r.type == rel_type::ppc_addr14_brntaken ||
              r.type == rel_type::ppc_rel14_brtaken || r.type == rel_type::ppc_rel14_brntaken)
            hinted.insert(*linked.program.modules[m].section_addresses[r.section] + r.offset);
        }
      for (const RelSection& s : rel.sections) {
        if (!s.used() || s.is_bss()) continue;
        const uint32_t address = *linked.program.modules[m].section_addresses[s.index];
        const auto& placed = reference.section(".m" + std::to_string(rel.id) + "s" + std::to_string(s.index));
        REQUIRE(placed.address == address);
        std::vector<uint8_t> expected = reference.bytes_of(placed), ours = linked.program.image.read(address, s.size);
        REQUIRE(expected.size() == ours.size());
        for (const uint32_t at : hinted)
          if (at >= address && at < address + s.size)
            for (auto* bytes : {&expected, &ours}) (*bytes)[at - address + 1] &= ~0x20; // bit 10 of the word
        INFO(rel.name << " section " << s.index);
        CHECK(ours == expected);
        words_compared += s.size / 4;
      }
    }
    CHECK(types.size() == 13); // every relocation type a REL carries but R_PPC_NONE
    CHECK(words_compared > 100);
  }
}

TEST_CASE("gamecube Linking refuses a branch that cannot reach and a module that is not there", "[gamecube]") {
  const Dol dol = parse_dol(fixture("main.dol"), "main.dol");
  const RelModule far = parse_rel(fixture("far_branch.rel"), "far_branch.rel");
  CHECK(far.id == 9);
  try { // 1 MiB above the DOL: beyond a conditional branch's +-32 KiB
    const PlacedModule placed{&far, 0x80100000, 0x80100800};
    (void)link_modules(dol, {&placed, 1});
    FAIL("linked");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.location().file == "far_branch.rel");
    CHECK(e.location().offset.has_value());
    CHECK(e.message().find("R_PPC_REL14") != std::string::npos);
    CHECK(e.message().find("does not fit the branch's 16-bit signed field") != std::string::npos);
  }
  const RelModule a = parse_rel(fixture("v3/module_a.rel"), "module_a.rel");
  try {
    (void)link_modules(dol, place_after_dol(dol, {&a, 1}));
    FAIL("linked");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.location().offset == a.imports[0].entry_offset);
    CHECK(e.message().find("imports from module 2, which is not among the linked modules (0 (the DOL), 1)") != std::string::npos);
  }
}

TEST_CASE("gamecube make_rel names a symbol defined nowhere", "[gamecube]") {
  const std::vector<uint8_t> dol = fixture("main.elf"), object = fixture("undefined.o");
  const writer::RelObject input{"undefined.o", object, 5};
  try {
    (void)writer::write_rels(dol, "main.elf", {&input, 1});
    FAIL("written");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.location().file == "undefined.o");
    CHECK(e.message().find("'missing_function' is defined neither in the DOL nor in another module") != std::string::npos);
  }
}

TEST_CASE("gamecube The disc image boots the DOL and lists the folder it was made from", "[gamecube]") {
  const GameCubeDisc disc(open_disc_file(fixtures / "disc.iso"));
  CHECK(disc.header().game_id() == "GKLE01");
  CHECK(disc.header().game_name == "kiln loader fixture");
  CHECK(disc.read_boot_dol() == fixture("main.dol"));
  std::set<std::string> from_disc, from_folder;
  for (const DiscFile& f : disc.files()) {
    from_disc.insert(f.path + (f.is_directory ? "/" : ""));
    if (!f.is_directory) CHECK(disc.read(f) == read_file(fixtures / "disc-root" / f.path));
  }
  for (const auto& entry : fs::recursive_directory_iterator(fixtures / "disc-root"))
    from_folder.insert(fs::relative(entry.path(), fixtures / "disc-root").generic_string() + (entry.is_directory() ? "/" : ""));
  CHECK(from_disc == from_folder);
  CHECK(from_disc.size() == 8);
  const auto rels = disc.rel_files();
  REQUIRE(rels.size() == 2);
  CHECK(rels[0]->path == "rels/module_a.rel");
  CHECK(parse_rel(disc.read(*rels[1]), rels[1]->path).id == 2);
}

} // namespace
