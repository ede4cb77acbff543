#include "recompiler/loaders/psxexe/psx_exe.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/platform/psx/memory_map.h"

namespace kiln::psx {
namespace {

constexpr std::string_view magic = "PS-X EXE";
// Header field offsets.
constexpr size_t pc0_at = 0x10, gp0_at = 0x14, t_addr_at = 0x18, t_size_at = 0x1C, b_addr_at = 0x28, b_size_at = 0x2C,
                 s_addr_at = 0x30, s_size_at = 0x34, region_at = 0x4C, region_end = 0x800;

/// Whether [address, address + size) lies in one copy of main RAM (no wrap into the next mirror).
bool in_ram(uint32_t address, uint32_t size) {
  const auto offset = ram_offset(address);
  return offset && uint64_t{*offset} + size <= ram_size;
}

bool in_scratchpad(uint32_t address, uint32_t size) {
  const auto offset = scratchpad_offset(address);
  return offset && uint64_t{*offset} + size <= scratchpad_size;
}

} // namespace

PsxExe parse_psx_exe(std::span<const uint8_t> bytes, std::string name) {
  ByteReader in(bytes, name);
  if (bytes.size() < PsxExe::header_size)
    in.fail_at(0, fmt::format("PS-X EXE header needs {:#x} bytes, the file has {:#x}", PsxExe::header_size, bytes.size()));
  const auto head = in.span_at(0, magic.size());
  if (!std::equal(magic.begin(), magic.end(), head.begin()))
    in.fail_at(0, "not a PS-X EXE (the file does not start with \"PS-X EXE\")");

  PsxExe exe;
  exe.name = std::move(name);
  exe.pc0 = in.peek_at<uint32_t>(pc0_at);
  exe.gp0 = in.peek_at<uint32_t>(gp0_at);
  exe.text_address = in.peek_at<uint32_t>(t_addr_at);
  const uint32_t text_size = in.peek_at<uint32_t>(t_size_at);
  exe.bss_address = in.peek_at<uint32_t>(b_addr_at);
  exe.bss_size = in.peek_at<uint32_t>(b_size_at);
  exe.stack_base = in.peek_at<uint32_t>(s_addr_at);
  exe.stack_offset = in.peek_at<uint32_t>(s_size_at);

  if (text_size == 0) in.fail_at(t_size_at, "t_size is 0: the EXE has no text");
  if (uint64_t{text_size} > bytes.size() - PsxExe::header_size)
    in.fail_at(t_size_at, fmt::format("t_size {:#x} runs past the end of the file ({:#x} bytes after the header)", text_size,
                                      bytes.size() - PsxExe::header_size));
  if (exe.text_address % 4 != 0) in.fail_at(t_addr_at, fmt::format("t_addr {:#010x} is not word aligned", exe.text_address));
  if (!in_ram(exe.text_address, text_size))
    in.fail_at(t_addr_at, fmt::format("text [{:#010x}, +{:#x}) is not inside the 2 MiB of main RAM", exe.text_address, text_size));
  if (*ram_offset(exe.text_address) < 0x10000)
    in.fail_at(t_addr_at, fmt::format("text at {:#010x} overlaps the BIOS kernel area (first 64 KiB of RAM)", exe.text_address));
  if (exe.pc0 % 4 != 0 || exe.pc0 < exe.text_address || exe.pc0 - exe.text_address >= text_size)
    in.fail_at(pc0_at, fmt::format("pc0 {:#010x} is not an aligned address inside the text [{:#010x}, {:#010x})", exe.pc0,
                                   exe.text_address, exe.text_address + text_size));
  if (exe.bss_size != 0 && !in_ram(exe.bss_address, exe.bss_size))
    in.fail_at(b_addr_at, fmt::format("BSS [{:#010x}, +{:#x}) is not inside main RAM", exe.bss_address, exe.bss_size));
  if (exe.has_stack()) {
    const uint32_t sp = exe.initial_sp();
    if (sp < exe.stack_base || !(in_ram(sp - 4, 4) || in_scratchpad(sp - 4, 4)))
      in.fail_at(s_addr_at, fmt::format("initial stack {:#010x} + {:#x} is not in RAM or the scratchpad", exe.stack_base,
                                        exe.stack_offset));
  }

  const auto region = in.span_at(region_at, region_end - region_at);
  for (const uint8_t ch : region) {
    if (ch == 0) break;
    exe.region.push_back(ch >= 0x20 && ch < 0x7F ? static_cast<char>(ch) : '?');
  }
  while (!exe.region.empty() && exe.region.back() == ' ') exe.region.pop_back();

  const auto text = in.span_at(PsxExe::header_size, text_size);
  exe.text.assign(text.begin(), text.end());
  return exe;
}

PsxExe load_psx_exe(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file(path, kiln::input::executable);
  return parse_psx_exe(bytes, path.string());
}

} // namespace kiln::psx
