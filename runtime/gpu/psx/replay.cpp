#include "runtime/gpu/psx/replay.h"

#include <fmt/format.h>

#include <cctype>

#include "runtime/base/error.h"

namespace kiln::psx {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

GpuWrite parse_line(std::string_view line, uint32_t number, const std::string& file_name) {
  const auto fail = [&](const std::string& why) {
    return Error(in_file(file_name), fmt::format("line {}: {} (expected `GP0 <hex word>` or `GP1 <hex word>`): '{}'",
                                                 number, why, line));
  };
  const size_t space = line.find_first_of(" \t");
  if (space == std::string_view::npos) throw fail("missing the word");
  const std::string_view port = line.substr(0, space);
  std::string_view hex = trim(line.substr(space));
  GpuWrite write{GpuWrite::Port::gp0, 0, number};
  if (equals_ignoring_case(port, "GP1")) write.port = GpuWrite::Port::gp1;
  else if (!equals_ignoring_case(port, "GP0")) throw fail(fmt::format("unknown port '{}'", port));
  if (hex.size() > 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) hex.remove_prefix(2);
  if (hex.empty() || hex.size() > 8) throw fail("the word must be 1 to 8 hex digits");
  for (const char c : hex) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) throw fail(fmt::format("'{}' is not a hex digit", c));
    write.value = write.value << 4 | static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(c))
                                                              ? c - '0'
                                                              : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
  }
  return write;
}

} // namespace

std::vector<GpuWrite> parse_gpu_words(std::string_view text, const std::string& file_name) {
  std::vector<GpuWrite> writes;
  uint32_t number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++number;
    line = trim(line.substr(0, line.find('#')));
    if (!line.empty()) writes.push_back(parse_line(line, number, file_name));
  }
  return writes;
}

void replay(Gpu& gpu, const std::vector<GpuWrite>& writes, const std::string& file_name) {
  uint32_t command_line = 0;
  for (const GpuWrite& write : writes) {
    if (write.port == GpuWrite::Port::gp1) {
      gpu.write_gp1(write.value);
      continue;
    }
    if (!gpu.command_pending()) command_line = write.line;
    gpu.write_gp0(write.value);
    while (gpu.vram_read_pending()) gpu.read_gpuread();
  }
  if (const auto pending = gpu.pending_command()) {
    throw Error(in_file(file_name), fmt::format("line {}: truncated command at the end of the stream: {}",
                                                command_line, pending->describe()));
  }
}

std::vector<uint8_t> vram_to_bytes(const Vram& vram) {
  std::vector<uint8_t> bytes(vram.pixels.size() * 2);
  for (size_t i = 0; i < vram.pixels.size(); ++i) {
    bytes[2 * i] = static_cast<uint8_t>(vram.pixels[i]);
    bytes[2 * i + 1] = static_cast<uint8_t>(vram.pixels[i] >> 8);
  }
  return bytes;
}

void vram_from_bytes(Vram& vram, const std::vector<uint8_t>& bytes, const std::string& file_name) {
  if (bytes.size() != vram.pixels.size() * 2) {
    throw Error(in_file(file_name), fmt::format("a VRAM dump is {} bytes (1024x512 16-bit pixels), this file has {}",
                                                vram.pixels.size() * 2, bytes.size()));
  }
  for (size_t i = 0; i < vram.pixels.size(); ++i) {
    vram.pixels[i] = static_cast<uint16_t>(bytes[2 * i] | bytes[2 * i + 1] << 8);
  }
}

} // namespace kiln::psx
