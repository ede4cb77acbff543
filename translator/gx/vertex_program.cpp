#include "translator/gx/vertex_program.h"

#include <algorithm>

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/base/hash.h"
#include "translator/ir/builder.h"

namespace kiln::gx {
namespace {

uint32_t field(uint32_t value, unsigned lsb, unsigned width) { return extract_bits(value, lsb, width); }

// Channel control fields (XF 0x100E-0x1011).
constexpr uint32_t material_from_vertex = 1u << 0, lighting_enable = 1u << 1, ambient_from_vertex = 1u << 6;
uint32_t light_mask(uint32_t control) { return field(control, 2, 4) | (field(control, 11, 4) << 4); }
uint32_t diffuse_function(uint32_t control) { return field(control, 7, 2); }
uint32_t attenuation_function(uint32_t control) { return field(control, 9, 2); }
constexpr uint32_t attenuation_specular = 1, attenuation_spot = 3;

using Vec3 = std::array<ir::ValueId, 3>;

class VertexBuilder {
public:
  explicit VertexBuilder(const VertexUid& uid) : uid_(uid), b_(function_) {}

  ir::Function build() {
    if (uid_.texgens != 0) throw Error(fmt::format("XF: {} texture coordinate generators: not translated yet", uid_.texgens));
    const Vec3 object{input(vertex_input_position, 0), input(vertex_input_position, 1), input(vertex_input_position, 2)};
    // The matrix index is a row number: the 3x4 matrix starts at XF word 4 * row.
    ir::ValueId row = b_.u32(uid_.global_matrix);
    if (uid_.per_vertex_matrix) row = b_.convert(ir::Op::FToU, ir::Type::U32, input(vertex_input_matrix_index, 0));
    const ir::ValueId matrix = b_.op(ir::Op::Shl, b_.op(ir::Op::And, row, b_.u32(63)), b_.u32(2));
    Vec3 view{};
    for (uint32_t r = 0; r < 3; ++r) {
      ir::ValueId sum = xf_word(b_.op(ir::Op::IAdd, matrix, b_.u32(4 * r + 3)));
      for (uint32_t c = 0; c < 3; ++c) sum = fma(xf_word(b_.op(ir::Op::IAdd, matrix, b_.u32(4 * r + c))), object[c], sum);
      view[r] = sum;
    }
    project(view);

    Vec3 normal{b_.f32(0), b_.f32(0), b_.f32(0)};
    if (uid_.has_normal) {
      // The normal matrix of position matrix row m: the 3x3 at XF 0x400 + 3 * (m mod 32), rows of 3 words.
      const ir::ValueId normal_row = b_.op(ir::Op::IMul, b_.op(ir::Op::And, row, b_.u32(31)), b_.u32(3));
      const ir::ValueId base = b_.op(ir::Op::IAdd, normal_row, b_.u32(xf::normal_matrices));
      const Vec3 n{input(vertex_input_normal, 0), input(vertex_input_normal, 1), input(vertex_input_normal, 2)};
      for (uint32_t r = 0; r < 3; ++r) {
        ir::ValueId sum = b_.f32(0);
        for (uint32_t c = 0; c < 3; ++c) sum = fma(xf_word(b_.op(ir::Op::IAdd, base, b_.u32(3 * r + c))), n[c], sum);
        normal[r] = sum;
      }
      normal = normalize(normal);
    }
    for (uint32_t channel = 0; channel < 2; ++channel) {
      for (uint32_t component = 0; component < 4; ++component) {
        ir::ValueId value = b_.f32(0);
        if (channel < uid_.color_channels) {
          const uint32_t control = uid_.channel_control[component == 3 ? 2 + channel : channel];
          value = lit_component(channel, component, control, view, normal);
        }
        b_.emit(ir::Op::StoreAttribute, ir::Type::Void, {bits(value)}, 0x80 + 16 * channel + 4 * component);
      }
    }
    return std::move(function_);
  }

private:
  ir::ValueId bits(ir::ValueId f) { return b_.convert(ir::Op::Bitcast, ir::Type::U32, f); }
  ir::ValueId as_float(ir::ValueId u) { return b_.convert(ir::Op::Bitcast, ir::Type::F32, u); }
  ir::ValueId input(uint32_t location, uint32_t component) {
    return as_float(b_.emit(ir::Op::LoadAttribute, ir::Type::U32, {}, 0x80 + 16 * location + 4 * component));
  }
  ir::ValueId word(ir::ValueId index) {
    return b_.emit(ir::Op::LoadConstBank, ir::Type::U32, {b_.op(ir::Op::Shl, index, b_.u32(2))}, 0);
  }
  ir::ValueId xf_word(ir::ValueId index) { return as_float(word(index)); }
  ir::ValueId xf_at(uint32_t index) { return xf_word(b_.u32(index)); }
  ir::ValueId fma(ir::ValueId a, ir::ValueId b, ir::ValueId c) { return b_.op(ir::Op::FAdd, b_.op(ir::Op::FMul, a, b), c); }
  ir::ValueId mul(ir::ValueId a, ir::ValueId b) { return b_.op(ir::Op::FMul, a, b); }
  ir::ValueId add(ir::ValueId a, ir::ValueId b) { return b_.op(ir::Op::FAdd, a, b); }
  ir::ValueId dot(const Vec3& a, const Vec3& b) { return fma(a[2], b[2], fma(a[1], b[1], mul(a[0], b[0]))); }
  Vec3 normalize(const Vec3& v) {
    const ir::ValueId inverse = b_.op(ir::Op::FRsq, dot(v, v));
    return {mul(v[0], inverse), mul(v[1], inverse), mul(v[2], inverse)};
  }

  void project(const Vec3& view) {
    const uint32_t p = vertex_constant_registers + xf::projection;
    std::array<ir::ValueId, 4> clip{};
    if (uid_.orthographic) {
      clip = {fma(xf_at(p + 0), view[0], xf_at(p + 1)), fma(xf_at(p + 2), view[1], xf_at(p + 3)),
              fma(xf_at(p + 4), view[2], xf_at(p + 5)), b_.f32(1.0f)};
    } else {
      clip = {fma(xf_at(p + 0), view[0], mul(xf_at(p + 1), view[2])),
              fma(xf_at(p + 2), view[1], mul(xf_at(p + 3), view[2])),
              fma(xf_at(p + 4), view[2], xf_at(p + 5)), b_.op(ir::Op::FNeg, view[2])};
    }
    // GX clips depth to -w <= z <= 0 and Vulkan to 0 <= z <= w: the program adds w, so the host's clip volume is
    // the console's and the viewport's depth range maps 0..1 back onto the XF depth scale (vertex_program.h).
    clip[2] = add(clip[2], clip[3]);
    for (uint32_t c = 0; c < 4; ++c) b_.emit(ir::Op::StoreAttribute, ir::Type::Void, {bits(clip[c])}, 0x70 + 4 * c);
  }

  /// Byte `component` (0 = R, the top byte) of an RGBA8 word, as 0..1.
  ir::ValueId unpack(ir::ValueId rgba, uint32_t component) {
    const ir::ValueId byte = b_.op(ir::Op::And, b_.op(ir::Op::LShr, rgba, b_.u32(24 - 8 * component)), b_.u32(255));
    return mul(b_.convert(ir::Op::UToF, ir::Type::F32, byte), b_.f32(1.0f / 255.0f));
  }

  ir::ValueId lit_component(uint32_t channel, uint32_t component, uint32_t control, const Vec3& view,
                            const Vec3& normal) {
    const uint32_t registers = vertex_constant_registers;
    auto vertex_color = [&] {
      return uid_.has_color[channel] ? input(vertex_input_color0 + channel, component) : b_.f32(1.0f);
    };
    const ir::ValueId material = control & material_from_vertex
                                     ? vertex_color()
                                     : unpack(word(b_.u32(registers + xf::material0 + channel)), component);
    if (!(control & lighting_enable)) return material;
    const ir::ValueId ambient = control & ambient_from_vertex
                                    ? vertex_color()
                                    : unpack(word(b_.u32(registers + xf::ambient0 + channel)), component);
    if (attenuation_function(control) == attenuation_specular)
      throw Error("XF: specular light attenuation is not translated yet");
    ir::ValueId sum = ambient;
    for (uint32_t light = 0; light < 8; ++light) {
      if (!(light_mask(control) & (1u << light))) continue;
      const uint32_t base = xf::lights + xf::light_words * light;
      const Vec3 position{xf_at(base + 10), xf_at(base + 11), xf_at(base + 12)};
      Vec3 to_light{b_.op(ir::Op::FSub, position[0], view[0]), b_.op(ir::Op::FSub, position[1], view[1]),
                    b_.op(ir::Op::FSub, position[2], view[2])};
      ir::ValueId attenuation = b_.f32(1.0f);
      if (attenuation_function(control) == attenuation_spot) {
        const ir::ValueId distance2 = dot(to_light, to_light);
        const ir::ValueId distance = b_.op(ir::Op::FSqrt, distance2);
        to_light = normalize(to_light);
        const Vec3 direction{xf_at(base + 13), xf_at(base + 14), xf_at(base + 15)};
        const ir::ValueId cosine = b_.op(ir::Op::FMax, dot(to_light, direction), b_.f32(0));
        const ir::ValueId angular =
            fma(xf_at(base + 6), mul(cosine, cosine), fma(xf_at(base + 5), cosine, xf_at(base + 4)));
        const ir::ValueId radial =
            fma(xf_at(base + 9), distance2, fma(xf_at(base + 8), distance, xf_at(base + 7)));
        attenuation = mul(b_.op(ir::Op::FMax, angular, b_.f32(0)), b_.op(ir::Op::FRcp, radial));
      } else {
        to_light = normalize(to_light);
      }
      ir::ValueId diffuse = b_.f32(1.0f);
      const ir::ValueId n_dot_l = dot(to_light, normal);
      if (diffuse_function(control) == 1) diffuse = n_dot_l;
      if (diffuse_function(control) == 2) diffuse = b_.op(ir::Op::FMax, n_dot_l, b_.f32(0));
      const ir::ValueId light_color = unpack(word(b_.u32(base + 3)), component);
      sum = fma(mul(attenuation, diffuse), light_color, sum);
    }
    return mul(material, b_.op(ir::Op::FSaturate, sum));
  }

  const VertexUid& uid_;
  ir::Function function_;
  ir::Builder b_;
};

} // namespace

uint64_t VertexUid::hash() const {
  const std::array<uint32_t, 12> words{per_vertex_matrix, global_matrix, has_normal, has_color[0], has_color[1],
                                       orthographic, color_channels, channel_control[0], channel_control[1],
                                       channel_control[2], channel_control[3], texgens};
  return hash64(std::span(reinterpret_cast<const uint8_t*>(words.data()), sizeof(words)));
}

VertexUid vertex_uid(const XfState& xf, const CpState& cp, const VertexFormat& format) {
  VertexUid uid;
  uid.per_vertex_matrix = format.position_matrix_index;
  if (!uid.per_vertex_matrix) uid.global_matrix = static_cast<uint8_t>(field(cp.matrix_index_a, 0, 6));
  uid.has_normal = format.normal != AttributeMode::none;
  for (uint32_t n = 0; n < 2; ++n) uid.has_color[n] = format.color[n] != AttributeMode::none;
  uid.orthographic = xf.reg(xf::projection_type) != 0;
  uid.color_channels = static_cast<uint8_t>(std::min<uint32_t>(xf.reg(xf::num_colors) & 3, 2));
  for (uint32_t n = 0; n < 4; ++n) {
    uint32_t control = xf.reg(xf::color0_control + n) & 0x7FFF;
    if (!(control & lighting_enable)) control &= material_from_vertex; // the rest only shapes lighting
    uid.channel_control[n] = control;
  }
  uid.texgens = xf.reg(xf::num_texgens) & 0xF;
  return uid;
}

std::vector<uint32_t> vertex_constants(const XfState& xf) {
  std::vector<uint32_t> words(xf.memory.begin(), xf.memory.end());
  words.insert(words.end(), xf.registers.begin(), xf.registers.end());
  return words;
}

ir::Function build_vertex_program(const VertexUid& uid) { return VertexBuilder(uid).build(); }

} // namespace kiln::gx
