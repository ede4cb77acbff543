#include "translator/graphics/graphics.h"

#include <algorithm>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/sass/attribute_map.h"
#include "translator/sass/sm5x/lower.h"
#include "translator/sass/sm5x/sph_builder.h"
#include "translator/sass/sm86/lower.h"
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

/// SPH CommonWord3/4 OutputTopology, MaxOutputVertexCount and CommonWord2 ThreadsPerInputPrimitive (the
/// geometry program's invocation count; 0 reads as 1).
spirv::GeometryInterface geometry_interface(const sass::sm5x::ShaderProgramHeader& header, spirv::GeometryInput input, std::string_view name) {
  spirv::GeometryInterface geometry{.input = input};
  switch (header.output_topology) {
  case sass::sm5x::OutputTopology::point_list: geometry.output = spirv::GeometryOutput::points; break;
  case sass::sm5x::OutputTopology::line_strip: geometry.output = spirv::GeometryOutput::line_strip; break;
  case sass::sm5x::OutputTopology::triangle_strip: geometry.output = spirv::GeometryOutput::triangle_strip; break;
  default:
    throw Error(fmt::format("{}: geometry output topology {} is not a point list (1), line strip (6) or triangle strip (7)", name,
                            static_cast<int>(header.output_topology)));
  }
  geometry.max_output_vertices = header.max_output_vertex_count;
  geometry.invocations = std::max<uint32_t>(header.threads_per_input_primitive, 1);
  return geometry;
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

std::vector<uint8_t> raw_program(Arch arch, std::span<const uint8_t> header, std::span<const uint8_t> code) {
  if (header.size() != sass::sm5x::kSphBytes) throw Error(fmt::format("an SPH has {} bytes, not {}", sass::sm5x::kSphBytes, header.size()));
  std::vector<uint8_t> bytes(header.begin(), header.end());
  if (arch == Arch::sm75 || arch == Arch::sm86) {
    bytes[0] = static_cast<uint8_t>((bytes[0] & 0x1f) | (turing_sph_version << 5));
    bytes[1] = static_cast<uint8_t>((bytes[1] & ~0x03) | (turing_sph_version >> 3));
    bytes.resize(padded_sph_bytes, 0);
  }
  bytes.insert(bytes.end(), code.begin(), code.end());
  return bytes;
}

Translation translate_graphics(std::span<const uint8_t> bytes, Arch arch, std::string_view name, const TranslateOptions& options) {
  Translation result;
  sass::sm5x::ShaderProgramHeader header;
  ir::Function function;
  if (arch == Arch::sm75 || arch == Arch::sm86) {
    // Turing/Ampere: the same SPH, padded to 0x80 bytes, then 128-bit instructions.
    header = sass::sm5x::parse_sph(bytes, name);
    if (bytes.size() < padded_sph_bytes) throw Error(at_offset(std::string(name), bytes.size()), "shorter than the 0x80-byte padded SPH");
    const auto architecture = arch == Arch::sm75 ? sass::sm86::Architecture::sm75 : sass::sm86::Architecture::sm86;
    const std::vector<sass::sm86::Instruction> code =
        sass::sm86::decode_all(bytes.subspan(padded_sph_bytes), {std::string(name), "", padded_sph_bytes}, architecture);
    if (code.empty()) throw Error(at_offset(std::string(name), padded_sph_bytes), "no instructions after the SPH");
    function = sass::sm86::lower_graphics_program(code, header, std::string(name), {.y_direction = options.y_direction});
    result.instructions = code.size();
  } else {
    const sass::sm5x::Program program = sass::sm5x::decode_program(bytes, name);
    header = *program.header;
    function = sass::sm5x::lower_graphics(program, {.bound_texture_bank = options.bound_texture_bank,
                                                    .constant_bank_word = options.constant_bank_word,
                                                    .y_direction = options.y_direction});
    result.instructions = program.instructions.size();
  }
  spirv::GraphicsInterface interface;
  if (header.stage == sass::sm5x::ShaderStage::pixel) {
    interface.stage = spirv::GraphicsStage::fragment;
    for (uint32_t address : header.input_attributes()) interface.interpolation[address] = interpolation_of(header.input_interpolation(address));
    result.color_masks = header.omap_target;
  } else {
    interface.declared_outputs = header.output_attributes();
  }
  if (header.stage == sass::sm5x::ShaderStage::vertex) {
    for (uint32_t location = 0; location < result.vertex_inputs.size(); ++location) {
      for (uint32_t component = 0; component < 4; ++component) {
        if (header.reads_attribute(sass::attribute::generic_address(location, component))) result.vertex_inputs[location] |= 1u << component;
      }
    }
  }
  result.writes_viewport_index = header.writes_attribute(sass::attribute::viewport_index);
  if (header.stage == sass::sm5x::ShaderStage::geometry) {
    interface.stage = spirv::GraphicsStage::geometry;
    interface.geometry = geometry_interface(header, options.geometry_input, name);
  }
  if (header.stage == sass::sm5x::ShaderStage::tessellation_init || header.stage == sass::sm5x::ShaderStage::tessellation) {
    const bool control = header.stage == sass::sm5x::ShaderStage::tessellation_init;
    interface.stage = control ? spirv::GraphicsStage::tess_control : spirv::GraphicsStage::tess_evaluation;
    interface.tessellation = options.tessellation;
    // SPH CommonWord2 ThreadsPerInputPrimitive: the control program's output patch size (nouveau writes the
    // output patch size there; 0 reads as 1, as for a geometry program's invocations).
    if (control) interface.tessellation.output_vertices = std::max<uint32_t>(header.threads_per_input_primitive, 1);
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
