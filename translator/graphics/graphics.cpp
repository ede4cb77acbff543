#include "translator/graphics/graphics.h"

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/sass/sm5x/lower.h"
#include "translator/spirv/validate.h"

namespace kiln::graphics {
namespace {

spirv::Interpolation interpolation_of(sass::sm5x::PixelImap imap) {
  switch (imap) {
  case sass::sm5x::PixelImap::constant: return spirv::Interpolation::flat;
  case sass::sm5x::PixelImap::screen_linear: return spirv::Interpolation::linear;
  default: return spirv::Interpolation::perspective;
  }
}

} // namespace

Arch parse_arch(std::string_view text) {
  if (text == "sm50") return Arch::sm50;
  if (text == "sm53") return Arch::sm53;
  if (text == "sm60") return Arch::sm60;
  if (text == "sm75") return Arch::sm75;
  if (text == "sm86") return Arch::sm86;
  throw Error(fmt::format("unknown architecture '{}' (expected sm50, sm53, sm60, sm75 or sm86)", text));
}

std::string_view arch_name(Arch arch) {
  static constexpr std::string_view names[] = {"sm50", "sm53", "sm60", "sm75", "sm86"};
  return names[static_cast<size_t>(arch)];
}

Translation translate_graphics(std::span<const uint8_t> bytes, Arch arch, std::string_view name, const TranslateOptions& options) {
  if (arch == Arch::sm75 || arch == Arch::sm86) {
    throw Error(fmt::format("{}: {} graphics programs are not translated yet", name, arch_name(arch)));
  }
  const sass::sm5x::Program program = sass::sm5x::decode_program(bytes, name);
  const sass::sm5x::ShaderProgramHeader& header = *program.header;
  ir::Function function = sass::sm5x::lower_graphics(program, {.bound_texture_bank = options.bound_texture_bank,
                                                                          .constant_bank_word = options.constant_bank_word});

  Translation result;
  result.instructions = program.instructions.size();
  spirv::GraphicsInterface interface;
  if (header.stage == sass::sm5x::ShaderStage::pixel) {
    interface.stage = spirv::GraphicsStage::fragment;
    for (uint32_t address : header.input_attributes()) interface.interpolation[address] = interpolation_of(header.input_interpolation(address));
    result.color_masks = header.omap_target;
  }
  result.stage = interface.stage;
  spirv::GraphicsOptions backend = options.backend;
  backend.zero_registers = options.zero_registers;
  result.spirv = spirv::emit_graphics(function, interface, backend);
  if (const auto messages = spirv::validate(result.spirv); !messages.empty()) {
    throw Error(fmt::format("{}: the SPIR-V fails validation: {}", name, messages.front()));
  }
  result.resources = resource_bindings(result.spirv);
  if (options.want_glsl) result.glsl = spirv::to_glsl(result.spirv);
  return result;
}

} // namespace kiln::graphics
