#pragma once
// Shared pieces of the semantics files: the handler registry and register/operand expressions.
#include <fmt/format.h>

#include <string>
#include <unordered_map>

#include "recompiler/isa/aarch64/semantics/semantics.h"

namespace kiln::a64::sem {

using Handler = void (*)(const Instruction&, EmitTarget&);
using Registry = std::unordered_map<std::string_view, Handler>;

void register_integer(Registry& registry);
void register_memory(Registry& registry);
void register_branch(Registry& registry);
void register_system(Registry& registry);
void register_fp(Registry& registry);
void register_simd(Registry& registry);

inline bool ends_with(std::string_view s, std::string_view tail) { return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail; }
inline bool starts_with(std::string_view s, std::string_view head) { return s.substr(0, head.size()) == head; }

/// C++ expression reading a general register at its width (W reads are uint32_t, X reads uint64_t).
inline std::string read(const Register& r) {
  switch (r.kind) {
  case RegKind::x: return fmt::format("x{}", r.index);
  case RegKind::w: return fmt::format("(uint32_t)x{}", r.index);
  case RegKind::sp: return "sp";
  case RegKind::wsp: return "(uint32_t)sp";
  case RegKind::xzr: return "(uint64_t)0";
  case RegKind::wzr: return "(uint32_t)0";
  default: return "/*bad register*/0";
  }
}
/// Statement writing `value` to a general register (W writes zero-extend; XZR/WZR discard).
inline std::string write(const Register& r, const std::string& value) {
  switch (r.kind) {
  case RegKind::x: return fmt::format("x{} = (uint64_t)({});", r.index, value);
  case RegKind::w: return fmt::format("x{} = (uint32_t)({});", r.index, value);
  case RegKind::sp: return fmt::format("sp = (uint64_t)({});", value);
  case RegKind::wsp: return fmt::format("sp = (uint32_t)({});", value);
  default: return fmt::format("(void)({});", value);
  }
}
inline const char* type_of(const Register& r) { return r.is_64() ? "uint64_t" : "uint32_t"; }
inline std::string vreg(const Register& r) { return fmt::format("v{}", r.index); }
inline std::string hex(uint64_t v) { return fmt::format("{:#x}ull", v); }

/// The C++ condition for an AArch64 condition code (EQ=0 ... AL=14, NV=15).
inline std::string condition(int64_t code) {
  static const char* const names[] = {"z",          "!z",         "cf",       "!cf",       "n",        "!n",
                                      "vf",         "!vf",        "(cf && !z)", "!(cf && !z)", "(n == vf)", "(n != vf)",
                                      "(!z && n == vf)", "!(!z && n == vf)", "true", "true"};
  return names[code & 15];
}

/// Shifted-register operand: LLVM packs the shift as (type << 6) | amount.
inline std::string shifted(const Register& r, int64_t encoded) {
  const unsigned type = (encoded >> 6) & 7, amount = encoded & 63;
  const std::string value = read(r);
  if (amount == 0) return value;
  static const char* const ops[] = {"lsl", "lsr", "asr", "ror"};
  return fmt::format("kiln::rt::{}<{}>({}, {})", ops[type & 3], type_of(r), value, amount);
}
/// Extended-register operand: LLVM packs (extend << 3) | amount; extend 0..7 = UXTB UXTH UXTW UXTX SXTB SXTH SXTW SXTX.
inline std::string extended(const Register& r, int64_t encoded) {
  const unsigned type = (encoded >> 3) & 7, amount = encoded & 7;
  static const char* const casts[] = {"(uint64_t)(uint8_t)", "(uint64_t)(uint16_t)", "(uint64_t)(uint32_t)", "(uint64_t)",
                                      "(uint64_t)(int64_t)(int8_t)", "(uint64_t)(int64_t)(int16_t)", "(uint64_t)(int64_t)(int32_t)", "(uint64_t)"};
  const std::string value = fmt::format("{}({})", casts[type], read(r));
  return amount == 0 ? value : fmt::format("({} << {})", value, amount);
}

} // namespace kiln::a64::sem
