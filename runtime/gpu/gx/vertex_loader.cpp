#include "runtime/gpu/gx/vertex_loader.h"

#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "runtime/base/bits.h"

namespace kiln::gx {
namespace {

uint32_t bits(uint32_t value, unsigned lsb, unsigned width) { return extract_bits(value, lsb, width); }

/// Bytes of one component, 0 for the reserved codes 5-7.
uint32_t component_bytes(uint8_t format) {
  switch (static_cast<ComponentFormat>(format)) {
  case ComponentFormat::u8:
  case ComponentFormat::s8: return 1;
  case ComponentFormat::u16:
  case ComponentFormat::s16: return 2;
  case ComponentFormat::f32: return 4;
  }
  return 0;
}

uint32_t color_bytes(uint8_t format) {
  switch (static_cast<ColorFormat>(format)) {
  case ColorFormat::rgb565:
  case ColorFormat::rgba4444: return 2;
  case ColorFormat::rgb888:
  case ColorFormat::rgba6666: return 3;
  case ColorFormat::rgb888x:
  case ColorFormat::rgba8888: return 4;
  }
  return 0;
}

uint32_t index_bytes(AttributeMode mode) { return mode == AttributeMode::index8 ? 1 : 2; }

/// One component in big-endian `format`, as the integer value before scaling.
double read_component(const uint8_t* at, uint8_t format) {
  switch (static_cast<ComponentFormat>(format)) {
  case ComponentFormat::u8: return at[0];
  case ComponentFormat::s8: return static_cast<int8_t>(at[0]);
  case ComponentFormat::u16: return load<uint16_t>(at, Endian::big);
  case ComponentFormat::s16: return static_cast<int16_t>(load<uint16_t>(at, Endian::big));
  case ComponentFormat::f32: return std::bit_cast<float>(load<uint32_t>(at, Endian::big));
  }
  return 0;
}

/// A fixed-point component scaled by 2^-fraction; floats ignore the fraction.
float scaled_component(const uint8_t* at, uint8_t format, uint8_t fraction) {
  const double value = read_component(at, format);
  if (format == static_cast<uint8_t>(ComponentFormat::f32)) return static_cast<float>(value);
  return static_cast<float>(std::ldexp(value, -static_cast<int>(fraction)));
}

/// Normals have a fixed fraction: 6 bits for s8, 7 for u8, 14 for s16, 15 for u16.
uint8_t normal_fraction(uint8_t format) {
  switch (static_cast<ComponentFormat>(format)) {
  case ComponentFormat::u8: return 7;
  case ComponentFormat::s8: return 6;
  case ComponentFormat::u16: return 15;
  case ComponentFormat::s16: return 14;
  case ComponentFormat::f32: return 0;
  }
  return 0;
}

uint8_t expand(uint32_t value, unsigned width) {
  return static_cast<uint8_t>((value << (8 - width)) | (value >> (2 * width - 8)));
}

std::array<uint8_t, 4> read_color(const uint8_t* at, uint8_t format) {
  switch (static_cast<ColorFormat>(format)) {
  case ColorFormat::rgb565: {
    const uint32_t v = load<uint16_t>(at, Endian::big);
    return {expand(v >> 11, 5), expand((v >> 5) & 63, 6), expand(v & 31, 5), 255};
  }
  case ColorFormat::rgb888:
  case ColorFormat::rgb888x: return {at[0], at[1], at[2], 255};
  case ColorFormat::rgba4444: {
    const uint32_t v = load<uint16_t>(at, Endian::big);
    return {static_cast<uint8_t>((v >> 12) * 0x11), static_cast<uint8_t>(((v >> 8) & 15) * 0x11),
            static_cast<uint8_t>(((v >> 4) & 15) * 0x11), static_cast<uint8_t>((v & 15) * 0x11)};
  }
  case ColorFormat::rgba6666: {
    const uint32_t v = (uint32_t{at[0]} << 16) | (uint32_t{at[1]} << 8) | at[2];
    return {expand(v >> 18, 6), expand((v >> 12) & 63, 6), expand((v >> 6) & 63, 6), expand(v & 63, 6)};
  }
  case ColorFormat::rgba8888: return {at[0], at[1], at[2], at[3]};
  }
  return {};
}

/// Resolves one attribute: the stream bytes themselves when direct, else the array element its index names.
/// Returns nullptr (with `error`) when the element lies outside guest RAM.
class AttributeSource {
public:
  AttributeSource(const CpState& cp, std::span<const uint8_t> ram, std::string& error)
      : cp_(cp), ram_(ram), error_(error) {}

  const uint8_t* resolve(AttributeMode mode, ArrayIndex array, const uint8_t*& cursor, uint32_t direct_bytes,
                         uint32_t element_offset, uint32_t element_bytes, const char* what) {
    if (mode == AttributeMode::direct) {
      const uint8_t* at = cursor;
      cursor += direct_bytes;
      return at;
    }
    const uint32_t index = mode == AttributeMode::index8 ? cursor[0] : load<uint16_t>(cursor, Endian::big);
    cursor += index_bytes(mode);
    const auto slot = static_cast<uint32_t>(array);
    const uint64_t address =
        uint64_t{cp_.array_base[slot]} + uint64_t{index} * cp_.array_stride[slot] + element_offset;
    if (address + element_bytes > ram_.size()) {
      if (error_.empty()) {
        error_ = fmt::format("{} index {} reads 0x{:x} bytes at 0x{:08x}, outside guest RAM (0x{:x} bytes)", what,
                             index, element_bytes, address, ram_.size());
      }
      return nullptr;
    }
    return ram_.data() + address;
  }

private:
  const CpState& cp_;
  std::span<const uint8_t> ram_;
  std::string& error_;
};

} // namespace

VertexFormat decode_vertex_format(const CpState& cp, uint32_t vat) {
  VertexFormat f;
  const uint32_t lo = cp.vcd_lo, hi = cp.vcd_hi;
  const uint32_t a = cp.vat_a.at(vat), b = cp.vat_b.at(vat), c = cp.vat_c.at(vat);
  f.position_matrix_index = bits(lo, 0, 1) != 0;
  for (uint32_t t = 0; t < texcoord_count; ++t) {
    f.texcoord_matrix_index[t] = bits(lo, 1 + t, 1) != 0;
    f.texcoord[t] = static_cast<AttributeMode>(bits(hi, 2 * t, 2));
  }
  f.position = static_cast<AttributeMode>(bits(lo, 9, 2));
  f.normal = static_cast<AttributeMode>(bits(lo, 11, 2));
  f.color[0] = static_cast<AttributeMode>(bits(lo, 13, 2));
  f.color[1] = static_cast<AttributeMode>(bits(lo, 15, 2));

  f.position_components = bits(a, 0, 1) ? 3 : 2;
  f.position_format = static_cast<uint8_t>(bits(a, 1, 3));
  f.position_fraction = static_cast<uint8_t>(bits(a, 4, 5));
  f.normal_binormal_tangent = bits(a, 9, 1) != 0;
  f.normal_format = static_cast<uint8_t>(bits(a, 10, 3));
  f.color_format[0] = static_cast<uint8_t>(bits(a, 14, 3));
  f.color_format[1] = static_cast<uint8_t>(bits(a, 18, 3));
  f.normal_index3 = bits(a, 31, 1) != 0;
  // Texture coordinate n: elements (1 bit), format (3), fraction (5), packed across VAT A, B and C.
  struct Field { uint32_t word; unsigned elements, format, fraction; };
  const std::array<Field, texcoord_count> fields{{{a, 21, 22, 25}, {b, 0, 1, 4}, {b, 9, 10, 13}, {b, 18, 19, 22},
                                                  {b, 27, 28, 0}, {c, 5, 6, 9}, {c, 14, 15, 18}, {c, 23, 24, 27}}};
  for (uint32_t t = 0; t < texcoord_count; ++t) {
    const Field& field = fields[t];
    f.texcoord_components[t] = bits(field.word, field.elements, 1) ? 2 : 1;
    f.texcoord_format[t] = static_cast<uint8_t>(bits(field.word, field.format, 3));
    // Texture coordinate 4's fraction is the only field that lives in VAT C while its format is in VAT B.
    f.texcoord_fraction[t] = static_cast<uint8_t>(bits(t == 4 ? c : field.word, field.fraction, 5));
  }
  return f;
}

uint32_t vertex_size(const VertexFormat& f, std::string& error) {
  uint32_t size = f.position_matrix_index ? 1 : 0;
  for (bool present : f.texcoord_matrix_index) size += present ? 1 : 0;
  auto add = [&](AttributeMode mode, uint32_t direct_bytes, uint32_t indices, const char* what) {
    if (mode == AttributeMode::none) return;
    if (mode == AttributeMode::direct) {
      if (direct_bytes == 0 && error.empty()) error = fmt::format("{} uses a reserved format code", what);
      size += direct_bytes;
    } else {
      size += indices * index_bytes(mode);
    }
  };
  add(f.position, f.position_components * component_bytes(f.position_format), 1, "position");
  const uint32_t normal_vectors = f.normal_binormal_tangent ? 3 : 1;
  add(f.normal, normal_vectors * 3 * component_bytes(f.normal_format),
      f.normal_binormal_tangent && f.normal_index3 ? 3 : 1, "normal");
  for (uint32_t n = 0; n < color_count; ++n) add(f.color[n], color_bytes(f.color_format[n]), 1, "colour");
  for (uint32_t t = 0; t < texcoord_count; ++t) {
    add(f.texcoord[t], f.texcoord_components[t] * component_bytes(f.texcoord_format[t]), 1, "texture coordinate");
  }
  // Indexed attributes with a reserved format are found when read; check them here as well so a stream with one
  // is rejected before any vertex is consumed.
  if (f.position != AttributeMode::none && component_bytes(f.position_format) == 0 && error.empty())
    error = "position uses a reserved format code";
  if (f.normal != AttributeMode::none && component_bytes(f.normal_format) == 0 && error.empty())
    error = "normal uses a reserved format code";
  for (uint32_t n = 0; n < color_count; ++n) {
    if (f.color[n] != AttributeMode::none && color_bytes(f.color_format[n]) == 0 && error.empty())
      error = "colour uses a reserved format code";
  }
  for (uint32_t t = 0; t < texcoord_count; ++t) {
    if (f.texcoord[t] != AttributeMode::none && component_bytes(f.texcoord_format[t]) == 0 && error.empty())
      error = "texture coordinate uses a reserved format code";
  }
  return error.empty() ? size : 0;
}

Vertex load_vertex(const VertexFormat& f, const CpState& cp, std::span<const uint8_t> ram, const uint8_t* bytes,
                   std::string& error) {
  Vertex v;
  const uint8_t* cursor = bytes;
  AttributeSource source(cp, ram, error);
  v.position_matrix = static_cast<uint8_t>(bits(cp.matrix_index_a, 0, 6));
  for (uint32_t t = 0; t < texcoord_count; ++t) {
    v.texcoord_matrix[t] = static_cast<uint8_t>(t < 4 ? bits(cp.matrix_index_a, 6 + 6 * t, 6)
                                                      : bits(cp.matrix_index_b, 6 * (t - 4), 6));
  }
  if (f.position_matrix_index) v.position_matrix = static_cast<uint8_t>(*cursor++ & 63);
  for (uint32_t t = 0; t < texcoord_count; ++t) {
    if (f.texcoord_matrix_index[t]) v.texcoord_matrix[t] = static_cast<uint8_t>(*cursor++ & 63);
  }

  if (f.position != AttributeMode::none) {
    const uint32_t size = component_bytes(f.position_format);
    const uint32_t bytes_total = f.position_components * size;
    if (const uint8_t* at =
            source.resolve(f.position, ArrayIndex::position, cursor, bytes_total, 0, bytes_total, "position")) {
      for (uint32_t i = 0; i < f.position_components; ++i) {
        v.position[i] = scaled_component(at + i * size, f.position_format, f.position_fraction);
      }
    }
  }
  if (f.normal != AttributeMode::none) {
    const uint32_t size = component_bytes(f.normal_format);
    const uint8_t fraction = normal_fraction(f.normal_format);
    std::array<std::array<float, 3>*, 3> vectors{&v.normal, &v.binormal, &v.tangent};
    const uint32_t count = f.normal_binormal_tangent ? 3 : 1;
    auto read_vector = [&](const uint8_t* at, std::array<float, 3>& out) {
      for (uint32_t i = 0; i < 3; ++i) out[i] = scaled_component(at + i * size, f.normal_format, fraction);
    };
    if (f.normal != AttributeMode::direct && count == 3 && f.normal_index3) {
      // Three indices, one per vector; vector k sits 3 components into element k.
      for (uint32_t k = 0; k < 3; ++k) {
        if (const uint8_t* at = source.resolve(f.normal, ArrayIndex::normal, cursor, 0, k * 3 * size, 3 * size, "normal"))
          read_vector(at, *vectors[k]);
      }
    } else if (const uint8_t* at = source.resolve(f.normal, ArrayIndex::normal, cursor, count * 3 * size, 0,
                                                  count * 3 * size, "normal")) {
      for (uint32_t k = 0; k < count; ++k) read_vector(at + k * 3 * size, *vectors[k]);
    }
  }
  for (uint32_t n = 0; n < color_count; ++n) {
    if (f.color[n] == AttributeMode::none) continue;
    const uint32_t size = color_bytes(f.color_format[n]);
    const auto array = static_cast<ArrayIndex>(static_cast<uint32_t>(ArrayIndex::color0) + n);
    if (const uint8_t* at = source.resolve(f.color[n], array, cursor, size, 0, size, "colour"))
      v.color[n] = read_color(at, f.color_format[n]);
  }
  for (uint32_t t = 0; t < texcoord_count; ++t) {
    if (f.texcoord[t] == AttributeMode::none) continue;
    const uint32_t size = component_bytes(f.texcoord_format[t]);
    const uint32_t total = f.texcoord_components[t] * size;
    const auto array = static_cast<ArrayIndex>(static_cast<uint32_t>(ArrayIndex::texcoord0) + t);
    if (const uint8_t* at = source.resolve(f.texcoord[t], array, cursor, total, 0, total, "texture coordinate")) {
      for (uint32_t i = 0; i < f.texcoord_components[t]; ++i) {
        v.texcoord[t][i] = scaled_component(at + i * size, f.texcoord_format[t], f.texcoord_fraction[t]);
      }
    }
  }
  return v;
}

Topology topology_of(Primitive primitive) {
  switch (primitive) {
  case Primitive::lines:
  case Primitive::line_strip: return Topology::lines;
  case Primitive::points: return Topology::points;
  default: return Topology::triangles;
  }
}

const char* primitive_name(Primitive primitive) {
  constexpr const char* names[] = {"quads", "quads2", "triangles", "triangle strip",
                                   "triangle fan", "lines", "line strip", "points"};
  return names[static_cast<uint32_t>(primitive) & 7];
}

void assemble_primitive(Primitive primitive, uint32_t first, uint32_t count, std::vector<uint32_t>& out) {
  auto tri = [&](uint32_t a, uint32_t b, uint32_t c) { out.insert(out.end(), {first + a, first + b, first + c}); };
  switch (primitive) {
  case Primitive::quads:
  case Primitive::quads2:
    for (uint32_t i = 0; i + 3 < count; i += 4) {
      tri(i, i + 1, i + 2);
      tri(i, i + 2, i + 3);
    }
    break;
  case Primitive::triangles:
    for (uint32_t i = 0; i + 2 < count; i += 3) tri(i, i + 1, i + 2);
    break;
  case Primitive::triangle_strip:
    for (uint32_t i = 0; i + 2 < count; ++i) {
      if (i % 2 == 0) tri(i, i + 1, i + 2);
      else tri(i + 1, i, i + 2);
    }
    break;
  case Primitive::triangle_fan:
    for (uint32_t i = 1; i + 1 < count; ++i) tri(0, i, i + 1);
    break;
  case Primitive::lines:
    for (uint32_t i = 0; i + 1 < count; i += 2) out.insert(out.end(), {first + i, first + i + 1});
    break;
  case Primitive::line_strip:
    for (uint32_t i = 0; i + 1 < count; ++i) out.insert(out.end(), {first + i, first + i + 1});
    break;
  case Primitive::points:
    for (uint32_t i = 0; i < count; ++i) out.push_back(first + i);
    break;
  }
}

} // namespace kiln::gx
