// PS-X EXE parsing: fields from a header laid out by hand per psx-spx, and a clear error for each bad field.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "recompiler/loaders/psxexe/psx_exe.h"
#include "runtime/base/error.h"

using kiln::psx::PsxExe;

namespace {

void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

/// A well-formed EXE: 0x1000 bytes of text at 80010000h, entry 80010010h, stack 801FFF00h.
std::vector<uint8_t> sample_exe() {
  std::vector<uint8_t> b(0x800 + 0x1000, 0);
  std::memcpy(b.data(), "PS-X EXE", 8);
  put32(b, 0x10, 0x80010010); // pc0
  put32(b, 0x14, 0x80018000); // gp0
  put32(b, 0x18, 0x80010000); // t_addr
  put32(b, 0x1C, 0x1000);     // t_size
  put32(b, 0x28, 0x80011000); // b_addr
  put32(b, 0x2C, 0x200);      // b_size
  put32(b, 0x30, 0x801FFF00); // s_addr
  put32(b, 0x34, 0x0);        // s_size
  const char region[] = "Sony Computer Entertainment Inc. for Europe area";
  std::memcpy(b.data() + 0x4C, region, sizeof region - 1);
  b[0x800] = 0xAB;
  b[0x800 + 0xFFF] = 0xCD;
  return b;
}

/// The error message parse_psx_exe gives for `bytes`, or "" when it parses.
std::string error_of(const std::vector<uint8_t>& bytes) {
  try {
    kiln::psx::parse_psx_exe(bytes, "GAME.EXE");
  } catch (const kiln::Error& e) {
    return e.what();
  }
  return {};
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST_CASE("psxexe: header fields and text", "[psxexe]") {
  const PsxExe exe = kiln::psx::parse_psx_exe(sample_exe(), "GAME.EXE");
  CHECK(exe.pc0 == 0x80010010);
  CHECK(exe.gp0 == 0x80018000);
  CHECK(exe.text_address == 0x80010000);
  CHECK(exe.text.size() == 0x1000);
  CHECK(exe.text.front() == 0xAB);
  CHECK(exe.text.back() == 0xCD);
  CHECK(exe.text_end() == 0x80011000);
  CHECK(exe.bss_address == 0x80011000);
  CHECK(exe.bss_size == 0x200);
  CHECK(exe.has_stack());
  CHECK(exe.initial_sp() == 0x801FFF00);
  CHECK(exe.region == "Sony Computer Entertainment Inc. for Europe area");
}

TEST_CASE("psxexe: load from a file", "[psxexe]") {
  const auto path = std::filesystem::temp_directory_path() / "kiln_test_psxexe.exe";
  const auto bytes = sample_exe();
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  const PsxExe exe = kiln::psx::load_psx_exe(path);
  CHECK(exe.name == path.string());
  CHECK(exe.text.size() == 0x1000);
  std::filesystem::remove(path);
}

TEST_CASE("psxexe: malformed files are reported with the field's offset", "[psxexe]") {
  CHECK(error_of(sample_exe()).empty());

  auto short_file = sample_exe();
  short_file.resize(0x40);
  CHECK(mentions(error_of(short_file), "GAME.EXE: offset 0x0: PS-X EXE header needs 0x800 bytes"));

  auto bad_magic = sample_exe();
  bad_magic[3] = 'Y';
  CHECK(mentions(error_of(bad_magic), "not a PS-X EXE"));

  auto truncated = sample_exe();
  truncated.resize(0x800 + 0x800);
  CHECK(mentions(error_of(truncated), "offset 0x1c: t_size 0x1000 runs past the end"));

  auto outside_ram = sample_exe();
  put32(outside_ram, 0x18, 0x801FF800); // 0x1000 bytes would cross the end of the 2 MiB
  put32(outside_ram, 0x10, 0x801FF800);
  CHECK(mentions(error_of(outside_ram), "offset 0x18: text [0x801ff800, +0x1000) is not inside the 2 MiB"));

  auto kernel = sample_exe();
  put32(kernel, 0x18, 0x80000000);
  put32(kernel, 0x10, 0x80000000);
  CHECK(mentions(error_of(kernel), "BIOS kernel area"));

  auto entry = sample_exe();
  put32(entry, 0x10, 0x80011000); // one past the text
  CHECK(mentions(error_of(entry), "offset 0x10: pc0 0x80011000"));
  put32(entry, 0x10, 0x80010002);
  CHECK(mentions(error_of(entry), "offset 0x10: pc0 0x80010002"));

  auto bss = sample_exe();
  put32(bss, 0x28, 0x1F000000);
  CHECK(mentions(error_of(bss), "offset 0x28: BSS"));

  auto stack = sample_exe();
  put32(stack, 0x30, 0x1F000000);
  CHECK(mentions(error_of(stack), "offset 0x30: initial stack"));
  put32(stack, 0x30, 0x1F8003F0); // scratchpad stacks are allowed
  CHECK(error_of(stack).empty());

  auto empty_text = sample_exe();
  put32(empty_text, 0x1C, 0);
  CHECK(mentions(error_of(empty_text), "t_size is 0"));
}
