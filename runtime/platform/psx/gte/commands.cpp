// GTE commands. Widths follow psx-spx: MAC1..3 are 44-bit accumulators checked after every addition, MAC0 is
// 32-bit, IR1..3 saturate to -8000h..7FFFh (0..7FFFh with lm), colours to 0..FFh, SZ/OTZ to 0..FFFFh,
// screen X/Y to -400h..3FFh, IR0 to 0..1000h; each saturation sets its FLAG bit.
#include <algorithm>

#include "runtime/platform/psx/gte/division.h"
#include "runtime/platform/psx/gte/gte.h"

namespace kiln::psx {
namespace {

// FLAG bits.
constexpr uint32_t mac_positive_overflow(unsigned channel) { return 1u << (30 - channel); }
constexpr uint32_t mac_negative_overflow(unsigned channel) { return 1u << (27 - channel); }
constexpr uint32_t ir_saturated(unsigned channel) { return 1u << (24 - channel); }
constexpr uint32_t colour_saturated(unsigned channel) { return 1u << (21 - channel); }
constexpr uint32_t sz_otz_saturated = 1u << 18;
constexpr uint32_t divide_overflow = 1u << 17;
constexpr uint32_t mac0_positive_overflow = 1u << 16;
constexpr uint32_t mac0_negative_overflow = 1u << 15;
constexpr uint32_t sx_saturated = 1u << 14;
constexpr uint32_t sy_saturated = 1u << 13;
constexpr uint32_t ir0_saturated = 1u << 12;
constexpr uint32_t error_bits = 0x7F87E000;

// Control register indices.
constexpr unsigned rotation = 0, light = 8, colour = 16, garbage_matrix = 24;
constexpr unsigned translation_tr = 5, background_bk = 13, far_colour_fc = 21;
constexpr unsigned ofx = 24, ofy = 25, h_register = 26, dqa = 27, dqb = 28, zsf3 = 29, zsf4 = 30, flag_register = 31;

int64_t sign_extend_44(int64_t value) { return static_cast<int64_t>(static_cast<uint64_t>(value) << 20) >> 20; }

} // namespace

struct Gte::Fields {
  int shift;        ///< sf: 12 or 0
  bool lm;          ///< saturate IR1..3 to 0..7FFFh
  unsigned matrix;  ///< MVMVA: 0 rotation, 1 light, 2 colour, 3 garbage
  unsigned vector;  ///< MVMVA: V0, V1, V2, 3 = IR
  unsigned translation; ///< MVMVA: 0 TR, 1 BK, 2 FC (flawed), 3 none

  explicit Fields(uint32_t command)
      : shift((command >> 19 & 1) ? 12 : 0),
        lm((command >> 10 & 1) != 0),
        matrix(command >> 17 & 3),
        vector(command >> 15 & 3),
        translation(command >> 13 & 3) {}
};

int64_t Gte::accumulate(unsigned channel, int64_t value) {
  if (value >= int64_t{1} << 43) control_[flag_register] |= mac_positive_overflow(channel);
  if (value < -(int64_t{1} << 43)) control_[flag_register] |= mac_negative_overflow(channel);
  return sign_extend_44(value);
}

int16_t Gte::saturate_ir(unsigned channel, int64_t value, bool lm) {
  const int64_t low = lm ? 0 : -0x8000;
  if (value < low || value > 0x7FFF) control_[flag_register] |= ir_saturated(channel);
  return static_cast<int16_t>(std::clamp<int64_t>(value, low, 0x7FFF));
}

void Gte::set_mac0(int64_t value) {
  if (value > INT32_MAX) control_[flag_register] |= mac0_positive_overflow;
  if (value < INT32_MIN) control_[flag_register] |= mac0_negative_overflow;
  mac_[0] = static_cast<int32_t>(value);
}

uint16_t Gte::saturate_sz(int64_t value) {
  if (value < 0 || value > 0xFFFF) control_[flag_register] |= sz_otz_saturated;
  return static_cast<uint16_t>(std::clamp<int64_t>(value, 0, 0xFFFF));
}

void Gte::macs_to_irs(bool lm) {
  for (unsigned i = 0; i < 3; ++i) ir_[i + 1] = saturate_ir(i, mac_[i + 1], lm);
}

void Gte::push_colour() {
  uint32_t rgb = uint32_t{rgbc_[3]} << 24;
  for (unsigned i = 0; i < 3; ++i) {
    const int32_t value = mac_[i + 1] >> 4;
    if (value < 0 || value > 0xFF) control_[flag_register] |= colour_saturated(i);
    rgb |= static_cast<uint32_t>(std::clamp(value, 0, 0xFF)) << (8 * i);
  }
  rgb_fifo_[0] = rgb_fifo_[1], rgb_fifo_[1] = rgb_fifo_[2], rgb_fifo_[2] = rgb;
}

void Gte::multiply(unsigned matrix_base, const Vector& v, unsigned translation, int shift, bool lm) {
  for (unsigned i = 0; i < 3; ++i) {
    int32_t row[3];
    if (matrix_base == garbage_matrix) {
      // The unused fourth matrix reads as [-R*10h, R*10h, IR0], [RT13 x3], [RT22 x3].
      const int32_t r16 = rgbc_[0] << 4;
      const int32_t value = i == 1 ? matrix(rotation, 0, 2) : matrix(rotation, 1, 1);
      row[0] = i == 0 ? -r16 : value, row[1] = i == 0 ? r16 : value, row[2] = i == 0 ? ir_[0] : value;
    } else {
      for (unsigned j = 0; j < 3; ++j) row[j] = matrix(matrix_base, i, j);
    }
    static constexpr unsigned translation_base[3] = {translation_tr, background_bk, far_colour_fc};
    int64_t sum = translation == 3 ? 0 : int64_t{control_signed(translation_base[translation] + i)} * 4096;
    sum = accumulate(i, sum + int64_t{row[0]} * v[0]);
    if (translation == 2) {
      // The far-colour form is flawed: its first product only sets flags, the rest is computed without it.
      saturate_ir(i, sum >> shift, false);
      sum = 0;
    }
    sum = accumulate(i, sum + int64_t{row[1]} * v[1]);
    sum = accumulate(i, sum + int64_t{row[2]} * v[2]);
    mac_[i + 1] = static_cast<int32_t>(sum >> shift);
  }
  macs_to_irs(lm);
}

void Gte::project(unsigned index, const Fields& f, bool last) {
  const Vector v = vertex(index);
  int64_t z_unshifted = 0;
  for (unsigned i = 0; i < 3; ++i) {
    int64_t sum = int64_t{control_signed(translation_tr + i)} * 4096;
    for (unsigned j = 0; j < 3; ++j) sum = accumulate(i, sum + int64_t{matrix(rotation, i, j)} * v[j]);
    mac_[i + 1] = static_cast<int32_t>(sum >> f.shift);
    if (i == 2) z_unshifted = sum;
  }
  ir_[1] = saturate_ir(0, mac_[1], f.lm);
  ir_[2] = saturate_ir(1, mac_[2], f.lm);
  // IR3's flag looks at MAC3 >> 12 whatever sf is; its value is MAC3 saturated as usual.
  const int64_t z = z_unshifted >> 12;
  if (z < -0x8000 || z > 0x7FFF) control_[flag_register] |= ir_saturated(2);
  ir_[3] = static_cast<int16_t>(std::clamp<int64_t>(mac_[3], f.lm ? 0 : -0x8000, 0x7FFF));
  push_sz(saturate_sz(z));

  const DivisionResult division = gte_divide(static_cast<uint16_t>(control_[h_register]), sz_[3]);
  if (division.overflow) control_[flag_register] |= divide_overflow;
  const int64_t quotient = division.quotient;
  const auto screen = [&](unsigned offset_register, int16_t ir, uint32_t saturation_flag) {
    const int64_t value = int64_t{control_signed(offset_register)} + ir * quotient;
    set_mac0(value);
    const int64_t coordinate = value >> 16;
    if (coordinate < -0x400 || coordinate > 0x3FF) control_[flag_register] |= saturation_flag;
    return static_cast<int16_t>(std::clamp<int64_t>(coordinate, -0x400, 0x3FF));
  };
  const int16_t sx = screen(ofx, ir_[1], sx_saturated);
  const int16_t sy = screen(ofy, ir_[2], sy_saturated);
  push_sxy(sx, sy);
  if (!last) return;
  const int64_t depth = int64_t{control_signed(dqb)} + int64_t{static_cast<int16_t>(control_[dqa])} * quotient;
  set_mac0(depth);
  const int64_t ir0 = depth >> 12;
  if (ir0 < 0 || ir0 > 0x1000) control_[flag_register] |= ir0_saturated;
  ir_[0] = static_cast<int16_t>(std::clamp<int64_t>(ir0, 0, 0x1000));
}

void Gte::normal_to_colour(unsigned index, const Fields& f) {
  multiply(light, vertex(index), 3, f.shift, f.lm);
  multiply(colour, ir_vector(), 1, f.shift, f.lm);
}

void Gte::colour_times_ir(const Fields& f) {
  for (unsigned i = 0; i < 3; ++i) {
    mac_[i + 1] = static_cast<int32_t>(accumulate(i, int64_t{rgbc_[i] << 4} * ir_[i + 1]) >> f.shift);
  }
  macs_to_irs(f.lm);
}

void Gte::depth_cue(const Vector& start, const Fields& f) {
  for (unsigned i = 0; i < 3; ++i) {
    // start + (FC - start) * IR0, the difference saturated like IR (lm off) before the multiply.
    const int64_t difference = accumulate(i, int64_t{control_signed(far_colour_fc + i)} * 4096 - start[i]);
    mac_[i + 1] = static_cast<int32_t>(difference >> f.shift);
    const int16_t factor = saturate_ir(i, mac_[i + 1], false);
    mac_[i + 1] = static_cast<int32_t>(accumulate(i, int64_t{start[i]} + int64_t{ir_[0]} * factor) >> f.shift);
  }
  macs_to_irs(f.lm);
  push_colour();
}

void Gte::depth_cue_colour(const Fields& f) {
  depth_cue({(rgbc_[0] << 4) * ir_[1], (rgbc_[1] << 4) * ir_[2], (rgbc_[2] << 4) * ir_[3]}, f);
}

void Gte::normal_clip() {
  const int64_t x0 = sxy_[0][0], y0 = sxy_[0][1], x1 = sxy_[1][0], y1 = sxy_[1][1], x2 = sxy_[2][0],
                y2 = sxy_[2][1];
  set_mac0(x0 * y1 + x1 * y2 + x2 * y0 - x0 * y2 - x1 * y0 - x2 * y1);
}

void Gte::average_z(int32_t scale, int count) {
  int64_t sum = 0;
  for (int i = 4 - count; i < 4; ++i) sum += sz_[i];
  const int64_t average = scale * sum;
  set_mac0(average);
  otz_ = saturate_sz(average >> 12);
}

bool Gte::execute(uint32_t command) {
  const Fields f(command);
  const auto rgb_shifted = [](uint32_t rgb) {
    return Vector{static_cast<int32_t>(rgb & 0xFF) << 16, static_cast<int32_t>(rgb >> 8 & 0xFF) << 16,
                  static_cast<int32_t>(rgb >> 16 & 0xFF) << 16};
  };
  const uint32_t saved_flag = control_[flag_register];
  control_[flag_register] = 0;
  switch (command & 0x3F) {
    case 0x01: project(0, f, true); break;                                        // RTPS
    case 0x06: normal_clip(); break;                                              // NCLIP
    case 0x0C: {                                                                  // OP: IR x diagonal of RT
      const int64_t d1 = matrix(rotation, 0, 0), d2 = matrix(rotation, 1, 1), d3 = matrix(rotation, 2, 2);
      const int64_t products[3] = {d2 * ir_[3] - d3 * ir_[2], d3 * ir_[1] - d1 * ir_[3], d1 * ir_[2] - d2 * ir_[1]};
      for (unsigned i = 0; i < 3; ++i) mac_[i + 1] = static_cast<int32_t>(accumulate(i, products[i]) >> f.shift);
      macs_to_irs(f.lm);
      break;
    }
    case 0x10: depth_cue(rgb_shifted(read_data(6)), f); break;                    // DPCS
    case 0x11: depth_cue({ir_[1] * 4096, ir_[2] * 4096, ir_[3] * 4096}, f); break; // INTPL
    case 0x12:                                                                    // MVMVA
      multiply(f.matrix * 8, f.vector == 3 ? ir_vector() : vertex(f.vector), f.translation, f.shift, f.lm);
      break;
    case 0x13: normal_to_colour(0, f), depth_cue_colour(f); break;                // NCDS
    case 0x14: multiply(colour, ir_vector(), 1, f.shift, f.lm), depth_cue_colour(f); break; // CDP
    case 0x16:                                                                    // NCDT
      for (unsigned i = 0; i < 3; ++i) normal_to_colour(i, f), depth_cue_colour(f);
      break;
    case 0x1B: normal_to_colour(0, f), colour_times_ir(f), push_colour(); break;  // NCCS
    case 0x1C: multiply(colour, ir_vector(), 1, f.shift, f.lm), colour_times_ir(f), push_colour(); break; // CC
    case 0x1E: normal_to_colour(0, f), push_colour(); break;                      // NCS
    case 0x20:                                                                    // NCT
      for (unsigned i = 0; i < 3; ++i) normal_to_colour(i, f), push_colour();
      break;
    case 0x28:                                                                    // SQR
      for (unsigned i = 0; i < 3; ++i) mac_[i + 1] = (ir_[i + 1] * ir_[i + 1]) >> f.shift;
      macs_to_irs(f.lm);
      break;
    case 0x29: depth_cue_colour(f); break;                                        // DCPL
    case 0x2A:                                                                    // DPCT: the oldest FIFO entry, 3 times
      for (int i = 0; i < 3; ++i) depth_cue(rgb_shifted(rgb_fifo_[0]), f);
      break;
    case 0x2D: average_z(static_cast<int16_t>(control_[zsf3]), 3); break;         // AVSZ3
    case 0x2E: average_z(static_cast<int16_t>(control_[zsf4]), 4); break;         // AVSZ4
    case 0x30:                                                                    // RTPT
      for (unsigned i = 0; i < 3; ++i) project(i, f, i == 2);
      break;
    case 0x3D:                                                                    // GPF
      for (unsigned i = 0; i < 3; ++i) mac_[i + 1] = (ir_[0] * ir_[i + 1]) >> f.shift;
      macs_to_irs(f.lm);
      push_colour();
      break;
    case 0x3E:                                                                    // GPL
      for (unsigned i = 0; i < 3; ++i) {
        const int64_t base = static_cast<int64_t>(mac_[i + 1]) * (int64_t{1} << f.shift);
        mac_[i + 1] = static_cast<int32_t>(accumulate(i, base + ir_[0] * ir_[i + 1]) >> f.shift);
      }
      macs_to_irs(f.lm);
      push_colour();
      break;
    case 0x3F:                                                                    // NCCT
      for (unsigned i = 0; i < 3; ++i) normal_to_colour(i, f), colour_times_ir(f), push_colour();
      break;
    default: control_[flag_register] = saved_flag; return false;
  }
  if (control_[flag_register] & error_bits) control_[flag_register] |= 0x80000000;
  return true;
}

} // namespace kiln::psx
