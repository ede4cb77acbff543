// The disc image reader on an image built field by field at the offsets YAGCD chapter 13 gives (boot.bin,
// bi2.bin, the apploader header, FST entries and name table), read from memory and from a file; and the map
// readers on rows in the CodeWarrior and Dolphin layouts. Every accepted field, every refusal with its offset.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>

#include "recompiler/loaders/dol/disc_image.h"
#include "recompiler/loaders/dol/symbol_map.h"
#include "runtime/base/error.h"
#include "tests/gamecube/loaders/synthetic_files.h"

namespace {

using namespace kiln;
using namespace kiln::gamecube;
using kiln::gamecube::testing::Bytes;
using kiln::gamecube::testing::codewarrior_map;
using kiln::gamecube::testing::fst_at;
using kiln::gamecube::testing::small_disc;

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

void check_small_disc(const GameCubeDisc& disc) {
  CHECK(disc.header().game_id() == "GKLE01");
  CHECK(disc.header().version == 1);
  CHECK(disc.header().game_name == "kiln test disc");
  CHECK(disc.header().dol_offset == 0x2480);
  CHECK(disc.info().simulated_memory_size == 0x01800000);
  CHECK(disc.info().country_code == 1);
  CHECK(disc.apploader().date == "2001/10/05");
  CHECK(disc.apploader().entry == 0x81200000);
  CHECK(disc.apploader().size == 0x20);
  REQUIRE(disc.files().size() == 4);
  CHECK(disc.files()[0].path == "sub");
  CHECK(disc.files()[0].is_directory);
  CHECK(disc.files()[1].path == "sub/m.REL");
  CHECK(disc.files()[2].path == "readme");
  CHECK(disc.files()[3].size == 0);
  const DiscFile* rel = disc.find("/SUB/m.rel");
  REQUIRE(rel);
  CHECK(rel->offset == 0x2800);
  CHECK(rel->entry_offset == fst_at + 24);
  CHECK(disc.find("sub/missing") == nullptr);
  const auto rels = disc.rel_files();
  REQUIRE(rels.size() == 1);
  CHECK(rels[0] == rel);
  const std::vector<uint8_t> bytes = disc.read(*rel);
  CHECK(std::string(bytes.begin(), bytes.end()) == "RELBYTES");
  CHECK(disc.read(disc.files()[3]).empty());
  CHECK(disc.read_boot_dol() == kiln::gamecube::testing::small_dol().data);
  CHECK(disc.notes().empty());
  require_error([&] { (void)disc.read(disc.files()[0]); }, "'sub' is a directory", disc.name(), fst_at + 12);
}

TEST_CASE("gamecube Disc image: boot.bin, bi2.bin, apploader, FST and files, in memory", "[gamecube]") {
  const Bytes d = small_disc();
  check_small_disc(GameCubeDisc(disc_in_memory(d.data, "small.iso")));
}

TEST_CASE("gamecube Disc image: the same read from a file on demand", "[gamecube]") {
  const Bytes d = small_disc();
  const auto path = std::filesystem::temp_directory_path() / ("kiln-disc-test-" + std::to_string(::getpid()) + ".iso");
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(d.data.data()), static_cast<std::streamsize>(d.data.size()));
  check_small_disc(GameCubeDisc(open_disc_file(path)));
  std::filesystem::remove(path);
  require_error([&] { (void)open_disc_file(path); }, "cannot open the disc image", path.string(), std::nullopt);
}

/// A source that claims a size without holding the bytes: for the limit on a disc's size.
class HugeSource final : public DiscSource {
public:
  const std::string& name() const override { return name_; }
  uint64_t size() const override { return disc_layout::max_disc_size + 1; }
  std::vector<uint8_t> read(uint64_t, uint64_t) const override { throw Error("not read"); }

private:
  std::string name_ = "huge.iso";
};

TEST_CASE("gamecube Disc image: malformed images name the field or FST entry", "[gamecube]") {
  const auto refuse = [](Bytes d, const std::string& expected, uint64_t offset) {
    require_error([&] { GameCubeDisc disc(disc_in_memory(d.data, "bad.iso")); (void)disc.read_boot_dol(); }, expected, "bad.iso", offset);
  };
  refuse(Bytes(0x1000), "the image has 0x1000 bytes, fewer than the disc header, bi2.bin and the apploader header (0x2460)", 0);
  refuse(small_disc().u32(0x1c, 0), "not a GameCube disc image: the word at 0x1c is 0x00000000", 0x1c);
  refuse(small_disc().u32(0x1c, 0).u32(0x18, 0x5d1c9ea3), "this is a Wii disc image", 0x18);
  refuse(small_disc().u32(0x2454, 0x10000), "the apploader (0x10000 bytes of code, 0x0 of trailer after its header at 0x2440) runs past", 0x2454);
  refuse(small_disc().u32(0x420, 0x2950), "the boot DOL offset 0x2950 is not inside the image", 0x420);
  refuse(small_disc().u32(0x428, 4), "FST size 0x4 is not between one entry", 0x428);
  refuse(small_disc().u32(0x424, 0x29f0), "the FST [0x29f0, 0x2a43) runs past the end of the image (0x2a00 bytes)", 0x29f0);
  refuse(small_disc().u8(fst_at, 0), "the FST's first entry (the root) is not a directory", fst_at);
  refuse(small_disc().u32(fst_at + 8, 100), "the root says the FST has 100 entries, which do not fit its 0x53 bytes", fst_at + 8);
  refuse(small_disc().u32(fst_at + 24, 0x100), "FST entry 2 names offset 0x100, past the name table (0x17 bytes)", fst_at + 25);
  refuse(small_disc().u32(fst_at + 48, 3), "FST entry 4 has the name '', which is not a file name", fst_at + 49);
  refuse(small_disc().u32(fst_at + 48, 0x02000011), "FST entry 4 has flags 0x2 (0 is a file, 1 a directory)", fst_at + 48);
  refuse(small_disc().u32(fst_at + 20, 6), "FST directory entry 1 'sub' has parent 0 and end 6, but it lies in entry 0's entries 1..5", fst_at + 16);
  refuse(small_disc().u32(fst_at + 16, 2), "FST directory entry 1 'sub' has parent 2 and end 3, but it lies in entry 0's entries 1..5", fst_at + 16);
  refuse(small_disc().u32(fst_at + 44, 0x1000), "FST file entry 3 'readme' [0x2808, 0x3808) runs past the end of the image", fst_at + 40);
  refuse(small_disc().u32(0x2480 + 0x1c, 0x600), "the boot DOL [0x2480, 0x2a90) runs past the end of the image", 0x2480);
  require_error([] { GameCubeDisc disc(std::make_unique<HugeSource>()); }, "more than a GameCube disc holds (1459978240)", "huge.iso", 0);
}


TEST_CASE("gamecube CodeWarrior map: layout rows as symbols, UNUSED and section rows skipped", "[gamecube]") {
  const SymbolMap map = read_symbol_map(codewarrior_map, "game.map");
  CHECK(map.format == MapFormat::codewarrior);
  REQUIRE(map.symbols.size() == 6);
  CHECK(map.symbols[0].name == "__start");
  CHECK(map.symbols[0].address == 0x80003100);
  CHECK(map.symbols[0].size == 0x64);
  CHECK(map.symbols[0].section == ".init");
  CHECK(map.symbols[0].object == "os.a __start.c");
  CHECK(map.symbols[0].is_function);
  CHECK(map.symbols[1].name == "__start_entry");
  CHECK(map.symbols[1].address == 0x80003164);
  CHECK(map.symbols[1].size == 0);
  CHECK(map.symbols[2].name == "main");
  CHECK(map.symbols[2].line == 18);
  CHECK(map.symbols[3].name == "helper");
  CHECK(map.symbols[3].address == 0x80005990);
  CHECK(map.symbols[4].name == "table");
  CHECK(map.symbols[4].address == 0x80210000);
  CHECK_FALSE(map.symbols[4].is_function);
  CHECK(map.symbols[5].name == "operator new(unsigned long)");
  CHECK(map.symbols[5].object == "new.o (lib.a)");
}

TEST_CASE("gamecube Dolphin map: the virtual address in the first column too", "[gamecube]") {
  const SymbolMap map = read_symbol_map(".text section layout\n80003100 000010 80003100 0 _start\n"
                                        "80003120 000008 80003120 0 dol_add \tmain.o\n\n.data section layout\n"
                                        "800031c0 000010 800031c0 0 dol_table\n",
                                        "dolphin.map");
  CHECK(map.format == MapFormat::dolphin);
  REQUIRE(map.symbols.size() == 3);
  CHECK(map.symbols[1].name == "dol_add");
  CHECK(map.symbols[1].object == "main.o");
  CHECK(map.symbols[1].is_function);
  CHECK(map.symbols[2].name == "dol_table");
  CHECK(map.symbols[2].size == 0x10);
  CHECK(map.symbols[2].section == ".data");
}

TEST_CASE("gamecube Map files: what is not a map, and a malformed row, name the line", "[gamecube]") {
  require_error([] { (void)read_symbol_map("hello\nworld\n", "notes.txt"); }, "not a CodeWarrior or Dolphin map", "notes.txt", 0);
  require_error([] { (void)read_symbol_map(".text section layout\n80003100 000010 80003100 0 _start\n8000zz00 4 80003200 0 x\n", "bad.map"); },
                "line 3: expected 'start size virtual-address [file-offset] alignment name' in section .text", "bad.map", 55);
  require_error([] { (void)read_symbol_map(".text section layout\n80003100 000010 80003100\n", "bad.map"); },
                "line 2: row in section .text has no symbol name", "bad.map", 21);
}

} // namespace
