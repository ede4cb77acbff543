// Word128 bit access and the names of opcodes and modifiers.
#include "translator/sass/sm86/instruction.h"

#include <algorithm>
#include <array>

#include "runtime/base/bits.h"

namespace kiln::sass::sm86 {

uint64_t Word128::field(unsigned lsb, unsigned width) const {
  if (width == 0) return 0;
  if (lsb >= 64) return extract_bits(high, lsb - 64, width);
  if (lsb + width <= 64) return extract_bits(low, lsb, width);
  const unsigned low_width = 64 - lsb;
  return (low >> lsb) | (extract_bits(high, 0, width - low_width) << low_width);
}

void Word128::set_field(unsigned lsb, unsigned width, uint64_t value) {
  if (width == 0) return;
  if (lsb >= 64) {
    high = insert_bits(high, lsb - 64, width, value);
  } else if (lsb + width <= 64) {
    low = insert_bits(low, lsb, width, value);
  } else {
    const unsigned low_width = 64 - lsb;
    low = insert_bits(low, lsb, low_width, value);
    high = insert_bits(high, 0, width - low_width, value >> low_width);
  }
}

Word128 Word128::from_bytes(std::span<const uint8_t, 16> bytes) {
  return Word128{load<uint64_t>(bytes.data(), Endian::little), load<uint64_t>(bytes.data() + 8, Endian::little)};
}

std::string_view opcode_name(Opcode opcode) {
  static constexpr std::array names{
#define KILN_SM86_OPCODE(name) std::string_view(#name),
#include "translator/sass/sm86/opcodes.def"
#undef KILN_SM86_OPCODE
  };
  const auto index = static_cast<size_t>(opcode);
  return index < names.size() ? names[index] : std::string_view("?");
}

std::string_view modifier_text(Modifier modifier) {
  static constexpr std::array names{
#define KILN_SM86_MODIFIER(name, text) std::string_view(text),
#include "translator/sass/sm86/modifiers.def"
#undef KILN_SM86_MODIFIER
  };
  const auto index = static_cast<size_t>(modifier);
  return index < names.size() ? names[index] : std::string_view("?");
}

bool Instruction::has(Modifier modifier) const {
  return std::find(modifiers.begin(), modifiers.end(), modifier) != modifiers.end();
}

} // namespace kiln::sass::sm86
