#pragma once
// The forms of an encoding-table row that the generated-code test (test_emitted.cpp) covers: every combination
// of the mode bits the row has (OE, Rc; AA and LK for the branches) and, for the conditional branches, every
// class of BO (PEM "Conditional Branch Control"), plus the `bcl 20,31,$+4` idiom the emitter treats as a plain
// instruction. Shared by the generator of the cases (emitted_cases_generator.cpp) and the test, which checks
// that every form of every row has its cases.
#include <cstdint>
#include <string>
#include <vector>

#include "recompiler/isa/ppc/encoding_table.h"

namespace kiln::ppc::test {

/// The words of a form: (word & mask) == value, on bits the row leaves free.
struct Form {
  std::string name;
  uint32_t mask = 0, value = 0;
};

/// The BO classes (PEM "BO Operand Encodings"): `bits` over the 5-bit BO, the others are the y and z bits the
/// processor ignores (random in the cases). The classes that decrement CTR have BO bit 2 (0x04) clear.
struct BoClass {
  const char* name;
  uint32_t mask, value;
};
inline constexpr BoClass bo_classes[] = {
    {"dnzf", 0x1E, 0x00}, // CTR - 1 != 0 and the condition false
    {"dzf", 0x1E, 0x02},  // CTR - 1 == 0 and false
    {"f", 0x1C, 0x04},    // the condition false
    {"dnzt", 0x1E, 0x08}, {"dzt", 0x1E, 0x0A}, {"t", 0x1C, 0x0C},
    {"dnz", 0x16, 0x10},  // CTR - 1 != 0
    {"dz", 0x16, 0x12},   // CTR - 1 == 0
    {"always", 0x14, 0x14},
};
constexpr uint32_t bo_decrements_ctr(const BoClass& k) { return !(k.value & 0x04); }

inline std::vector<Form> forms(const Encoding& row) {
  std::vector<Form> out{{std::string(row.mnemonic), 0, 0}};
  auto split = [&](const char* name, uint32_t bit) {
    std::vector<Form> next;
    for (const Form& f : out)
      for (uint32_t v : {0u, 1u})
        next.push_back({f.name + " " + name + "=" + std::to_string(v), f.mask | bit, f.value | (v ? bit : 0)});
    out = std::move(next);
  };
  if (row.has(trait::has_oe)) split("OE", 1u << 10);
  if (row.has(trait::has_rc)) split("Rc", 1u);
  const bool conditional = row.flow == Flow::branch_conditional || row.flow == Flow::branch_to_lr || row.flow == Flow::branch_to_ctr;
  if (row.flow == Flow::branch || row.flow == Flow::branch_conditional) split("AA", 2u);
  if (row.flow == Flow::branch || conditional) split("LK", 1u);
  if (conditional) {
    std::vector<Form> next;
    for (const Form& f : out)
      for (const BoClass& k : bo_classes) {
        if (row.flow == Flow::branch_to_ctr && bo_decrements_ctr(k)) continue; // an invalid form: never decoded
        next.push_back({f.name + " BO=" + k.name, f.mask | k.mask << 21, f.value | k.value << 21});
      }
    out = std::move(next);
  }
  if (row.opcode == Opcode::bc) out.push_back({"bc pc read (bcl 20,31,$+4)", 0x03FFFFFFu, 20u << 21 | 31u << 16 | 4u | 1u});
  return out;
}

} // namespace kiln::ppc::test
