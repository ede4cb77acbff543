// Raw graphics programs for `kiln shaders disasm|translate` (see shaders_graphics.h). This file registers no
// command: the disasm and translate commands (command_shaders*.cpp) hand raw programs to it.
#include "tools/kiln/shaders_graphics.h"

#include <charconv>
#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/base/log.h"
#include "translator/graphics/graphics.h"
#include "translator/sass/sm5x/program.h"
#include "translator/sass/sm86/instruction.h"
#include "translator/spirv/validate.h"

namespace kiln::cli {
namespace {

constexpr size_t kTuringCodeOffset = 0x80; ///< SM75+ pad the 0x50-byte SPH to 128 bytes

/// The file extension glslang and SPIRV-Cross use for a stage's GLSL.
const char* glsl_extension(spirv::GraphicsStage stage) {
  switch (stage) {
    case spirv::GraphicsStage::vertex: return ".vert";
    case spirv::GraphicsStage::tess_control: return ".tesc";
    case spirv::GraphicsStage::tess_evaluation: return ".tese";
    case spirv::GraphicsStage::geometry: return ".geom";
    case spirv::GraphicsStage::fragment: return ".frag";
  }
  return ".glsl";
}

} // namespace

bool is_raw_graphics_program(const std::string& file) {
  const std::vector<uint8_t> bytes = read_file(file, kiln::input::gpu_program);
  return !(bytes.size() >= 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F');
}

void disassemble_graphics_program(const std::string& file, const std::string& arch) {
  const std::vector<uint8_t> bytes = read_file(file, kiln::input::gpu_program);
  const graphics::Arch target = graphics::parse_arch(arch);
  if (target != graphics::Arch::sm75 && target != graphics::Arch::sm86) {
    if (sass::sm5x::decode_program(bytes, file).instructions.empty()) throw Error(in_file(file), "no instructions after the SPH");
    fmt::print("{}", sass::sm5x::disassemble_program(bytes, file));
    return;
  }
  const sass::sm5x::ShaderProgramHeader header = sass::sm5x::parse_sph(bytes, file);
  if (bytes.size() < kTuringCodeOffset) throw Error(at_offset(file, bytes.size()), "shorter than the 0x80-byte padded SPH");
  fmt::print("// {}: {} program (SPH version {}), code at 0x{:x}\n", file, sass::sm5x::stage_name(header.stage), header.version, kTuringCodeOffset);
  const auto architecture = target == graphics::Arch::sm75 ? sass::sm86::Architecture::sm75 : sass::sm86::Architecture::sm86;
  const std::span<const uint8_t> code = std::span(bytes).subspan(kTuringCodeOffset);
  const std::vector<sass::sm86::Instruction> instructions = sass::sm86::decode_all(code, {file, "", kTuringCodeOffset}, architecture);
  if (instructions.empty()) throw Error(at_offset(file, kTuringCodeOffset), "no instructions after the SPH");
  for (const auto& instruction : instructions) {
    fmt::print("        /*{:04x}*/  {:<60} /* 0x{:016x}{:016x} */\n", instruction.offset, sass::sm86::disassemble(instruction) + " ;",
               instruction.word.high, instruction.word.low);
  }
}

void translate_graphics_program(const std::string& file, const std::string& arch, const std::string& output, bool glsl,
                                const std::vector<std::string>& constant_banks, const GraphicsHostOptions& host) {
  const std::vector<uint8_t> bytes = read_file(file, kiln::input::gpu_program);
  std::map<uint32_t, std::vector<uint8_t>> banks;
  for (const std::string& entry : constant_banks) {
    const size_t colon = entry.find(':');
    uint32_t bank = 0;
    const auto [end, error] = std::from_chars(entry.data(), entry.data() + (colon == std::string::npos ? 0 : colon), bank);
    if (colon == std::string::npos || colon == 0 || error != std::errc() || end != entry.data() + colon || bank > 17) {
      throw Error(fmt::format("--const-bank '{}': expected BANK:FILE with a bank number 0-17", entry));
    }
    banks[bank] = read_file(entry.substr(colon + 1), kiln::input::gpu_program);
  }
  graphics::TranslateOptions options{.zero_registers = host.zero_registers, .want_glsl = glsl};
  options.backend.gather_bias_bits = host.gather_bias_bits;
  options.backend.floats = host.floats;
  options.constant_bank_word = [&banks](uint32_t bank, uint32_t offset) -> std::optional<uint32_t> {
    const auto found = banks.find(bank);
    if (found == banks.end() || offset % 4 != 0 || offset + 4 > found->second.size()) return std::nullopt;
    const uint8_t* word = found->second.data() + offset;
    return static_cast<uint32_t>(word[0] | word[1] << 8 | word[2] << 16 | static_cast<uint32_t>(word[3]) << 24);
  };
  const graphics::Translation translation = graphics::translate_graphics(bytes, graphics::parse_arch(arch), file, options);
  spirv::write_validated(output, translation.spirv, file);
  if (glsl) {
    write_file_if_changed(std::filesystem::path(output).replace_extension(glsl_extension(translation.stage)), translation.glsl);
  }
  log::info("{}: {} instructions -> {} ({} words)", file, translation.instructions, output, translation.spirv.size());
}

} // namespace kiln::cli
