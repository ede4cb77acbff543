// ExeFS folders: main.npdm read from bytes laid out by hand from switchbrew's "NPDM" tables, malformed npdm
// files, and the linker over fixtures/exefs (main and sdk, shared objects from our own C): bases, imports and
// every applied relocation against values worked out from the ELF files themselves (their relocation sections,
// read with the ELF container) and aarch64-linux-gnu-nm's listing of their symbols (the committed *.nm files).
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "recompiler/analysis/program.h"
#include "recompiler/isa/aarch64/decoder.h"
#include "runtime/base/elf_container.h"
#include "recompiler/loaders/elf/elf_file.h"
#include "recompiler/loaders/switch/exefs.h"
#include "recompiler/loaders/switch/npdm.h"
#include "recompiler/loaders/switch/pfs0.h"
#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/platform/switch/services/registry.h"
#include "tests/switch/module_writer.h"
#include "tests/switch/npdm_writer.h"
#include "tests/switch/pfs0_writer.h"

namespace {

using namespace kiln;

const std::string fixtures = std::string(KILN_SOURCE_DIR) + "/tests/switch/fixtures/exefs/";

template <typename T>
void put(std::vector<uint8_t>& bytes, size_t at, T value) {
  if (bytes.size() < at + sizeof(T)) bytes.resize(at + sizeof(T), 0);
  store<T>(bytes.data() + at, value, Endian::little);
}

/// A main.npdm from switchbrew's tables, offsets written out here: META at 0, ACI0 at 0x80 (FS access header at
/// +0x40, 0x1c bytes; service access control after it: "lm", "fsp*", server "kiln"), ACID at 0x100 (its FS
/// access control at +0x240, 0x2c bytes: version, counts, the permission bits at +4).
std::vector<uint8_t> hand_made_npdm() {
  std::vector<uint8_t> b(0x100 + 0x240 + 0x2c, 0);
  std::memcpy(b.data(), "META", 4);
  b[0x0c] = 0x07; // 64-bit, 39-bit address space
  b[0x0e] = 49;   // main thread priority
  b[0x0f] = 1;    // main thread core
  put<uint32_t>(b, 0x1c, 0x80000); // stack size
  std::memcpy(b.data() + 0x20, "Hand Made", 9);
  put<uint32_t>(b, 0x70, 0x80);
  put<uint32_t>(b, 0x74, 0x40 + 0x1c + 13);
  put<uint32_t>(b, 0x78, 0x100);
  put<uint32_t>(b, 0x7c, 0x240 + 0x2c);
  std::memcpy(b.data() + 0x80, "ACI0", 4);
  put<uint64_t>(b, 0x80 + 0x10, 0x0100000000abc000);
  put<uint32_t>(b, 0x80 + 0x20, 0x40);
  put<uint32_t>(b, 0x80 + 0x24, 0x1c);
  put<uint32_t>(b, 0x80 + 0x28, 0x5c);
  put<uint32_t>(b, 0x80 + 0x2c, 13);
  put<uint32_t>(b, 0x80 + 0x30, 0x69);
  b[0xc0] = 1;
  put<uint64_t>(b, 0xc0 + 4, 0x8000000000000000ull); // FS permission bits
  const uint8_t sac[13] = {0x01, 'l', 'm', 0x03, 'f', 's', 'p', '*', 0x83, 'k', 'i', 'l', 'n'};
  std::memcpy(b.data() + 0xdc, sac, sizeof sac);
  std::memcpy(b.data() + 0x100 + 0x200, "ACID", 4);
  put<uint64_t>(b, 0x100 + 0x210, 0x0100000000abc000);
  put<uint64_t>(b, 0x100 + 0x218, 0x0100000000abcfff);
  put<uint32_t>(b, 0x100 + 0x220, 0x240);
  put<uint32_t>(b, 0x100 + 0x224, 0x2c);
  b[0x340] = 1;
  put<uint64_t>(b, 0x340 + 4, 0x8000000000200001ull); // ACID allows FullPermission, SdCard, ApplicationInfo
  return b;
}

void require_npdm_error(const std::vector<uint8_t>& bytes, const std::string& expected, uint64_t offset) {
  try {
    nx::read_npdm(bytes, "bad.npdm");
    FAIL("no error; expected: " << expected);
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find(expected) != std::string::npos);
    CHECK(e.location().file == "bad.npdm");
    CHECK(e.location().offset == offset);
  }
}

/// aarch64-linux-gnu-nm's "ADDRESS TYPE NAME" lines.
std::map<std::string, uint64_t> nm_symbols(const std::string& module) {
  std::ifstream in(fixtures + module + ".nm");
  std::map<std::string, uint64_t> out;
  std::string address, type, name;
  while (in >> address >> type >> name) out[name] = std::stoull(address, nullptr, 16);
  REQUIRE(!out.empty());
  return out;
}

struct ElfRelocation {
  uint64_t offset;
  uint32_t type;
  std::string symbol; ///< empty for none
  int64_t addend;
};

/// Every entry of .rela.dyn and .rela.plt, symbol names from .dynsym: read through the ELF container.
std::vector<ElfRelocation> elf_relocations(const std::vector<uint8_t>& bytes) {
  const elf::Container container(bytes, "fixture");
  const auto sections = container.section_headers();
  std::vector<elf::SymbolEntry> dynsym;
  for (const auto& h : sections)
    if (h.name == ".dynsym") dynsym = container.symbols(sections, h);
  std::vector<ElfRelocation> out;
  for (const auto& h : sections) {
    if (h.name != ".rela.dyn" && h.name != ".rela.plt") continue;
    const ByteReader r = container.reader().sub_reader(h.file_offset, h.size);
    for (uint64_t at = 0; at + 24 <= h.size; at += 24) {
      const uint64_t info = r.peek_at<uint64_t>(at + 8);
      const uint32_t symbol = static_cast<uint32_t>(info >> 32);
      out.push_back({r.peek_at<uint64_t>(at), static_cast<uint32_t>(info), symbol ? dynsym.at(symbol).name : "",
                     static_cast<int64_t>(r.peek_at<uint64_t>(at + 16))});
    }
  }
  return out;
}

/// The end of a shared object's last PT_LOAD (memory size included).
uint64_t loaded_end(const std::vector<uint8_t>& bytes) {
  uint64_t end = 0;
  for (const auto& p : elf::Container(bytes, "fixture").program_headers())
    if (p.type == elf::pt_load) end = std::max(end, p.address + p.memory_size);
  return end;
}

/// A folder with main, sdk (from `sdk_elf`) and main.npdm.
struct Folder {
  std::filesystem::path path;
  explicit Folder(const std::string& name, const std::string& sdk_elf = "sdk.elf") {
    path = std::filesystem::temp_directory_path() / ("kiln-exefs-test-" + name);
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
    write("main", nx::testing::write_nso_from_shared_object(read_file(fixtures + "main.elf"), "main.elf"));
    write("sdk", nx::testing::write_nso_from_shared_object(read_file(fixtures + sdk_elf), sdk_elf));
    nx::testing::NpdmFields fields;
    fields.services = {"lm"};
    write("main.npdm", nx::testing::write_npdm(fields));
  }
  ~Folder() { std::filesystem::remove_all(path); }
  void write(const std::string& file, const std::vector<uint8_t>& bytes) const { write_file_if_changed(path / file, bytes); }
};

uint64_t word_at(const nx::ExeFsModule& m, uint64_t offset) { return load<uint64_t>(m.module.image.data() + offset, Endian::little); }

} // namespace

TEST_CASE("main.npdm: META, ACI0 and ACID fields at switchbrew's offsets", "[switch]") {
  const nx::Npdm npdm = nx::read_npdm(hand_made_npdm(), "hand.npdm");
  CHECK(npdm.name == "Hand Made");
  CHECK(npdm.main_thread_priority == 49);
  CHECK(npdm.main_thread_core == 1);
  CHECK(npdm.main_thread_stack_size == 0x80000);
  CHECK(npdm.program_id == 0x0100000000abc000);
  CHECK(npdm.fs_access_flags == 0x8000000000000000ull);
  CHECK(npdm.acid_fs_access_flags == 0x8000000000200001ull);
  CHECK(npdm.fs_permissions() == 0x8000000000000000ull); // ACI0 & ACID
  REQUIRE(npdm.services.size() == 3);
  CHECK((npdm.services[0].name == "lm" && !npdm.services[0].server));
  CHECK((npdm.services[1].name == "fsp*" && !npdm.services[1].server));
  CHECK((npdm.services[2].name == "kiln" && npdm.services[2].server));
  CHECK(npdm.acid_program_id_max == 0x0100000000abcfff);

  // The test generator writes what the reader reads.
  nx::testing::NpdmFields fields;
  fields.program_id = 0x0100000000001234;
  fields.main_thread_priority = 44;
  fields.main_thread_stack_size = 0x40000;
  fields.services = {"lm", "set*"};
  fields.server_services = {"srv"};
  fields.system_resource_size = 0x1fe000;
  const nx::Npdm written = nx::read_npdm(nx::testing::write_npdm(fields), "written.npdm");
  CHECK(written.program_id == 0x0100000000001234);
  CHECK(written.main_thread_priority == 44);
  CHECK(written.main_thread_stack_size == 0x40000);
  CHECK(written.fs_permissions() == 0); // ACI0 asks for nothing; ACID would allow everything
  CHECK(written.system_resource_size == 0x1fe000);
  REQUIRE(written.services.size() == 3);
  CHECK((written.services[1].name == "set*" && written.services[2].name == "srv" && written.services[2].server));
}

TEST_CASE("Malformed main.npdm files are errors naming file and offset", "[switch]") {
  const std::vector<uint8_t> good = hand_made_npdm();
  for (size_t size = 0; size < good.size(); ++size) {
    INFO("truncated to " << size);
    CHECK_THROWS_AS(nx::read_npdm(std::vector<uint8_t>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(size)), "bad.npdm"), Error);
  }
  auto changed = [&](size_t at, std::initializer_list<uint8_t> bytes) {
    std::vector<uint8_t> b = good;
    std::copy(bytes.begin(), bytes.end(), b.begin() + static_cast<std::ptrdiff_t>(at));
    return b;
  };
  require_npdm_error(changed(0, {'M', 'E', 'T', 'B'}), "no \"META\" magic", 0);
  require_npdm_error(changed(0x0c, {0x06}), "not 64-bit", 0x0c);
  require_npdm_error(changed(0x0e, {64}), "priority 64 is outside 0..63", 0x0e);
  require_npdm_error(changed(0x1c, {0x10, 0, 0, 0}), "stack size 0x10", 0x1c);
  require_npdm_error(changed(0x70, {0x00, 0x10, 0, 0}), "ACI0 at 0x1000+0x69 is outside", 0x70);
  require_npdm_error(changed(0x80, {'X'}), "no \"ACI0\" magic", 0x80);
  require_npdm_error(changed(0x80 + 0x24, {0x10}), "FS access header is 0x10 bytes", 0x80 + 0x24);
  require_npdm_error(changed(0x80 + 0x2c, {0x20}), "service access control at 0x5c+0x20 is outside", 0x80 + 0x28);
  require_npdm_error(changed(0xdc + 8, {0x87}), "entry of 8 characters runs past", 0xdc + 8);
  require_npdm_error(changed(0xdc + 1, {0}), "holds a NUL", 0xdc + 1);
  require_npdm_error(changed(0x100 + 0x200, {'X'}), "no \"ACID\" magic", 0x100 + 0x200);
  require_npdm_error(changed(0x80 + 0x10, {0x00, 0xd0}), "outside ACID's range", 0x80 + 0x10);
  require_npdm_error(changed(0x100 + 0x224, {0x10}), "ACID's FS access control is 0x10 bytes, smaller than its 0x2c-byte header", 0x100 + 0x224);
}

TEST_CASE("ExeFS: modules at aligned bases, imports and relocations as the ELF files and nm give them", "[switch]") {
  const Folder folder("linked");
  const nx::ExeFs exefs = nx::load_exefs(folder.path);
  REQUIRE(exefs.modules.size() == 2);
  const nx::ExeFsModule& main = exefs.modules[0];
  const nx::ExeFsModule& sdk = exefs.modules[1];
  CHECK(main.file == "main");
  CHECK(sdk.file == "sdk");
  const std::vector<uint8_t> main_elf = read_file(fixtures + "main.elf"), sdk_elf = read_file(fixtures + "sdk.elf");
  CHECK(main.base == 0x7100000000);
  CHECK(sdk.base == align_up(0x7100000000 + loaded_end(main_elf), 0x200000));
  CHECK(exefs.entry == main.base);
  CHECK(exefs.npdm.program_id == nx::testing::NpdmFields{}.program_id);
  CHECK(exefs.unresolved.empty());
  CHECK(!exefs.unresolved_stubs);

  // Every relocation the linker wrote: the symbol's definition (main first, then sdk) plus the addend, or base + addend.
  const auto main_nm = nm_symbols("main"), sdk_nm = nm_symbols("sdk");
  auto defined = [&](const std::string& name) -> uint64_t {
    // Global ("T"/"D") definitions in lookup order; the nm files list locals too, and no local is imported here.
    if (main_nm.count(name)) return main.base + main_nm.at(name);
    if (sdk_nm.count(name)) return sdk.base + sdk_nm.at(name);
    FAIL("no definition of " << name);
    return 0;
  };
  size_t checked = 0;
  for (const auto& [module, elf_bytes] : {std::pair{&main, &main_elf}, std::pair{&sdk, &sdk_elf}})
    for (const ElfRelocation& r : elf_relocations(*elf_bytes)) {
      INFO(module->file << " offset " << r.offset << " type " << r.type << " " << r.symbol);
      const uint64_t expected = r.symbol.empty() ? module->base + static_cast<uint64_t>(r.addend) : defined(r.symbol) + static_cast<uint64_t>(r.addend);
      CHECK(word_at(*module, r.offset) == expected);
      ++checked;
    }
  CHECK(checked == 17); // main: 2 in .rela.dyn, 11 in .rela.plt; sdk: 2 and 2
  CHECK(exefs.applied.at(1027) == 1); // the sdk's .init_array entry
  CHECK(exefs.applied.at(1025) == 2);
  CHECK(exefs.applied.at(1026) == 13);
  CHECK(exefs.applied.at(257) == 1);
  CHECK(exefs.skipped.empty());
  // sdk_initialise, from the sdk's .init_array: the only initialiser.
  REQUIRE(exefs.initializers.size() == 1);
  CHECK(exefs.initializers[0] == sdk.base + sdk_nm.at("sdk_initialise"));
  // The sdk imports main_value from main.
  bool sdk_imports_main = false;
  for (const nx::ResolvedImport& i : exefs.imports)
    if (i.importer == "sdk" && i.symbol == "main_value") sdk_imports_main = i.provider == "main" && i.address == main.base + main_nm.at("main_value");
  CHECK(sdk_imports_main);

  // One ELF view of both: every module's symbols at its base; a PLT stub's BR is a known tail call, none unresolved.
  const std::vector<uint8_t> linked = nx::to_elf(exefs.placed(), exefs.entry);
  const elf::ElfFile elf(linked, "linked");
  CHECK(elf.entry() == main.base);
  std::map<std::string, uint64_t> symbols;
  for (const auto& s : elf.symbols()) symbols[s.name] = s.address;
  CHECK(symbols.at("main_entry") == main.base + main_nm.at("main_entry"));
  CHECK(symbols.at("sdk_add") == sdk.base + sdk_nm.at("sdk_add"));
  CHECK(symbols.at("sdk_counter") == sdk.base + sdk_nm.at("sdk_counter"));
  const a64::Decoder decoder;
  const analysis::Program program(elf, decoder);
  CHECK(program.unresolved_indirect_branches().empty());
  std::set<uint64_t> tail_targets;
  for (const auto& [branch, target] : program.slot_branches()) tail_targets.insert(target);
  CHECK(tail_targets.count(sdk.base + sdk_nm.at("sdk_add")) == 1);
  CHECK(tail_targets.count(main.base + main_nm.at("main_value")) == 1);
}

TEST_CASE("ExeFS: an import nothing defines points at a stub that names it", "[switch]") {
  const Folder folder("unresolved", "sdk_without_feature.elf");
  const nx::ExeFs exefs = nx::load_exefs(folder.path);
  REQUIRE(exefs.unresolved.size() == 1);
  const nx::UnresolvedImport& u = exefs.unresolved[0];
  CHECK(u.symbol == "sdk_feature");
  CHECK(u.importers == std::vector<std::string>{"main"});
  REQUIRE(exefs.unresolved_stubs);
  CHECK(u.stub == exefs.unresolved_stubs->base);
  CHECK(exefs.unresolved_stubs->base == align_up(exefs.modules[1].end(), 0x200000));
  // main's JUMP_SLOT for sdk_feature holds the stub.
  for (const ElfRelocation& r : elf_relocations(read_file(fixtures + "main.elf")))
    if (r.symbol == "sdk_feature") CHECK(word_at(exefs.modules[0], r.offset) == u.stub);
  // The stub (decoded by kiln's decoder): x0 = ADRP page + ADD offset, the message naming the import; x1 its
  // length; OutputDebugString; Break.
  const nx::ExeFsModule& stubs = *exefs.unresolved_stubs;
  const std::vector<uint8_t>& image = stubs.module.image;
  const a64::Decoder decoder;
  auto at = [&](uint64_t offset) { return decoder.decode(load<uint32_t>(image.data() + offset, Endian::little), u.stub + offset); };
  const a64::Instruction adrp = at(0), add = at(4), length = at(8);
  REQUIRE((adrp.opcode == "ADRP" && add.opcode == "ADDXri"));
  CHECK((adrp.reg(0).index == 0 && add.reg(0).index == 0 && add.reg(1).index == 0));
  const uint64_t message = (u.stub & ~uint64_t{0xfff}) + (static_cast<uint64_t>(adrp.imm(1)) << 12) + static_cast<uint64_t>(add.imm(2));
  REQUIRE(message > stubs.base);
  REQUIRE(message - stubs.base < image.size());
  const std::string text(reinterpret_cast<const char*>(image.data() + (message - stubs.base)));
  CHECK(text == "unresolved import 'sdk_feature' called (imported by main; no module of the ExeFS exports it)");
  CHECK(length.text == "mov x1, #" + std::to_string(text.size()));
  CHECK(at(12).text == "svc #0x27");
  CHECK(at(28).text == "svc #0x26");
  // The message is rodata, not code: the stubs module's text holds only the stub.
  CHECK(stubs.module.text().size == 48);
  CHECK(message - stubs.base >= stubs.module.segments[1].memory_offset);
}

TEST_CASE("ExeFS: a folder without main, a module that is not an NSO, no main.npdm are errors naming the file", "[switch]") {
  const std::filesystem::path empty = std::filesystem::temp_directory_path() / "kiln-exefs-test-empty";
  std::filesystem::create_directories(empty);
  try {
    nx::load_exefs(empty);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("holds no `main` module") != std::string::npos);
    CHECK(e.location().file == empty.string());
  }
  std::filesystem::remove_all(empty);
  {
    const Folder folder("not-nso");
    folder.write("sdk", std::vector<uint8_t>(0x200, 0));
    CHECK_THROWS_WITH(nx::load_exefs(folder.path), Catch::Contains("sdk: offset 0x0: an ExeFS module must be an NSO"));
  }
  {
    const Folder folder("no-npdm");
    std::filesystem::remove(folder.path / "main.npdm");
    CHECK_THROWS_WITH(nx::load_exefs(folder.path), Catch::Contains("holds no main.npdm"));
  }
}

TEST_CASE("ExeFS in a PFS0: the folder's files packed as switchbrew lays a PFS0 out load as the folder does", "[switch]") {
  const Folder folder("pfs0");
  std::vector<test::Pfs0Input> files;
  for (const char* name : {"main.npdm", "main", "sdk"}) files.push_back({name, read_file(folder.path / name)});
  const std::vector<uint8_t> nsp = test::make_pfs0(files);
  // The header words as the page gives them: magic, 3 files, a string table padded so the data is 0x20-aligned.
  CHECK(load<uint32_t>(nsp.data(), Endian::little) == 0x30534650);
  CHECK(load<uint32_t>(nsp.data() + 4, Endian::little) == 3);
  const uint64_t data_start = 0x10 + 3 * 0x18 + load<uint32_t>(nsp.data() + 8, Endian::little);
  CHECK(data_start % 0x20 == 0);
  const nx::Pfs0 pfs0 = nx::read_pfs0(nsp, "title.nsp");
  REQUIRE(pfs0.files.size() == 3);
  CHECK(pfs0.files[0].name == "main.npdm");
  CHECK(pfs0.files[0].offset == data_start);
  CHECK(pfs0.files[1].offset == data_start + files[0].bytes.size());
  CHECK(pfs0.files[2].size == files[2].bytes.size());

  const std::filesystem::path path = folder.path / "title.nsp";
  write_file_if_changed(path, nsp);
  CHECK(nx::is_exefs(path));
  CHECK(nx::is_exefs_input(path));
  CHECK(nx::exefs_title_input(path) == path);
  const nx::ExeFs from_folder = nx::load_exefs(folder.path), from_nsp = nx::load_exefs(path);
  REQUIRE(from_nsp.modules.size() == from_folder.modules.size());
  for (size_t i = 0; i < from_folder.modules.size(); ++i) {
    CHECK(from_nsp.modules[i].file == from_folder.modules[i].file);
    CHECK(from_nsp.modules[i].base == from_folder.modules[i].base);
    CHECK(from_nsp.modules[i].module.image == from_folder.modules[i].module.image); // relocated the same
  }
  CHECK(from_nsp.npdm.program_id == from_folder.npdm.program_id);
  CHECK(from_nsp.resolved_imports == from_folder.resolved_imports);
  CHECK(from_nsp.initializers == from_folder.initializers);

  // A module that is not an NSO is named CONTAINER:NAME.
  files[2].bytes.assign(0x100, 0);
  write_file_if_changed(path, test::make_pfs0(files));
  CHECK_THROWS_WITH(nx::load_exefs(path), Catch::Contains("title.nsp:sdk: offset 0x0: an ExeFS module must be an NSO"));
  // No main.
  write_file_if_changed(path, test::make_pfs0({files[0]}));
  CHECK_THROWS_WITH(nx::load_exefs(path), Catch::Contains("the PFS0 holds no `main` module"));
}

TEST_CASE("Malformed PFS0 files are errors naming file and offset, and NCAs are refused", "[switch]") {
  const std::vector<uint8_t> good = test::make_pfs0({{"main", std::vector<uint8_t>(0x40, 7)}, {"sdk", std::vector<uint8_t>(0x10, 9)}});
  auto error_of = [](const std::vector<uint8_t>& bytes, const std::string& name = "t.nsp") {
    try {
      (void)nx::read_pfs0(bytes, name);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // Every truncation is an error (never a read past the end).
  for (size_t n = 0; n < good.size() - 0x10; ++n) CHECK(error_of({good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)}) != "no error");
  auto with_u32 = [&](size_t at, uint32_t value) {
    std::vector<uint8_t> b = good;
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(value >> (8 * i));
    return b;
  };
  auto with_u64 = [&](size_t at, uint64_t value) {
    std::vector<uint8_t> b = good;
    for (int i = 0; i < 8; ++i) b[at + i] = static_cast<uint8_t>(value >> (8 * i));
    return b;
  };
  CHECK_THAT(error_of(with_u32(0, 0x30534651)), Catch::Contains("t.nsp: offset 0x0: not a PFS0"));
  CHECK_THAT(error_of(with_u32(4, 0x10000)), Catch::Contains("offset 0x4: 65536 file entries end at 0x180010"));
  CHECK_THAT(error_of(with_u32(8, 0x100000)), Catch::Contains("offset 0x8: the 0x100000-byte string table"));
  CHECK_THAT(error_of(with_u64(0x10, 0x1000)), Catch::Contains("offset 0x10: file 'main' at data offset 0x1000+0x40 is outside"));
  CHECK_THAT(error_of(with_u64(0x18, ~uint64_t{0})), Catch::Contains("offset 0x10: file 'main'"));          // size wrapping past the end
  CHECK_THAT(error_of(with_u32(0x20, 0x1000)), Catch::Contains("offset 0x20: file 0's name at 0x1000 is outside"));
  CHECK_THAT(error_of(with_u32(0x38, 0)), Catch::Contains("offset 0x38: file 'main' appears twice"));
  // An NCA: kiln does not decrypt one; a decrypted one (NCA3 at 0x200) is refused too.
  std::vector<uint8_t> nca(0x400, 0x5a);
  CHECK_THAT(error_of(nca, "program.nca"), Catch::Contains("program.nca: offset 0x0: this is an NCA: kiln does not read NCAs"));
  std::memcpy(nca.data() + 0x200, "NCA3", 4);
  CHECK_THAT(error_of(nca, "x.bin"), Catch::Contains("this is an NCA"));
}

TEST_CASE("sm's service access check: names, a trailing '*' prefix, no list allowing everything", "[switch]") {
  const hos::AllowedServices allowed = std::vector<std::string>{"lm", "fsp*", "set:sys"};
  CHECK(hos::service_allowed(allowed, "lm"));
  CHECK(hos::service_allowed(allowed, "fsp-srv"));
  CHECK(hos::service_allowed(allowed, "fsp"));
  CHECK(hos::service_allowed(allowed, "set:sys"));
  CHECK(!hos::service_allowed(allowed, "set"));
  CHECK(!hos::service_allowed(allowed, "lm:x"));
  CHECK(!hos::service_allowed(allowed, "vi:u"));
  CHECK(!hos::service_allowed(hos::AllowedServices{std::vector<std::string>{}}, "lm"));
  CHECK(hos::service_allowed(std::nullopt, "anything"));
  CHECK(hos::sm_result::not_allowed == 0x1015); // switchbrew "Error codes": sm (21), description 8
}
