#pragma once
// The front door of graphics-program translation (issue 5): raw SPH + code bytes in, validated SPIR-V out.
// `kiln shaders translate --arch ...` calls this; it needs no GPU.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "translator/graphics/resources.h"
#include "translator/spirv/emit_graphics.h"

namespace kiln::graphics {

enum class Arch : uint8_t { sm50, sm53, sm60, sm75, sm86 };
/// SM75 and later pad the 0x50-byte SPH to this many bytes; their code starts there.
inline constexpr size_t padded_sph_bytes = 0x80;
/// SPH VERSION of SM75 and later programs (open-gpu-doc clc797sph.h describes "Version 4"; Maxwell's is 3).
inline constexpr uint32_t turing_sph_version = 4;

/// The raw program the 3D class reads, laid out for `arch`: SM5x: the 0x50-byte SPH, then the code. SM75/SM86:
/// the SPH with its VERSION field (word 0 bits 5-9) set to turing_sph_version, zero-padded to padded_sph_bytes,
/// then the code. `header` is the 0x50-byte SPH.
std::vector<uint8_t> raw_program(Arch arch, std::span<const uint8_t> header, std::span<const uint8_t> code);
/// "sm50" | "sm53" | "sm60" | "sm75" | "sm86"; throws kiln::Error otherwise.
Arch parse_arch(std::string_view text);
std::string_view arch_name(Arch arch);

struct TranslateOptions {
  bool zero_registers = false;      ///< registers read before any write start at 0 (Mesa hosts; seed 002 §3.12)
  bool want_glsl = false;           ///< also produce GLSL (SPIRV-Cross) for reading
  uint32_t bound_texture_bank = 2;  ///< constant bank of bound-texture handles (SM5x; Turing names the bank)
  float y_direction = 1.0f;         ///< SR_Y_DIRECTION: +1 for Vulkan's upper-left origin
  /// Constant-bank contents the runtime knows (jump tables of BRX); see sass::sm5x::LowerOptions.
  std::function<std::optional<uint32_t>(uint32_t bank, uint32_t byte_offset)> constant_bank_word;
  spirv::GraphicsOptions backend;   ///< descriptor array sizes, debug names
  /// A geometry program's input primitive: draw state, not in the program (the output comes from its SPH).
  spirv::GeometryInput geometry_input = spirv::GeometryInput::triangles;
  /// A tessellation evaluation program's domain, spacing, winding and point mode: draw state on Maxwell
  /// (SET_TESSELLATION_PARAMETERS), not in the program. Default: triangles, equal spacing, counter-clockwise.
  spirv::TessellationInterface tessellation;
};

struct Translation {
  spirv::GraphicsStage stage = spirv::GraphicsStage::vertex;
  std::vector<uint32_t> spirv;        ///< validated (spirv-val, Vulkan 1.2)
  std::string glsl;                   ///< when asked for
  std::array<uint8_t, 8> color_masks{}; ///< fragment: components written per colour target
  size_t instructions = 0;            ///< guest instructions decoded
  std::vector<ResourceBinding> resources; ///< descriptors the module reads (set = backend.descriptor_set)
  /// Vertex programs: the components (bit 0 x .. bit 3 w) read of each generic input attribute, by location.
  std::array<uint8_t, 32> vertex_inputs{};
  /// The program writes the viewport index, so each primitive picks its viewport (all of them apply).
  bool writes_viewport_index = false;
};

/// Decodes, lowers, emits and validates one program. `name` names the input in errors; a program the
/// translator cannot express, or SPIR-V that fails validation, is a kiln::Error.
Translation translate_graphics(std::span<const uint8_t> bytes, Arch arch, std::string_view name, const TranslateOptions& options = {});

} // namespace kiln::graphics
