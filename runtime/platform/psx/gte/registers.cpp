// The GTE register file: widths, sign extension on read, and the side effects of particular registers
// (SXYP pushes the screen FIFO, IRGB expands into IR1..3, ORGB packs them, LZCS feeds the leading-bit counter).
#include <bit>

#include "runtime/platform/psx/gte/gte.h"

namespace kiln::psx {
namespace {

uint32_t sign_extend_16(uint32_t value) { return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(value))); }
uint32_t pack(int16_t low, int16_t high) { return static_cast<uint16_t>(low) | uint32_t{static_cast<uint16_t>(high)} << 16; }

uint32_t saturate_5(int16_t ir) {
  const int value = ir >> 7;
  return static_cast<uint32_t>(value < 0 ? 0 : value > 0x1F ? 0x1F : value);
}

// Control registers that hold a single 16-bit value: RT33, L33, LB3, H, DQA, ZSF3, ZSF4.
constexpr bool is_16_bit_control(unsigned index) {
  return index == 4 || index == 12 || index == 20 || index == 26 || index == 27 || index == 29 || index == 30;
}

} // namespace

uint32_t Gte::read_data(unsigned index) const {
  switch (index & 31) {
    case 0: case 2: case 4: return pack(v_[index / 2][0], v_[index / 2][1]);
    case 1: case 3: case 5: return sign_extend_16(static_cast<uint16_t>(v_[index / 2][2]));
    case 6: return rgbc_[0] | uint32_t{rgbc_[1]} << 8 | uint32_t{rgbc_[2]} << 16 | uint32_t{rgbc_[3]} << 24;
    case 7: return otz_;
    case 8: case 9: case 10: case 11: return sign_extend_16(static_cast<uint16_t>(ir_[index - 8]));
    case 12: case 13: case 14: return pack(sxy_[index - 12][0], sxy_[index - 12][1]);
    case 15: return pack(sxy_[2][0], sxy_[2][1]);
    case 16: case 17: case 18: case 19: return sz_[index - 16];
    case 20: case 21: case 22: return rgb_fifo_[index - 20];
    case 23: return res1_;
    case 24: case 25: case 26: case 27: return static_cast<uint32_t>(mac_[index - 24]);
    case 28: case 29: return saturate_5(ir_[1]) | saturate_5(ir_[2]) << 5 | saturate_5(ir_[3]) << 10;
    case 30: return lzcs_;
    default: return lzcr_;
  }
}

void Gte::write_data(unsigned index, uint32_t value) {
  const auto low = static_cast<int16_t>(value), high = static_cast<int16_t>(value >> 16);
  switch (index & 31) {
    case 0: case 2: case 4: v_[index / 2][0] = low, v_[index / 2][1] = high; break;
    case 1: case 3: case 5: v_[index / 2][2] = low; break;
    case 6: for (int i = 0; i < 4; ++i) rgbc_[i] = static_cast<uint8_t>(value >> (8 * i)); break;
    case 7: otz_ = static_cast<uint16_t>(value); break;
    case 8: case 9: case 10: case 11: ir_[index - 8] = low; break;
    case 12: case 13: case 14: sxy_[index - 12][0] = low, sxy_[index - 12][1] = high; break;
    case 15: push_sxy(low, high); break;
    case 16: case 17: case 18: case 19: sz_[index - 16] = static_cast<uint16_t>(value); break;
    case 20: case 21: case 22: rgb_fifo_[index - 20] = value; break;
    case 23: res1_ = value; break;
    case 24: case 25: case 26: case 27: mac_[index - 24] = static_cast<int32_t>(value); break;
    case 28:
      for (int i = 0; i < 3; ++i) ir_[i + 1] = static_cast<int16_t>((value >> (5 * i) & 0x1F) << 7);
      break;
    case 30:
      lzcs_ = value;
      // Leading bits equal to the sign bit: zeros of a positive value, ones of a negative one.
      lzcr_ = static_cast<uint32_t>(std::countl_zero(value ^ static_cast<uint32_t>(static_cast<int32_t>(value) >> 31)));
      break;
    default: break; // 29 (ORGB) and 31 (LZCR) are read-only
  }
}

uint32_t Gte::read_control(unsigned index) const {
  index &= 31;
  return is_16_bit_control(index) ? sign_extend_16(control_[index]) : control_[index];
}

void Gte::write_control(unsigned index, uint32_t value) {
  index &= 31;
  if (index == 31) {
    // Bits 12-30 are writable; bit 31 is the OR of the error bits 30-23 and 18-13.
    value &= 0x7FFFF000;
    control_[31] = value | ((value & 0x7F87E000) != 0 ? 0x80000000 : 0);
    return;
  }
  control_[index] = is_16_bit_control(index) ? value & 0xFFFF : value;
}

int16_t Gte::matrix(unsigned base, unsigned row, unsigned column) const {
  const unsigned element = row * 3 + column;
  return static_cast<int16_t>(control_[base + element / 2] >> (16 * (element % 2)));
}

void Gte::push_sxy(int16_t x, int16_t y) {
  sxy_[0][0] = sxy_[1][0], sxy_[0][1] = sxy_[1][1];
  sxy_[1][0] = sxy_[2][0], sxy_[1][1] = sxy_[2][1];
  sxy_[2][0] = x, sxy_[2][1] = y;
}

void Gte::push_sz(uint16_t z) {
  sz_[0] = sz_[1], sz_[1] = sz_[2], sz_[2] = sz_[3], sz_[3] = z;
}

} // namespace kiln::psx
