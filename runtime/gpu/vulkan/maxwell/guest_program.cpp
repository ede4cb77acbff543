#include "runtime/gpu/vulkan/maxwell/guest_program.h"

#include <cstring>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/graphics/graphics.h"
#include "translator/sass/sm86/instruction.h"

namespace kiln::vulkan {
namespace {

constexpr uint64_t kSm5xSelfBranch = 0xe2400fffff87000f; // BRA to itself: what drivers place after a program's EXIT
constexpr size_t kMaxSm5xProgramWords = 1 << 16;
constexpr uint64_t kMaxSm86GraphicsCode = 1 << 20;

std::vector<uint8_t> sm5x_graphics_bytes(const maxwell::AddressSpace& memory, uint64_t address) {
  std::vector<uint8_t> bytes = memory.read_bytes(address, maxwell::shader_header_size);
  uint64_t at = address + maxwell::shader_header_size;
  for (size_t words = 0; words < kMaxSm5xProgramWords; words += 4, at += 32) {
    if (!memory.is_mapped(at, 32)) break;
    const std::vector<uint8_t> group = memory.read_bytes(at, 32);
    uint64_t w[4];
    std::memcpy(w, group.data(), 32);
    if (w[0] == 0 && w[1] == 0 && w[2] == 0 && w[3] == 0) break;
    bytes.insert(bytes.end(), group.begin(), group.end());
    if (w[1] == kSm5xSelfBranch || w[2] == kSm5xSelfBranch || w[3] == kSm5xSelfBranch) break;
  }
  return bytes;
}

} // namespace

std::vector<uint8_t> sm86_code_bytes(const maxwell::AddressSpace& memory, uint64_t address, uint64_t limit, std::string_view what,
                                     uint64_t code_offset) {
  const sass::sm86::DecodeLocation location{std::string(what), "", code_offset};
  std::vector<uint8_t> bytes;
  bool exit_seen = false;
  for (uint64_t offset = 0; offset < limit; offset += 16) {
    if (!memory.is_mapped(address + offset, 16)) {
      throw Error(fmt::format("{}: unmapped GPU memory at {:#x} before the branch to itself that ends a program", what, address + offset));
    }
    uint8_t word[16];
    memory.read(address + offset, word);
    bytes.insert(bytes.end(), word, word + 16);
    const sass::sm86::Instruction instruction =
        sass::sm86::decode(sass::sm86::Word128::from_bytes(std::span<const uint8_t, 16>(word)), offset, location);
    if (instruction.opcode == sass::sm86::Opcode::EXIT) exit_seen = true;
    if (exit_seen && instruction.opcode == sass::sm86::Opcode::BRA && !instruction.is_predicated() && !instruction.operands.empty() &&
        instruction.operands.back().kind == sass::sm86::OperandKind::branch_target &&
        static_cast<uint64_t>(instruction.operands.back().value) == offset) {
      return bytes;
    }
  }
  throw Error(fmt::format("{}: no EXIT followed by a branch to itself within {} KiB", what, limit / 1024));
}

std::vector<uint8_t> graphics_program_bytes(const maxwell::AddressSpace& memory, uint64_t address, maxwell::ProgramIsa isa,
                                            std::string_view what) {
  if (isa == maxwell::ProgramIsa::sm5x) return sm5x_graphics_bytes(memory, address);
  std::vector<uint8_t> bytes = memory.read_bytes(address, graphics::padded_sph_bytes);
  const std::vector<uint8_t> code =
      sm86_code_bytes(memory, address + graphics::padded_sph_bytes, kMaxSm86GraphicsCode, what, graphics::padded_sph_bytes);
  bytes.insert(bytes.end(), code.begin(), code.end());
  return bytes;
}

} // namespace kiln::vulkan
