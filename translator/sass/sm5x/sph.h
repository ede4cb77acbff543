#pragma once
// The Shader Program Header: the 0x50 bytes in front of every Maxwell/Pascal graphics program (NVIDIA
// open-gpu-doc, "Shader Program Header Specification"). Compute programs carry none (their sizes live in
// the QMD). Field positions are bit offsets from the start of the header, little-endian 32-bit words.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::sass::sm5x {

inline constexpr size_t kSphSize = 0x50;

enum class SphType : uint8_t { vtg = 1, ps = 2 };
enum class ShaderStage : uint8_t { vertex = 1, tessellation_init = 2, tessellation = 3, geometry = 4, pixel = 5 };
std::string_view stage_name(ShaderStage stage);

/// How a fragment program input is interpolated (the 2-bit PixelImap of the PS header).
enum class PixelImap : uint8_t { unused = 0, constant = 1, perspective = 2, screen_linear = 3 };
std::string_view pixel_imap_name(PixelImap imap);

/// The geometry program's output primitive (CommonWord3 OutputTopology).
enum class OutputTopology : uint8_t { none = 0, point_list = 1, line_strip = 6, triangle_strip = 7 };

/// Where a fragment program leaves an output at EXIT: outputs are packed into R0, R1, ... in the order of
/// their enabled OmapTarget components; the sample mask follows, and depth sits one register after that.
struct FragmentOutput {
  enum class Kind : uint8_t { color, sample_mask, depth } kind = Kind::color;
  uint8_t target = 0;     ///< colour target 0-7
  uint8_t component = 0;  ///< 0 = red .. 3 = alpha
  uint8_t reg = 0;        ///< the register holding it
};

struct ShaderProgramHeader {
  // CommonWord0
  SphType sph_type = SphType::vtg;
  uint8_t version = 0;
  ShaderStage stage = ShaderStage::vertex;
  bool mrt_enable = false;
  bool kills_pixels = false;
  bool does_global_store = false;
  uint8_t sass_version = 0;
  bool gs_passthrough = false;
  bool does_load_or_store = false;
  bool does_fp64 = false;
  uint8_t stream_out_mask = 0;
  // CommonWord1-4
  uint64_t local_memory_size = 0;  ///< ShaderLocalMemoryLowSize | ShaderLocalMemoryHighSize << 32 (bytes per thread)
  uint32_t local_memory_crs_size = 0;
  uint8_t per_patch_attribute_count = 0;
  uint8_t threads_per_input_primitive = 0;
  OutputTopology output_topology = OutputTopology::none;
  uint16_t max_output_vertex_count = 0;
  uint8_t store_req_start = 0;
  uint8_t store_req_end = 0;
  // Output map of a fragment program.
  std::array<uint8_t, 8> omap_target{};  ///< per colour target, bit c = component c written
  bool omap_sample_mask = false;
  bool omap_depth = false;

  std::array<uint32_t, 20> words{};  ///< the raw header

  /// Whether the program reads the attribute at byte address `address` (a[0x70] = position.x,
  /// a[0x80 + 16n + 4c] = generic n component c, a[0x300 + 16t] = fixed-function texture t).
  bool reads_attribute(uint32_t address) const;
  /// The interpolation of a fragment input (unused for attributes the program does not read).
  PixelImap input_interpolation(uint32_t address) const;
  /// Whether a vertex/tessellation/geometry program writes the attribute at `address`.
  bool writes_attribute(uint32_t address) const;
  /// All attribute addresses read (inputs) or written (outputs, VTG only), ascending.
  std::vector<uint32_t> input_attributes() const;
  std::vector<uint32_t> output_attributes() const;
  /// Fragment outputs and their registers (empty for other stages).
  std::vector<FragmentOutput> fragment_outputs() const;
  /// One line per fact, for `kiln shaders disasm` and tests.
  std::string describe() const;
};

/// Parses the first 0x50 bytes of `bytes`; `name` names the input in errors (bad SphType, ShaderType, or a
/// type/stage mismatch).
ShaderProgramHeader parse_sph(std::span<const uint8_t> bytes, std::string_view name);

/// The attribute at a byte address as the nouveau/NVIDIA attribute map names it ("position.w", "generic3.y",
/// "texcoord1.s"); empty when the address names nothing.
std::string attribute_name(uint32_t address);

} // namespace kiln::sass::sm5x
