#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>

#include "runtime/base/elf_container.h"
#include "recompiler/loaders/elf/elf_file.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"

namespace {
const std::string tiny_path = std::string(KILN_SOURCE_DIR) + "/tests/recompiler/fixtures/tiny.elf";
}

TEST_CASE("elf loader reads the tiny AArch64 fixture", "[elf]") {
  const auto bytes = kiln::read_file(tiny_path);
  const kiln::elf::ElfFile elf(bytes, tiny_path);
  // Facts from `aarch64-linux-gnu-readelf -h -l -s tiny.elf`: entry _start = 0x400134, code at 0x400120.
  CHECK(elf.entry() == 0x400134);
  REQUIRE(!elf.segments().empty());
  CHECK(elf.segment_at(elf.entry())->executable());
  bool found_start = false, found_classify = false;
  for (const auto& s : elf.symbols()) {
    found_start |= s.name == "_start" && s.address == 0x400134 && s.is_function;
    found_classify |= s.name == "classify" && s.address == 0x400120 && s.size == 0x14;
  }
  CHECK(found_start);
  CHECK(found_classify);
  const auto word = elf.read_memory(0x400130, 4); // ret = 0xd65f03c0
  CHECK(word == std::vector<uint8_t>{0xc0, 0x03, 0x5f, 0xd6});
}

TEST_CASE("elf loader rejects random bytes, truncation and other machines with located errors", "[elf]") {
  const auto bytes = kiln::read_file(tiny_path);
  std::vector<uint8_t> random(512);
  uint32_t state = 1;
  for (auto& b : random) b = static_cast<uint8_t>((state = state * 1103515245 + 12345) >> 24);
  CHECK_THROWS_WITH(kiln::elf::ElfFile(random, "random.bin"), Catch::Contains("not an ELF"));

  const std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + 40);
  CHECK_THROWS_WITH(kiln::elf::ElfFile(truncated, "truncated.elf"), Catch::Contains("truncated"));

  std::vector<uint8_t> short_headers(bytes.begin(), bytes.begin() + 100); // program headers cut off
  CHECK_THROWS_AS(kiln::elf::ElfFile(short_headers, "cut.elf"), kiln::Error);

  const auto host = kiln::read_file("/proc/self/exe"); // this test is an x86-64 ELF: machine 62
  CHECK_THROWS_WITH(kiln::elf::ElfFile(host, "host.elf"), Catch::Contains("not AArch64"));

  auto bad_segment = bytes;
  bad_segment[64 + 32] = 0xff; // first program header's p_filesz low byte... made huge below
  bad_segment[64 + 32 + 5] = 0x7f;
  CHECK_THROWS_AS(kiln::elf::ElfFile(bad_segment, "bad.elf"), kiln::Error);
}

// A 32-bit big-endian file laid out by hand from the ELF specification (e_ident, then the ELF32 header fields,
// then one 32-byte program header at offset 52): the shared container reads it in its own byte order.
TEST_CASE("elf container reads a 32-bit big-endian header and its program headers", "[elf]") {
  std::vector<uint8_t> file(52 + 32, 0);
  auto put16 = [&](size_t at, uint16_t v) { file[at] = uint8_t(v >> 8); file[at + 1] = uint8_t(v); };
  auto put32 = [&](size_t at, uint32_t v) { put16(at, uint16_t(v >> 16)); put16(at + 2, uint16_t(v)); };
  file[0] = 0x7f, file[1] = 'E', file[2] = 'L', file[3] = 'F', file[4] = 1 /* ELFCLASS32 */, file[5] = 2 /* MSB */, file[6] = 1;
  put16(16, 2);            // e_type ET_EXEC
  put16(18, 20);           // e_machine EM_PPC
  put32(24, 0x80003100);   // e_entry
  put32(28, 52);           // e_phoff
  put16(42, 32);           // e_phentsize
  put16(44, 1);            // e_phnum
  put32(52, 1);            // p_type PT_LOAD
  put32(56, 0);            // p_offset
  put32(60, 0x80000000);   // p_vaddr
  put32(68, 84);           // p_filesz
  put32(72, 0x1000);       // p_memsz
  put32(76, 5);            // p_flags R+X
  const kiln::elf::Container container(file, "be32.elf");
  CHECK(!container.header().is_64);
  CHECK(container.header().byte_order == kiln::Endian::big);
  CHECK(container.header().machine == 20);
  CHECK(container.header().entry == 0x80003100);
  const auto headers = container.program_headers();
  REQUIRE(headers.size() == 1);
  CHECK(headers[0].type == kiln::elf::pt_load);
  CHECK(headers[0].address == 0x80000000);
  CHECK(headers[0].file_size == 84);
  CHECK(headers[0].memory_size == 0x1000);
  CHECK(headers[0].flags == 5);
  CHECK(container.section_headers().empty());
  CHECK(kiln::elf::is_elf(file, false, 20));
  CHECK_FALSE(kiln::elf::is_elf(file, true, 20));
  // One byte short of the program header: an error naming the file, never a read past the end.
  file.pop_back();
  CHECK_THROWS_WITH(kiln::elf::Container(file, "be32.elf").program_headers(), Catch::Contains("be32.elf"));
}
