#pragma once
// The PS1 Geometry Transformation Engine (COP2): its register file as MFC2/MTC2/CFC2/CTC2 (and LWC2/SWC2) see it,
// and its commands with the hardware's fixed-point widths, saturation and FLAG bits (psx-spx "Geometry
// Transformation Engine"). One copy of these semantics: the recompiled code, tests and any interpreter call it.
#include <array>
#include <cstdint>

namespace kiln::psx {

class Gte {
public:
  /// MFC2 / SWC2: data register 0..31.
  uint32_t read_data(unsigned index) const;
  /// MTC2 / LWC2.
  void write_data(unsigned index, uint32_t value);
  /// CFC2: control register 0..31 (cop2r32..63).
  uint32_t read_control(unsigned index) const;
  /// CTC2.
  void write_control(unsigned index, uint32_t value);

  /// COP2 imm25: runs the command in bits 0-5 with its sf/lm/MVMVA fields. Returns false (and changes nothing)
  /// for an opcode that is none of the 22 documented commands, so the caller can report it.
  bool execute(uint32_t command);

  /// FLAG (control register 31) as the last command left it.
  uint32_t flag() const { return control_[31]; }

private:
  struct Fields; // the decoded command word
  using Vector = std::array<int32_t, 3>;

  // Register views.
  int16_t matrix(unsigned base, unsigned row, unsigned column) const;
  int32_t control_signed(unsigned index) const { return static_cast<int32_t>(control_[index]); }
  Vector vertex(unsigned index) const { return {v_[index][0], v_[index][1], v_[index][2]}; }
  Vector ir_vector() const { return {ir_[1], ir_[2], ir_[3]}; }

  // Fixed-point steps, each setting its FLAG bits.
  int64_t accumulate(unsigned channel, int64_t value);           ///< MAC1..3: 44-bit overflow check, wraps to 44 bits
  int16_t saturate_ir(unsigned channel, int64_t value, bool lm); ///< IR1..3
  void set_mac0(int64_t value);                                  ///< MAC0: 32-bit overflow flags
  uint16_t saturate_sz(int64_t value);                           ///< SZ3 / OTZ: 0..FFFFh
  void macs_to_irs(bool lm);
  void push_colour();
  void push_sz(uint16_t z);
  void push_sxy(int16_t x, int16_t y);

  // Command building blocks.
  void multiply(unsigned matrix_base, const Vector& v, unsigned translation, int shift, bool lm);
  void project(unsigned vertex, const Fields& f, bool last);
  void normal_to_colour(unsigned vertex, const Fields& f);  ///< light matrix, then background + colour matrix
  void colour_times_ir(const Fields& f);                    ///< [R,G,B] * IR
  void depth_cue(const Vector& start_12, const Fields& f);  ///< start + (FC - start) * IR0
  void depth_cue_colour(const Fields& f);                   ///< [R,G,B] * IR, depth-cued
  void normal_clip();
  void average_z(int32_t scale, int count);

  // Data registers.
  int16_t v_[3][3]{};         ///< V0..V2 (x, y, z)
  uint8_t rgbc_[4]{};         ///< R, G, B, CODE
  uint16_t otz_ = 0;
  int16_t ir_[4]{};           ///< IR0..IR3
  int16_t sxy_[3][2]{};       ///< screen XY FIFO (SXY2 newest; SXYP reads SXY2)
  uint16_t sz_[4]{};          ///< SZ0..SZ3 FIFO
  uint32_t rgb_fifo_[3]{};    ///< RGB0..RGB2
  uint32_t res1_ = 0;         ///< data register 23: read/write, unused
  int32_t mac_[4]{};          ///< MAC0..MAC3
  uint32_t lzcs_ = 0, lzcr_ = 32;
  // Control registers, stored as written (16-bit ones masked).
  std::array<uint32_t, 32> control_{};
};

} // namespace kiln::psx
