// `kiln textures ...`: guest texture layouts for porters and modders. `info` prints where every level and layer
// of a surface lives; `deswizzle` turns a block-linear dump into PNG, DDS or raw linear bytes; `swizzle` puts an
// image back into the guest layout (optionally over an existing dump, so a modder can replace one texture);
// `gx` decodes a GameCube texture to PNG.
#include <fmt/format.h>

#include <filesystem>
#include <optional>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/base/log.h"
#include "runtime/base/png_image.h"
#include "runtime/gpu/textures/blocklinear/swizzle.h"
#include "runtime/gpu/textures/formats/astc.h"
#include "runtime/gpu/textures/formats/bcn.h"
#include "runtime/gpu/textures/formats/gx.h"
#include "tools/kiln/command_registry.h"

namespace {

using namespace kiln;
using namespace kiln::textures;
namespace fs = std::filesystem;

/// What the CLI knows of a format: its element, its DXGI code for DDS files (0: none), how to make RGBA8.
struct FormatInfo {
  const char* name;
  ElementFormat element;
  uint32_t dxgi;
  enum class Png { rgba8, r8, rg8, bc, astc, none } png;
};

const FormatInfo formats[] = {
    {"rgba8", {4}, 28, FormatInfo::Png::rgba8},       {"rgba8_srgb", {4}, 29, FormatInfo::Png::rgba8},
    {"r8", {1}, 61, FormatInfo::Png::r8},             {"rg8", {2}, 49, FormatInfo::Png::rg8},
    {"rgb565", {2}, 85, FormatInfo::Png::none},       {"rgba16f", {8}, 10, FormatInfo::Png::none},
    {"r32f", {4}, 41, FormatInfo::Png::none},         {"rgba32f", {16}, 2, FormatInfo::Png::none},
    {"bc1", {8, 4, 4}, 71, FormatInfo::Png::bc},      {"bc2", {16, 4, 4}, 74, FormatInfo::Png::bc},
    {"bc3", {16, 4, 4}, 77, FormatInfo::Png::bc},     {"bc4", {8, 4, 4}, 80, FormatInfo::Png::bc},
    {"bc5", {16, 4, 4}, 83, FormatInfo::Png::bc},     {"bc4_snorm", {8, 4, 4}, 81, FormatInfo::Png::bc},
    {"bc5_snorm", {16, 4, 4}, 84, FormatInfo::Png::bc}, {"bc6h", {16, 4, 4}, 95, FormatInfo::Png::bc},
    {"bc6h_sfloat", {16, 4, 4}, 96, FormatInfo::Png::bc}, {"bc7", {16, 4, 4}, 98, FormatInfo::Png::bc},
};

FormatInfo find_format(const std::string& name) {
  for (const FormatInfo& f : formats) {
    if (name == f.name) return f;
  }
  // astc<W>x<H>: every 2D footprint.
  unsigned w = 0, h = 0;
  if (std::sscanf(name.c_str(), "astc%ux%u", &w, &h) == 2 && astc_footprint_valid({w, h})) {
    return {"astc", {16, w, h}, 0, FormatInfo::Png::astc};
  }
  std::string known;
  for (const FormatInfo& f : formats) known += std::string(f.name) + " ";
  throw Error(fmt::format("unknown texture format '{}' (known: {}astc4x4 .. astc12x12)", name, known));
}

struct SurfaceOptions {
  std::string format = "rgba8";
  uint32_t width = 0, height = 1, depth = 1, layers = 1, levels = 1;
  std::string block_height = "auto";
  std::string rule = "nvn";
  uint32_t pitch = 0;
  bool cube = false;

  void add_to(CLI::App* command) {
    command->add_option("--format", format, "element format: rgba8 r8 rg8 rgba16f bc1..bc7 bc4_snorm bc5_snorm bc6h_sfloat astcWxH ...")
        ->capture_default_str();
    command->add_option("--width", width, "width in texels")->required();
    command->add_option("--height", height, "height in texels")->capture_default_str();
    command->add_option("--depth", depth, "depth in texels (3D)")->capture_default_str();
    command->add_option("--layers", layers, "array layers")->capture_default_str();
    command->add_flag("--cube", cube, "a cube map: --layers counts cubes, each of 6 faces");
    command->add_option("--levels", levels, "mip levels")->capture_default_str();
    command->add_option("--block-height", block_height, "GOBs per block (1..32) or auto")->capture_default_str();
    command->add_option("--rule", rule, "automatic block height: nvn (truncating) or deko3d (rounding up)")
        ->capture_default_str();
    command->add_option("--pitch", pitch, "pitch-linear surface with this row pitch in bytes (block-linear if 0)");
  }

  SurfaceLayout layout(const std::string& name) const {
    SurfaceDescription d;
    d.width = width, d.height = height, d.depth = depth;
    d.array_layers = cube ? layers * 6 : layers;
    d.mip_levels = levels;
    d.element = find_format(format).element;
    if (pitch != 0) d.tiling = Tiling::pitch_linear, d.pitch_bytes = pitch;
    if (rule != "nvn" && rule != "deko3d") throw Error("--rule must be nvn or deko3d, not '" + rule + "'");
    d.rule = rule == "nvn" ? BlockHeightRule::nvn_truncate : BlockHeightRule::deko3d_round_up;
    if (block_height != "auto") {
      const int gobs = std::atoi(block_height.c_str());
      if (gobs < 1 || gobs > 32 || (gobs & (gobs - 1)) != 0) {
        throw Error("--block-height must be auto or a power of two from 1 to 32, not '" + block_height + "'");
      }
      d.block_height_log2 = static_cast<uint32_t>(std::countr_zero(static_cast<uint32_t>(gobs)));
    }
    return SurfaceLayout::compute(d, name);
  }
};

void print_info(const SurfaceLayout& layout) {
  const SurfaceDescription& d = layout.description();
  fmt::print("{}x{}x{}, {} layer(s), {} level(s), {} bytes per {}x{} element, {}\n", d.width, d.height, d.depth,
             d.array_layers, d.mip_levels, d.element.bytes, d.element.width, d.element.height,
             d.tiling == Tiling::pitch_linear ? "pitch-linear"
                                              : fmt::format("block-linear, block {} GOB(s) high, {} deep",
                                                            1u << layout.block_height_log2(),
                                                            1u << layout.block_depth_log2()));
  fmt::print("total size {} (0x{:x}) bytes, layer stride {} (0x{:x})\n", layout.total_size(), layout.total_size(),
             layout.layer_stride(), layout.layer_stride());
  fmt::print("{:>5} {:>12} {:>12} {:>17} {:>7}\n", "level", "offset", "size", "elements", "block");
  for (uint32_t i = 0; i < layout.level_count(); ++i) {
    const LevelLayout& l = layout.level(i);
    fmt::print("{:>5} {:>#12x} {:>12} {:>17} {:>7}\n", i, l.offset, l.size,
               fmt::format("{}x{}x{}", l.width, l.height, l.depth),
               fmt::format("{}x{}", 1u << l.block_height_log2, 1u << l.block_depth_log2));
  }
}

/// DDS with the DX10 extension header: layers of full mip chains, the order of linear_surface_size's layout.
std::vector<uint8_t> dds_file(const SurfaceLayout& layout, uint32_t dxgi, bool cube,
                              std::span<const uint8_t> linear) {
  const SurfaceDescription& d = layout.description();
  std::vector<uint32_t> header(1 + 31 + 5, 0);
  header[0] = 0x20534444; // "DDS "
  header[1] = 124;
  header[2] = 0x1 | 0x2 | 0x4 | 0x1000 | 0x20000 | (d.depth > 1 ? 0x800000 : 0); // caps height width pf mips depth
  header[3] = d.height, header[4] = d.width, header[6] = d.depth, header[7] = d.mip_levels;
  header[19] = 32, header[20] = 0x4, header[21] = 0x30315844; // pixel format: FourCC "DX10"
  header[27] = 0x1000 | (d.mip_levels > 1 ? 0x400008 : 0) | (cube ? 0x8 : 0);
  header[28] = cube ? 0xFE00 : (d.depth > 1 ? 0x200000 : 0);
  header[32] = dxgi;
  header[33] = d.depth > 1 ? 4 : 3; // texture 3D / 2D
  header[34] = cube ? 0x4 : 0;
  header[35] = cube ? d.array_layers / 6 : d.array_layers;
  std::vector<uint8_t> bytes(header.size() * 4);
  std::memcpy(bytes.data(), header.data(), bytes.size());
  bytes.insert(bytes.end(), linear.begin(), linear.end());
  return bytes;
}

RgbaImage to_rgba8(const FormatInfo& format, const SurfaceLayout& layout, uint32_t level,
                   std::span<const uint8_t> texels, const std::string& name) {
  const SurfaceDescription& d = layout.description();
  const uint32_t w = std::max(1u, d.width >> level), h = std::max(1u, d.height >> level);
  switch (format.png) {
  case FormatInfo::Png::bc: return decode_bc(parse_bc_format(format.name), w, h, texels, name);
  case FormatInfo::Png::astc:
    return decode_astc_rgba8(w, h, {format.element.width, format.element.height}, AstcProfile::ldr, texels, name);
  case FormatInfo::Png::none: throw Error(fmt::format("{} cannot be written as PNG; write .dds or raw", format.name));
  default: break;
  }
  RgbaImage image{w, h, std::vector<uint8_t>(size_t{w} * h * 4, 0)};
  for (size_t i = 0; i < size_t{w} * h; ++i) {
    uint8_t* p = &image.pixels[i * 4];
    if (format.png == FormatInfo::Png::rgba8) std::memcpy(p, &texels[i * 4], 4);
    if (format.png == FormatInfo::Png::r8) p[0] = texels[i], p[3] = 255;
    if (format.png == FormatInfo::Png::rg8) p[0] = texels[i * 2], p[1] = texels[i * 2 + 1], p[3] = 255;
  }
  return image;
}

std::vector<uint8_t> read_input(const std::string& path, uint64_t offset, uint64_t size) {
  std::vector<uint8_t> bytes = read_file(path, kiln::input::image);
  if (offset > bytes.size() || bytes.size() - offset < size) {
    throw Error(at_offset(path, offset), fmt::format("the surface needs {} bytes from offset {}, the file has {}",
                                                     size, offset, bytes.size()));
  }
  return {bytes.begin() + static_cast<ptrdiff_t>(offset), bytes.begin() + static_cast<ptrdiff_t>(offset + size)};
}

bool has_extension(const std::string& path, const char* extension) {
  return fs::path(path).extension() == extension;
}

void setup_texture_commands(CLI::App& root) {
  CLI::App& group = kiln::cli::command_group(root, "textures", "guest texture layouts and formats");

  static SurfaceOptions info_surface;
  auto* info = group.add_subcommand("info", "print the layout of a surface: size, level offsets, block heights");
  info_surface.add_to(info);
  info->callback([] { print_info(info_surface.layout("surface")); });

  static SurfaceOptions out_surface;
  static std::string input, output;
  static uint64_t offset = 0;
  static uint32_t layer = 0, level = 0;
  auto* deswizzle_command =
      group.add_subcommand("deswizzle", "block-linear guest dump -> PNG (one level), DDS or raw linear bytes");
  out_surface.add_to(deswizzle_command);
  deswizzle_command->add_option("input", input, "guest memory dump holding the surface")->required();
  deswizzle_command->add_option("-o,--output", output, "output: .png, .dds or anything else for raw")->required();
  deswizzle_command->add_option("--offset", offset, "where the surface starts in the dump")->capture_default_str();
  deswizzle_command->add_option("--layer", layer, "layer written to a PNG")->capture_default_str();
  deswizzle_command->add_option("--level", level, "mip level written to a PNG")->capture_default_str();
  deswizzle_command->callback([] {
    const SurfaceLayout layout = out_surface.layout(input);
    const std::vector<uint8_t> guest = read_input(input, offset, layout.total_size());
    std::vector<uint8_t> linear(linear_surface_size(layout));
    deswizzle_surface(layout, guest, linear);
    const FormatInfo format = find_format(out_surface.format);
    if (has_extension(output, ".png")) {
      layout.offset_of(layer, level); // range check with a clear message
      const auto texels = std::span(linear).subspan(linear_level_offset(layout, layer, level));
      write_png(output, to_rgba8(format, layout, level, texels, input));
    } else if (has_extension(output, ".dds")) {
      if (format.dxgi == 0) throw Error(fmt::format("{} has no DDS (DXGI) format; write raw", out_surface.format));
      write_file_if_changed(output, dds_file(layout, format.dxgi, out_surface.cube, linear));
    } else {
      write_file_if_changed(output, linear);
    }
    log::info("deswizzled {} bytes of {} into {}", layout.total_size(), input, output);
  });

  static SurfaceOptions in_surface;
  static std::string image_path, guest_output, base;
  static uint32_t in_layer = 0, in_level = 0;
  auto* swizzle_command = group.add_subcommand(
      "swizzle", "image (PNG: one level of rgba8; raw: the whole surface, linear) -> guest block-linear layout");
  in_surface.add_to(swizzle_command);
  swizzle_command->add_option("input", image_path, "PNG or raw linear texels")->required();
  swizzle_command->add_option("-o,--output", guest_output, "guest-layout file to write")->required();
  swizzle_command->add_option("--base", base, "start from this guest dump (replace one texture inside it)");
  swizzle_command->add_option("--offset", offset, "where the surface starts in the --base dump")->capture_default_str();
  swizzle_command->add_option("--layer", in_layer, "layer a PNG replaces")->capture_default_str();
  swizzle_command->add_option("--level", in_level, "mip level a PNG replaces")->capture_default_str();
  swizzle_command->callback([] {
    const SurfaceLayout layout = in_surface.layout(image_path);
    std::vector<uint8_t> file = base.empty() ? std::vector<uint8_t>(layout.total_size()) : read_file(base, kiln::input::image);
    const uint64_t start = base.empty() ? 0 : offset;
    if (start > file.size() || file.size() - start < layout.total_size()) {
      throw Error(at_offset(base, start), fmt::format("the surface needs {} bytes here", layout.total_size()));
    }
    const std::span<uint8_t> guest = std::span(file).subspan(start, layout.total_size());
    if (has_extension(image_path, ".png")) {
      if (find_format(in_surface.format).png != FormatInfo::Png::rgba8) {
        throw Error("a PNG can be swizzled only as rgba8 or rgba8_srgb; give compressed formats as raw blocks");
      }
      const RgbaImage image = read_png(image_path);
      const Region region = whole_level(layout, in_level);
      if (image.width != region.width || image.height != region.height) {
        throw Error(in_file(image_path), fmt::format("the PNG is {}x{}, level {} is {}x{}", image.width, image.height,
                                                     in_level, region.width, region.height));
      }
      swizzle(layout, in_layer, in_level, region, image.pixels, guest);
    } else {
      const std::vector<uint8_t> linear = read_file(image_path, kiln::input::image);
      if (linear.size() != linear_surface_size(layout)) {
        throw Error(in_file(image_path), fmt::format("raw input has {} bytes, the surface's texels are {}",
                                                     linear.size(), linear_surface_size(layout)));
      }
      swizzle_surface(layout, linear, guest);
    }
    write_file_if_changed(guest_output, file);
    log::info("wrote {} ({} bytes of guest layout)", guest_output, layout.total_size());
  });

  static std::string gx_format = "rgba8", gx_input, gx_output, gx_tlut, gx_tlut_format = "rgb5a3";
  static uint32_t gx_width = 0, gx_height = 0;
  static uint64_t gx_offset = 0;
  auto* gx = group.add_subcommand("gx", "decode a GameCube texture (tiled, big-endian) to PNG");
  gx->add_option("input", gx_input, "file holding the texture")->required();
  gx->add_option("-o,--output", gx_output, "PNG to write")->required();
  gx->add_option("--format", gx_format, "I4 I8 IA4 IA8 RGB565 RGB5A3 RGBA8 CI4 CI8 CI14X2 CMPR")->required();
  gx->add_option("--width", gx_width, "width in texels")->required();
  gx->add_option("--height", gx_height, "height in texels")->required();
  gx->add_option("--offset", gx_offset, "where the texture starts in the file")->capture_default_str();
  gx->add_option("--tlut", gx_tlut, "palette file (big-endian 16-bit entries) for CI4/CI8/CI14X2");
  gx->add_option("--tlut-format", gx_tlut_format, "IA8 RGB565 RGB5A3")->capture_default_str();
  gx->callback([] {
    const GxFormat format = parse_gx_format(gx_format);
    if (gx_is_indexed(format) && gx_tlut.empty()) throw Error(gx_format + " needs --tlut");
    const std::vector<uint8_t> data = read_file(gx_input, kiln::input::image);
    if (gx_offset > data.size()) throw Error(at_offset(gx_input, gx_offset), "offset past the end of the file");
    const std::vector<uint8_t> tlut = gx_tlut.empty() ? std::vector<uint8_t>{} : read_file(gx_tlut, kiln::input::image);
    write_png(gx_output, decode_gx(format, gx_width, gx_height, std::span(data).subspan(gx_offset), gx_input, tlut,
                                   parse_gx_tlut_format(gx_tlut_format)));
    log::info("decoded {} {}x{} into {}", gx_format, gx_width, gx_height, gx_output);
  });
}

} // namespace

KILN_REGISTER_COMMAND("textures", setup_texture_commands);
