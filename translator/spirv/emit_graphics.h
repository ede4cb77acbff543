#pragma once
// IR graphics program (vertex or fragment stage) -> SPIR-V 1.5 for Vulkan 1.2. The stage's own ops
// (translator/ir/ops_graphics.inc) are lowered here; every computing op and the structured control flow come
// from the compute backend, so an op means the same in every stage.
//
// Resources, all in descriptor set GraphicsOptions::descriptor_set (0 unless chosen):
//   binding b (0-17)       uniform buffer: constant bank c[b] (64 KiB, read as 32-bit words)
//   binding 20 + 2*dim + array  sampled-image arrays indexed by the texture header (TIC) index of a handle
//                          (dim: 0 = 1D, 1 = 2D, 2 = 3D, 3 = cube)
//   binding 30             sampler array indexed by the sampler (TSC) index of a handle
// Varyings: generic n -> location n; fixed-function texture coordinate t (a[0x300 + 16t]) -> location 16 + t.
// A geometry stage reads them (and the position) as arrays with one element per input vertex.
#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "translator/ir/ir.h"
#include "translator/spirv/emit_compute.h"

namespace kiln::spirv {

enum class GraphicsStage : uint8_t { vertex, fragment, geometry, tess_control, tess_evaluation };
enum class Interpolation : uint8_t { perspective, linear, flat };

/// A geometry stage's primitives. The input primitive is draw state (the topology the draw uses), not part of the
/// program; the output, its vertex limit and the invocation count come from the program's header.
enum class GeometryInput : uint8_t { points, lines, lines_adjacency, triangles, triangles_adjacency };
enum class GeometryOutput : uint8_t { points, line_strip, triangle_strip };
struct GeometryInterface {
  GeometryInput input = GeometryInput::triangles;
  GeometryOutput output = GeometryOutput::triangle_strip;
  uint32_t max_output_vertices = 1;
  uint32_t invocations = 1;
};
/// Vertices per input primitive.
constexpr uint32_t geometry_input_vertices(GeometryInput input) {
  constexpr uint32_t counts[] = {1, 2, 4, 3, 6};
  return counts[static_cast<size_t>(input)];
}

/// Tessellation: the domain, spacing and winding are draw state on Maxwell (SET_TESSELLATION_PARAMETERS), so the
/// evaluation stage takes them from the caller; the control stage's output patch size comes from its header.
enum class TessellationDomain : uint8_t { isolines, triangles, quads };
enum class TessellationSpacing : uint8_t { equal, fractional_odd, fractional_even };
struct TessellationInterface {
  TessellationDomain domain = TessellationDomain::triangles;
  TessellationSpacing spacing = TessellationSpacing::equal;
  bool counter_clockwise = true;
  bool point_mode = false;
  uint32_t output_vertices = 1; ///< control stage: vertices of the output patch
};
/// Per-vertex input arrays of the tessellation stages have the largest patch size (the draw's patch size is not
/// part of the program); the vertex register of ALD indexes them.
inline constexpr uint32_t kMaxPatchVertices = 32;

/// LoadAttribute/StoreAttribute immediates beyond the attribute space (the lowering's side of the contract):
/// ALD.P/AST.P name patch attributes (a[0x00..0x0c] TessLevelOuter[0..3], a[0x10..0x14] TessLevelInner[0..1],
/// a[0x20 + 16n] patch generic n, as nouveau and yuzu address them), and S2R SR_INVOCATION_ID reads a built-in.
inline constexpr uint32_t kPatchAttributeFlag = 0x1000;
inline constexpr uint32_t kInvocationIdAttribute = 0x2000;

struct GraphicsInterface {
  GraphicsStage stage = GraphicsStage::vertex;
  /// Fragment inputs by attribute byte address; unlisted inputs are perspective-correct.
  std::map<uint32_t, Interpolation> interpolation;
  /// Vertex outputs the program's header declares (attribute byte addresses): each position or varying among them
  /// is declared and starts as (0, 0, 0, 1) even when the code never writes it (seed 002 §1.2).
  std::vector<uint32_t> declared_outputs;
  GeometryInterface geometry; ///< geometry stage only
  TessellationInterface tessellation; ///< tessellation stages only
};

struct GraphicsOptions {
  /// Registers read before any write start at zero (seed 002 §3.12: Mesa drivers need it); otherwise undefined.
  bool zero_registers = false;
  uint32_t texture_header_slots = 64; ///< TIC indices are clamped to the arrays' size
  uint32_t sampler_slots = 32;
  /// Descriptor set of every resource: the 3D class binds constant buffers and textures per stage, so a runtime
  /// gives each stage its own set (the same bank number can hold different data in two stages).
  uint32_t descriptor_set = 0;
  bool debug_names = true;
  /// Texture gathers (TLD4) on hosts other than NVIDIA: each coordinate moves by 1 / (size x 2^(bits + 1)), half a
  /// step of the host's sub-texel precision (VkPhysicalDeviceLimits::subTexelPrecisionBits), so a coordinate just
  /// below a texel boundary picks the footprint NVIDIA's gather picks (seed 002 §2.10; the bias yuzu and
  /// Ryujinx apply). 0 = no bias (NVIDIA hosts).
  uint32_t gather_bias_bits = 0;
  /// Fragment programs drawn with a source-1 blend factor on target 0: colour output 1 (Maxwell's second blend
  /// source, SPH omap target 1) becomes Location 0 Index 1 instead of an attachment of its own.
  bool dual_source_blend = false;
  FloatOptions floats; ///< FMA lowering and FP64 availability (emit_compute.h)
};

constexpr uint32_t graphics_const_bank_binding(uint32_t bank) { return bank; }
constexpr uint32_t texture_binding(uint32_t dim, bool array) { return 20 + 2 * dim + (array ? 1 : 0); }
constexpr uint32_t sampler_binding = 30;
constexpr uint32_t max_const_banks = 18;

/// The varying location of a generic or texture-coordinate attribute byte address; throws kiln::Error for
/// other addresses.
uint32_t varying_location(uint32_t attribute_address);

std::vector<uint32_t> emit_graphics(const ir::Function& function, const GraphicsInterface& interface,
                                    const GraphicsOptions& options = {});

} // namespace kiln::spirv
