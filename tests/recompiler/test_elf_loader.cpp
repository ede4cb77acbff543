#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>

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
