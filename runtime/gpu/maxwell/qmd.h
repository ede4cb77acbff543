#pragma once
// A QMD (queue meta data): the 256-byte structure a compute launch points at (SEND_PCAS_A). Fields are read and
// written by the generated positions of classes/qmd_v01_07.h (Maxwell compute, B1C0) and classes/qmd_v03_00.h
// (Ampere compute, C7C0); drivers and the tests build one with set(), the compute engine reads it with get().
#include <array>
#include <cstdint>
#include <span>

#include "runtime/gpu/maxwell/classes/method_layout.h"

namespace kiln::maxwell {

struct Qmd {
  static constexpr uint32_t words_count = 64;
  std::array<uint32_t, words_count> words{};

  uint64_t get(QmdField field) const {
    uint64_t value = 0;
    for (uint32_t bit = field.low; bit <= field.high; ++bit) value |= uint64_t{(words[bit / 32] >> (bit % 32)) & 1} << (bit - field.low);
    return value;
  }
  /// Sets the field to the low bits of `value` (bits that do not fit are dropped, as a driver's DRF macro does).
  Qmd& set(QmdField field, uint64_t value) {
    for (uint32_t bit = field.low; bit <= field.high; ++bit) {
      const uint32_t mask = 1u << (bit % 32);
      if ((value >> (bit - field.low)) & 1) words[bit / 32] |= mask;
      else words[bit / 32] &= ~mask;
    }
    return *this;
  }
  std::span<const uint8_t> bytes() const { return {reinterpret_cast<const uint8_t*>(words.data()), sizeof(words)}; }
};

} // namespace kiln::maxwell
