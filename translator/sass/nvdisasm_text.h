#pragma once
// Spellings NVIDIA's nvdisasm shares between the Maxwell and the Volta-family listings, in one place for both
// disassemblers (translator/sass/sm5x, translator/sass/sm86).
#include <fmt/format.h>

#include <cmath>
#include <string>

namespace kiln::sass {

/// Float immediates: up to 20 significant digits, trailing zeros dropped, the specials named (+INF, -QNAN).
inline std::string nvdisasm_float_text(double value) {
  if (std::isnan(value)) return std::signbit(value) ? "-QNAN" : "+QNAN";
  if (std::isinf(value)) return value < 0 ? "-INF" : "+INF";
  // Large magnitudes are written in scientific notation with 21 significant digits. nvdisasm's listings print
  // 16777216 in full and 4294942720 (4.29494272000000000000e+09) this way; the cut lies between, kiln takes 2^31.
  if (std::fabs(value) >= 2147483648.0) return fmt::format("{:.20e}", value);
  std::string text = fmt::format("{:.20g}", value);
  const size_t exponent = text.find('e');
  std::string mantissa = text.substr(0, exponent);
  const std::string tail = exponent == std::string::npos ? "" : text.substr(exponent);
  if (mantissa.find('.') != std::string::npos) {
    while (mantissa.back() == '0') mantissa.pop_back();
    if (mantissa.back() == '.') mantissa.pop_back();
  }
  return mantissa + tail;
}

} // namespace kiln::sass
