// NSO/NRO loaders against files our own writer (module_writer) makes from fixtures/sample.elf: segment bytes,
// symbols, build ID, relocations and the ELF view must match the ELF they came from; malformed files are errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>

#include "recompiler/loaders/switch/sha256.h"
#include "recompiler/loaders/switch/switch_module.h"
#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "tests/switch/module_writer.h"

namespace {

using namespace kiln;

struct Fixture {
  std::vector<uint8_t> elf_bytes = read_file(std::string(KILN_SOURCE_DIR) + "/tests/switch/fixtures/sample.elf");
  elf::ElfFile elf{elf_bytes, "sample.elf"};
  std::vector<uint8_t> nso = nx::testing::write_nso(elf);
  std::vector<uint8_t> nro = nx::testing::write_nro(elf);
  uint64_t base() const { return elf.segments()[0].address; }
  std::vector<uint8_t> elf_segment(size_t i) const {
    const auto span = elf.segment_bytes(elf.segments()[i]);
    return {span.begin(), span.end()};
  }
  uint64_t symbol(const std::string& name) const {
    for (const auto& s : elf.symbols())
      if (s.name == name) return s.address;
    FAIL("no symbol " << name);
    return 0;
  }
};

std::vector<uint8_t> bytes_of(std::span<const uint8_t> span) { return {span.begin(), span.end()}; }

std::string hex(std::span<const uint8_t> bytes) {
  std::string text;
  for (uint8_t b : bytes) text += "0123456789abcdef"[b >> 4], text += "0123456789abcdef"[b & 15];
  return text;
}

std::map<std::string, uint64_t> symbol_offsets(const nx::Module& module) {
  std::map<std::string, uint64_t> symbols;
  for (const auto& s : module.symbols) symbols[s.name] = s.offset;
  return symbols;
}

/// Loads `bytes` expecting a kiln::Error whose text contains `expected`, naming the file and an offset.
void require_error(const std::vector<uint8_t>& bytes, const std::string& expected) {
  try {
    nx::load_module(bytes, "bad.nso", nx::default_load_base);
    FAIL("no error; expected: " << expected);
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find(expected) != std::string::npos);
    CHECK(std::string(e.location().file).starts_with("bad.nso"));
    CHECK(e.location().offset.has_value());
  }
}

} // namespace

TEST_CASE("SHA-256 matches the FIPS 180-4 examples", "[switch]") {
  const std::string abc = "abc";
  CHECK(hex(nx::sha256({reinterpret_cast<const uint8_t*>(abc.data()), abc.size()})) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const std::string two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  CHECK(hex(nx::sha256({reinterpret_cast<const uint8_t*>(two_blocks.data()), two_blocks.size()})) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(hex(nx::sha256({})) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("NSO: LZ4 segments decompress to the ELF's segment bytes, with hashes, build ID, MOD0 and symbols", "[switch]") {
  const Fixture f;
  REQUIRE(nx::detect_format(f.nso) == nx::Format::nso);
  const nx::Module m = nx::load_nso(f.nso, "sample.nso");
  REQUIRE(m.segments.size() == 3);
  for (const auto& s : m.segments) {
    CHECK(s.compressed);
    CHECK(s.hash_checked);
    CHECK(s.file_size < s.size + 64);
  }
  CHECK(bytes_of(m.segment_bytes(m.segments[0])) == f.elf_segment(0));
  CHECK(bytes_of(m.segment_bytes(m.segments[2])) == f.elf_segment(2));
  // rodata: the ELF's bytes, then the dynamic tables the writer appended.
  const auto rodata = bytes_of(m.segment_bytes(m.segments[1]));
  const auto elf_rodata = f.elf_segment(1);
  REQUIRE(rodata.size() > elf_rodata.size());
  CHECK(std::equal(elf_rodata.begin(), elf_rodata.end(), rodata.begin()));
  CHECK(m.segments[1].memory_offset == f.elf.segments()[1].address - f.base());
  CHECK(m.bss_size == f.elf.segments()[2].memory_size - f.elf.segments()[2].file_size);
  const auto digest = nx::sha256(f.elf_bytes);
  CHECK(std::equal(digest.begin(), digest.begin() + 20, m.build_id.begin()));
  CHECK(std::all_of(m.build_id.begin() + 20, m.build_id.end(), [](uint8_t b) { return b == 0; }));
  REQUIRE(m.mod0_offset);
  // Independently from the ELF: text word 4 is the MOD0 offset; MOD0 word 1 is .dynamic relative to MOD0.
  const auto elf_text = f.elf_segment(0);
  const auto elf_rodata_bytes = f.elf_segment(1);
  const uint32_t mod0 = load<uint32_t>(elf_text.data() + 4, Endian::little);
  CHECK(*m.mod0_offset == mod0);
  const uint64_t mod0_in_rodata = mod0 - (f.elf.segments()[1].address - f.base());
  CHECK(std::memcmp(elf_rodata_bytes.data() + mod0_in_rodata, "MOD0", 4) == 0);
  CHECK(*m.dynamic_offset == mod0 + load<uint32_t>(elf_rodata_bytes.data() + mod0_in_rodata + 4, Endian::little));
  const auto symbols = symbol_offsets(m);
  CHECK(symbols.at("classify") == f.symbol("classify") - f.base());
  CHECK(symbols.at("checksum") == f.symbol("checksum") - f.base());
  CHECK(symbols.at("program_main") == f.symbol("program_main") - f.base());
  CHECK(symbols.at("pointer") == f.symbol("pointer") - f.base());
  CHECK(symbols.size() == f.elf.symbols().size());
  // NSO relocations are the dynamic loader's business: listed, not applied.
  REQUIRE(m.relocations.size() == 1);
  CHECK(m.relocations[0].offset == f.symbol("pointer") - f.base());
  CHECK(m.applied_relocations == 0);
}

TEST_CASE("NRO: segments read back, R_AARCH64_RELATIVE applied for the load base", "[switch]") {
  const Fixture f;
  REQUIRE(nx::detect_format(f.nro) == nx::Format::nro);
  // Loaded where the ELF was linked, the relocated word becomes the ELF's own value again.
  const nx::Module at_elf_base = nx::load_nro(f.nro, "sample.nro", f.base());
  CHECK(at_elf_base.applied_relocations == 1);
  CHECK(at_elf_base.unapplied_relocations.empty());
  CHECK(bytes_of(at_elf_base.segment_bytes(at_elf_base.segments[2])) == f.elf_segment(2));
  auto text = bytes_of(at_elf_base.segment_bytes(at_elf_base.segments[0]));
  auto elf_text = f.elf_segment(0);
  REQUIRE(text.size() == elf_text.size());
  CHECK(load<uint32_t>(text.data() + 0x10, Endian::little) == 0x304f524e); // the NRO header lives in text 0x10..0x80
  std::fill(text.begin() + 0x10, text.begin() + 0x80, 0);
  CHECK(text == elf_text);
  const nx::Module high = nx::load_nro(f.nro, "sample.nro", nx::default_load_base);
  const uint64_t pointer = f.symbol("pointer") - f.base();
  CHECK(load<uint64_t>(high.image.data() + pointer, Endian::little) == nx::default_load_base + (f.symbol("classify") - f.base()));
  CHECK(symbol_offsets(high) == symbol_offsets(nx::load_nso(f.nso, "sample.nso")));

  // Another type (R_AARCH64_ABS64 = 257) is listed, not applied: the word keeps its stored zero.
  const auto layout = nx::testing::lay_out(f.elf);
  const uint64_t rela = (layout.dynstr_offset + layout.dynstr_size + 7) / 8 * 8;
  auto other = f.nro;
  REQUIRE(load<uint64_t>(other.data() + rela + 8, Endian::little) == 1027);
  store<uint64_t>(other.data() + rela + 8, 257, Endian::little);
  const nx::Module unapplied = nx::load_nro(other, "other.nro", nx::default_load_base);
  CHECK(unapplied.applied_relocations == 0);
  REQUIRE(unapplied.unapplied_relocations.size() == 1);
  CHECK(unapplied.unapplied_relocations[0].type == 257);
  CHECK(unapplied.unapplied_relocations[0].offset == pointer);
  CHECK(load<uint64_t>(unapplied.image.data() + pointer, Endian::little) == 0);
}

TEST_CASE("A loaded module as an ELF: same segments at the load base, entry at text, symbols moved", "[switch]") {
  const Fixture f;
  const nx::Module m = nx::load_nso(f.nso, "sample.nso");
  const uint64_t base = nx::default_load_base;
  const std::vector<uint8_t> bytes = nx::to_elf(m, base);
  const elf::ElfFile view(bytes, "sample.nso (as ELF)");
  CHECK(view.entry() == base);
  REQUIRE(view.segments().size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    CHECK(view.segments()[i].address - base == f.elf.segments()[i].address - f.base());
    CHECK(view.segments()[i].flags == f.elf.segments()[i].flags);
    CHECK(bytes_of(view.segment_bytes(view.segments()[i])) == bytes_of(m.segment_bytes(m.segments[i])));
  }
  CHECK(view.segments()[2].memory_size == f.elf.segments()[2].memory_size);
  std::map<std::string, uint64_t> moved, original;
  for (const auto& s : view.symbols()) moved[s.name] = s.address - base;
  for (const auto& s : f.elf.symbols()) original[s.name] = s.address - f.base();
  CHECK(moved == original);
}

TEST_CASE("Malformed NSO and NRO files are errors naming file and offset", "[switch]") {
  const Fixture f;
  auto patched = [](std::vector<uint8_t> bytes, size_t at, uint32_t value) {
    store<uint32_t>(bytes.data() + at, value, Endian::little);
    return bytes;
  };
  require_error(std::vector<uint8_t>(0x100, 0), "not a Switch executable");
  require_error(std::vector<uint8_t>(f.nso.begin(), f.nso.begin() + 0x80), "NSO header truncated");
  require_error(std::vector<uint8_t>(f.nso.begin(), f.nso.end() - 1), "outside the file");
  require_error(patched(f.nso, 0x10, 0xfffff000), "text segment file range");
  require_error(patched(f.nso, 0x18, load<uint32_t>(f.nso.data() + 0x18, Endian::little) + 4), "text segment decompresses to");
  require_error(patched(f.nso, 0x24, 0), "overlaps the previous segment");
  require_error(patched(f.nso, 0x18, 0x1000000), "more than LZ4 can expand");
  auto bad_hash = f.nso;
  bad_hash[0xc0] ^= 1;
  require_error(bad_hash, "rodata segment SHA-256 does not match");
  auto bad_lz4 = f.nso;
  const uint32_t text_at = load<uint32_t>(f.nso.data() + 0x10, Endian::little);
  std::fill(bad_lz4.begin() + text_at, bad_lz4.begin() + text_at + 8, 0xff);
  require_error(bad_lz4, "text segment");
  require_error(patched(f.nro, 0x18, static_cast<uint32_t>(f.nro.size() + 1)), "larger than the file");
  require_error(patched(f.nro, 0x4, 0x123456), "MOD0 offset");
  require_error(patched(f.nro, 0x4, 0x8), "no MOD0 header");
  require_error(patched(f.nro, 0x28, 0x100), "overlaps the previous segment");
  // Every truncation of either file is a clean error, never a crash.
  for (const auto* file : {&f.nso, &f.nro})
    for (size_t size = 0; size < file->size(); size += 7) {
      const std::vector<uint8_t> cut(file->begin(), file->begin() + static_cast<std::ptrdiff_t>(size));
      CHECK_THROWS_AS(nx::load_module(cut, "cut", nx::default_load_base), Error);
    }
}
