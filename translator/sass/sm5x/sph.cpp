// Shader Program Header parsing. Facts: NVIDIA open-gpu-doc Shader-Program-Header (tables 1-24); the
// attribute map follows the Imap/Omap bit order, one 32-bit attribute slot per map bit (VTG) or per 2-bit
// PixelImap (fragment generic/colour/texture inputs); Mesa NAK sph.rs places GsPassthrough at word0 bit 24 and
// the fragment OmapSampleMask/OmapDepth at header bits 608/609.
#include "translator/sass/sm5x/sph.h"

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"

namespace kiln::sass::sm5x {
namespace {

constexpr unsigned kImapStart = 160;      // Imap follows CommonWord0-4
constexpr unsigned kVtgOmapStart = 400;   // VTG Imap is 240 bits
constexpr unsigned kPsOmapTarget = 576;   // PS Imap is 416 bits
constexpr unsigned kPsOmapSampleMask = 608;
constexpr unsigned kPsOmapDepth = 609;

/// One region of the fragment input map: attributes [first, first + 4 * count) with `bits` map bits each.
struct PixelImapRegion {
  uint32_t first_address;
  uint32_t count;
  unsigned first_bit;
  unsigned bits;
};
constexpr PixelImapRegion kPixelImapRegions[] = {
    {0x000, 32, 160, 1},   // ImapSystemValuesA/B: tessellation factors, primitive id, layer, viewport, position
    {0x080, 128, 192, 2},  // ImapGenericVector[32], X Y Z W
    {0x280, 8, 448, 2},    // ImapPixelColor: diffuse RGBA, specular RGBA
    {0x2c0, 16, 464, 1},   // ImapSystemValuesC: clip distances .. vertex id
    {0x300, 40, 480, 2},   // ImapPixelTexture[10], S T R Q
};

uint32_t bits_at(const std::array<uint32_t, 20>& words, unsigned lsb, unsigned width) {
  uint64_t value = 0;
  for (unsigned i = 0; i < width; ++i) {
    const unsigned bit = lsb + i;
    value |= static_cast<uint64_t>((words[bit / 32] >> (bit % 32)) & 1) << i;
  }
  return static_cast<uint32_t>(value);
}

const PixelImapRegion* pixel_region(uint32_t address) {
  for (const PixelImapRegion& region : kPixelImapRegions) {
    if (address >= region.first_address && address < region.first_address + 4 * region.count) return &region;
  }
  return nullptr;
}

} // namespace

std::string_view stage_name(ShaderStage stage) {
  switch (stage) {
  case ShaderStage::vertex: return "vertex";
  case ShaderStage::tessellation_init: return "tessellation_init";
  case ShaderStage::tessellation: return "tessellation";
  case ShaderStage::geometry: return "geometry";
  case ShaderStage::pixel: return "pixel";
  }
  return "?";
}

std::string_view pixel_imap_name(PixelImap imap) {
  static constexpr std::string_view names[] = {"unused", "constant", "perspective", "screen_linear"};
  return names[static_cast<size_t>(imap) & 3];
}

std::string attribute_name(uint32_t address) {
  if (address % 4 != 0) return {};
  static const char* const xyzw = "xyzw";
  static const char* const strq = "strq";
  static const char* const rgba = "rgba";
  const unsigned component = (address / 4) % 4;
  if (address >= 0x10 && address < 0x28) {
    static const char* const names[] = {"tess_lod.left", "tess_lod.right", "tess_lod.bottom", "tess_lod.top",
                                        "tess_interior.u", "tess_interior.v"};
    return names[(address - 0x10) / 4];
  }
  if (address >= 0x60 && address < 0x70) {
    static const char* const names[] = {"primitive_id", "layer", "viewport_index", "point_size"};
    return names[(address - 0x60) / 4];
  }
  if (address >= 0x70 && address < 0x80) return fmt::format("position.{}", xyzw[component]);
  if (address >= 0x80 && address < 0x280) return fmt::format("generic{}.{}", (address - 0x80) / 16, xyzw[component]);
  if (address >= 0x280 && address < 0x2c0) {
    static const char* const names[] = {"front_diffuse", "front_specular", "back_diffuse", "back_specular"};
    return fmt::format("{}.{}", names[(address - 0x280) / 16], rgba[component]);
  }
  if (address >= 0x2c0 && address < 0x2e0) return fmt::format("clip_distance{}", (address - 0x2c0) / 4);
  if (address >= 0x2e0 && address < 0x300) {
    static const char* const names[] = {"point_sprite.s", "point_sprite.t", "fog_coord", "",
                                        "tess_coord.u", "tess_coord.v", "instance_id", "vertex_id"};
    return names[(address - 0x2e0) / 4];
  }
  if (address >= 0x300 && address < 0x3a0) return fmt::format("texcoord{}.{}", (address - 0x300) / 16, strq[component]);
  return {};
}

ShaderProgramHeader parse_sph(std::span<const uint8_t> bytes, std::string_view name) {
  ByteReader reader(bytes, std::string(name));
  ShaderProgramHeader sph;
  for (uint32_t& word : sph.words) word = reader.u32();
  const auto& w = sph.words;
  const uint32_t type = bits_at(w, 0, 5);
  const uint32_t stage = bits_at(w, 10, 4);
  if (type != 1 && type != 2) reader.fail_at(0, fmt::format("SPH type {} is neither VTG (1) nor PS (2)", type));
  if (stage < 1 || stage > 5) reader.fail_at(1, fmt::format("SPH shader type {} is not 1-5", stage));
  if ((type == 2) != (stage == 5)) {
    reader.fail_at(0, fmt::format("SPH type {} does not fit shader type {} (PS headers are for pixel programs)", type, stage));
  }
  sph.sph_type = static_cast<SphType>(type);
  sph.version = static_cast<uint8_t>(bits_at(w, 5, 5));
  sph.stage = static_cast<ShaderStage>(stage);
  sph.mrt_enable = bits_at(w, 14, 1) != 0;
  sph.kills_pixels = bits_at(w, 15, 1) != 0;
  sph.does_global_store = bits_at(w, 16, 1) != 0;
  sph.sass_version = static_cast<uint8_t>(bits_at(w, 17, 4));
  sph.gs_passthrough = bits_at(w, 24, 1) != 0;
  sph.does_load_or_store = bits_at(w, 26, 1) != 0;
  sph.does_fp64 = bits_at(w, 27, 1) != 0;
  sph.stream_out_mask = static_cast<uint8_t>(bits_at(w, 28, 4));
  sph.local_memory_size = bits_at(w, 32, 24) | (static_cast<uint64_t>(bits_at(w, 64, 24)) << 32);
  sph.per_patch_attribute_count = static_cast<uint8_t>(bits_at(w, 56, 8));
  sph.threads_per_input_primitive = static_cast<uint8_t>(bits_at(w, 88, 8));
  sph.local_memory_crs_size = bits_at(w, 96, 24);
  sph.output_topology = static_cast<OutputTopology>(bits_at(w, 120, 4));
  sph.max_output_vertex_count = static_cast<uint16_t>(bits_at(w, 128, 12));
  sph.store_req_start = static_cast<uint8_t>(bits_at(w, 140, 8));
  sph.store_req_end = static_cast<uint8_t>(bits_at(w, 152, 8));
  if (sph.stage == ShaderStage::pixel) {
    for (unsigned target = 0; target < 8; ++target) sph.omap_target[target] = static_cast<uint8_t>(bits_at(w, kPsOmapTarget + 4 * target, 4));
    sph.omap_sample_mask = bits_at(w, kPsOmapSampleMask, 1) != 0;
    sph.omap_depth = bits_at(w, kPsOmapDepth, 1) != 0;
  }
  return sph;
}

bool ShaderProgramHeader::reads_attribute(uint32_t address) const {
  if (address % 4 != 0 || address >= 0x3c0) return false;
  if (stage != ShaderStage::pixel) return bits_at(words, kImapStart + address / 4, 1) != 0;
  const PixelImapRegion* region = pixel_region(address);
  if (region == nullptr) return false;
  const unsigned index = (address - region->first_address) / 4;
  return bits_at(words, region->first_bit + index * region->bits, region->bits) != 0;
}

PixelImap ShaderProgramHeader::input_interpolation(uint32_t address) const {
  if (stage != ShaderStage::pixel || address % 4 != 0) return PixelImap::unused;
  const PixelImapRegion* region = pixel_region(address);
  if (region == nullptr || region->bits != 2) return PixelImap::unused;
  return static_cast<PixelImap>(bits_at(words, region->first_bit + (address - region->first_address) / 2, 2));
}

bool ShaderProgramHeader::writes_attribute(uint32_t address) const {
  if (stage == ShaderStage::pixel || address % 4 != 0 || address >= 0x3c0) return false;
  return bits_at(words, kVtgOmapStart + address / 4, 1) != 0;
}

std::vector<uint32_t> ShaderProgramHeader::input_attributes() const {
  std::vector<uint32_t> addresses;
  for (uint32_t address = 0; address < 0x3c0; address += 4) {
    if (reads_attribute(address)) addresses.push_back(address);
  }
  return addresses;
}

std::vector<uint32_t> ShaderProgramHeader::output_attributes() const {
  std::vector<uint32_t> addresses;
  for (uint32_t address = 0; address < 0x3c0; address += 4) {
    if (writes_attribute(address)) addresses.push_back(address);
  }
  return addresses;
}

std::vector<FragmentOutput> ShaderProgramHeader::fragment_outputs() const {
  std::vector<FragmentOutput> outputs;
  if (stage != ShaderStage::pixel) return outputs;
  uint8_t reg = 0;
  for (uint8_t target = 0; target < 8; ++target) {
    for (uint8_t component = 0; component < 4; ++component) {
      if ((omap_target[target] >> component) & 1) outputs.push_back({FragmentOutput::Kind::color, target, component, reg++});
    }
  }
  if (omap_sample_mask) outputs.push_back({FragmentOutput::Kind::sample_mask, 0, 0, reg});
  if (omap_depth) outputs.push_back({FragmentOutput::Kind::depth, 0, 0, static_cast<uint8_t>(reg + 1)});
  return outputs;
}

std::string ShaderProgramHeader::describe() const {
  std::string text = fmt::format("stage {} (SPH type {}, version {}, SASS version {})\n", stage_name(stage),
                                 static_cast<int>(sph_type), version, sass_version);
  std::string flags;
  const std::pair<bool, const char*> named_flags[] = {
      {mrt_enable, "mrt"}, {kills_pixels, "kills_pixels"}, {does_global_store, "global_store"},
      {does_load_or_store, "load_or_store"}, {does_fp64, "fp64"}, {gs_passthrough, "gs_passthrough"}};
  for (const auto& [set, flag] : named_flags) {
    if (set) flags += std::string(" ") + flag;
  }
  if (!flags.empty()) text += "flags" + flags + "\n";
  text += fmt::format("local memory {} bytes, call/return stack {} bytes\n", local_memory_size, local_memory_crs_size);
  if (stage == ShaderStage::geometry) {
    text += fmt::format("geometry: topology {}, max {} vertices, {} threads per primitive, streams {:#x}\n",
                        static_cast<int>(output_topology), max_output_vertex_count, threads_per_input_primitive,
                        stream_out_mask);
  }
  if (stage == ShaderStage::tessellation_init) text += fmt::format("per-patch attributes {}\n", per_patch_attribute_count);
  text += "inputs";
  for (const uint32_t address : input_attributes()) {
    text += fmt::format(" {}", attribute_name(address));
    if (input_interpolation(address) != PixelImap::unused) text += fmt::format(":{}", pixel_imap_name(input_interpolation(address)));
  }
  text += "\noutputs";
  for (const uint32_t address : output_attributes()) text += fmt::format(" {}", attribute_name(address));
  for (const FragmentOutput& output : fragment_outputs()) {
    if (output.kind == FragmentOutput::Kind::color) text += fmt::format(" color{}.{}=R{}", output.target, "rgba"[output.component], output.reg);
    if (output.kind == FragmentOutput::Kind::sample_mask) text += fmt::format(" sample_mask=R{}", output.reg);
    if (output.kind == FragmentOutput::Kind::depth) text += fmt::format(" depth=R{}", output.reg);
  }
  return text + "\n";
}

} // namespace kiln::sass::sm5x
