#pragma once
// An independent model of the TEV combiner, written from the documented formulas (not from the translator):
//   regular:  out = ((d + bias) * scale  (+|-)  round(lerp(a, b, c) * scale)) [/ 2 when the scale is 1/2]
//             lerp(a, b, c) = (a * (256 - c') + b * c') / 256, c' = c + (c >> 7) (c widened to 0..256)
//             the rounding half (128 when adding, 127 when subtracting) is applied to the colour combiner
//             unless halving, to the alpha combiner only when halving; a, b, c are 8-bit, d is 11-bit signed
//   compare:  out = d + (a OP b ? c : 0), OP: > or == on R, GR (16-bit), BGR (24-bit) or each component / A
//   then clamped to 0..255 (clamp bit) or -1024..1023; the pixel takes the low 8 bits of the last stage.
#include <algorithm>
#include <array>
#include <cstdint>

namespace kiln::gx::test {

inline int floor_div(int value, int divisor) {
  int q = value / divisor;
  if ((value % divisor != 0) && ((value < 0) != (divisor < 0))) --q;
  return q;
}

inline int tev_clamp(int value, bool clamp) { return clamp ? std::clamp(value, 0, 255) : std::clamp(value, -1024, 1023); }

/// bias: 0 zero, 1 +128, 2 -128; scale: 0 x1, 1 x2, 2 x4, 3 x1/2.
inline int tev_regular(int a, int b, int c, int d, int bias, bool subtract, int scale, bool clamp, bool alpha) {
  a &= 255; b &= 255; c &= 255;
  const int factor = scale == 1 ? 2 : scale == 2 ? 4 : 1;
  const int widened_c = c + (c >> 7);
  int weighted = (a * (256 - widened_c) + b * widened_c) * factor;
  if ((scale == 3) == alpha) weighted += subtract ? 127 : 128;
  const int lerp = floor_div(weighted, 256);
  const int bias_value = bias == 1 ? 128 : bias == 2 ? -128 : 0;
  int out = (d + bias_value) * factor + (subtract ? -lerp : lerp);
  if (scale == 3) out = floor_div(out, 2);
  return tev_clamp(out, clamp);
}

/// Compare mode (0-7 = scale << 1 | op) on colour component `component` (0-2) or alpha (3); a, b, c, d are
/// the RGBA inputs of the stage (the alpha combiner's R/GR/BGR modes compare the colour inputs).
inline int tev_compare(const std::array<int, 4>& a, const std::array<int, 4>& b, const std::array<int, 4>& c,
                       const std::array<int, 4>& d, int mode, int component, bool clamp) {
  auto packed = [](const std::array<int, 4>& v, int n) {
    int out = 0;
    for (int i = 0; i < n; ++i) out |= (v[static_cast<size_t>(i)] & 255) << (8 * i);
    return out;
  };
  const bool equal = (mode & 1) != 0;
  bool pass;
  if (mode < 6) {
    const int n = mode / 2 + 1;
    pass = equal ? packed(a, n) == packed(b, n) : packed(a, n) > packed(b, n);
  } else {
    const int x = a[static_cast<size_t>(component)] & 255, y = b[static_cast<size_t>(component)] & 255;
    pass = equal ? x == y : x > y;
  }
  return tev_clamp(d[static_cast<size_t>(component)] + (pass ? (c[static_cast<size_t>(component)] & 255) : 0), clamp);
}

} // namespace kiln::gx::test
