// Scalar floating point: arithmetic, fused multiply-add, compares, conversions, moves between register files.
// Host arithmetic rounds in the host's rounding mode, which MSR FPCR sets (runtime/core/aarch64/fp.h), and raises the
// host's flags that MRS FPSR reads; operations that name their own rounding (FRINTN/A/M/P/Z, FCVT*) say it here.
#include <cmath>

#include "recompiler/isa/aarch64/semantics/handlers.h"

namespace kiln::a64::sem {
namespace {

/// 'S' or 'D' (or 'H') from the opcode's type letter before the lower-case suffix ("FADDDrr" -> 'D').
char precision(std::string_view op) {
  const size_t end = op.find_first_of("abcdefghijklmnopqrstuvwxyz");
  return op[end - 1];
}
std::string fread(const Register& r) {
  if (r.kind == RegKind::s) return fmt::format("v{}.f32[0]", r.index);
  if (r.kind == RegKind::d) return fmt::format("v{}.f64[0]", r.index);
  return "/*unsupported fp register*/0";
}
std::string fwrite(const Register& r, const std::string& value) {
  if (r.kind == RegKind::s) return fmt::format("v{} = kiln::rt::v_from_u64(kiln::rt::f32_bits({}));", r.index, value);
  return fmt::format("v{} = kiln::rt::v_from_u64(kiln::rt::f64_bits({}));", r.index, value);
}
const char* ftype(char p) { return p == 'S' ? "float" : "double"; }

void arithmetic(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const char* t = ftype(precision(op));
  const std::string a = fread(i.reg(1));
  std::string value;
  if (ends_with(op, "rrr")) { // FMADD family (d, n, m, a)
    const std::string b = fread(i.reg(2)), acc = fread(i.reg(3));
    if (starts_with(op, "FMADD")) value = fmt::format("std::fma({}, {}, {})", a, b, acc);
    else if (starts_with(op, "FMSUB")) value = fmt::format("std::fma(-{}, {}, {})", a, b, acc);
    else if (starts_with(op, "FNMADD")) value = fmt::format("std::fma(-{}, {}, -{})", a, b, acc);
    else value = fmt::format("std::fma({}, {}, -{})", a, b, acc); // FNMSUB
    out.line(fwrite(i.reg(0), fmt::format("kiln::rt::fp_default_nan(({}){})", t, value)));
    return;
  }
  if (ends_with(op, "rr")) {
    const std::string b = fread(i.reg(2));
    if (starts_with(op, "FADD")) value = fmt::format("kiln::rt::fp_default_nan({} + {}, {}, {})", a, b, a, b);
    else if (starts_with(op, "FSUB")) value = fmt::format("kiln::rt::fp_default_nan({} - {}, {}, {})", a, b, a, b);
    else if (starts_with(op, "FMUL")) value = fmt::format("kiln::rt::fp_default_nan({} * {}, {}, {})", a, b, a, b);
    else if (starts_with(op, "FDIV")) value = fmt::format("kiln::rt::fp_default_nan({} / {}, {}, {})", a, b, a, b);
    else if (starts_with(op, "FNMUL")) value = fmt::format("-kiln::rt::fp_default_nan({} * {}, {}, {})", a, b, a, b);
    else if (starts_with(op, "FMAXNM")) value = fmt::format("kiln::rt::fp_maxnm({}, {})", a, b);
    else if (starts_with(op, "FMINNM")) value = fmt::format("kiln::rt::fp_minnm({}, {})", a, b);
    else if (starts_with(op, "FMAX")) value = fmt::format("kiln::rt::fp_max({}, {})", a, b);
    else if (starts_with(op, "FMIN")) value = fmt::format("kiln::rt::fp_min({}, {})", a, b);
    else if (starts_with(op, "FABD")) value = fmt::format("std::fabs({} - {})", a, b);
  } else { // one operand
    if (starts_with(op, "FABS")) value = fmt::format("std::fabs({})", a);
    else if (starts_with(op, "FNEG")) value = fmt::format("-{}", a);
    else if (starts_with(op, "FSQRT")) value = fmt::format("kiln::rt::fp_default_nan(std::sqrt({}), {})", a, a);
    else if (starts_with(op, "FMOV")) value = a;
    else if (starts_with(op, "FRINTN")) value = fmt::format("kiln::rt::fp_round_even({})", a);
    else if (starts_with(op, "FRINTI")) value = fmt::format("std::nearbyint({})", a); // FPCR's mode, no Inexact
    else if (starts_with(op, "FRINTX")) value = fmt::format("std::rint({})", a);      // FPCR's mode, Inexact
    else if (starts_with(op, "FRINTP")) value = fmt::format("std::ceil({})", a);
    else if (starts_with(op, "FRINTM")) value = fmt::format("std::floor({})", a);
    else if (starts_with(op, "FRINTZ")) value = fmt::format("std::trunc({})", a);
    else if (starts_with(op, "FRINTA")) value = fmt::format("std::round({})", a);
  }
  out.line(fwrite(i.reg(0), fmt::format("({})({})", t, value)));
}

void compare(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode; // FCMP[E]{S,D}rr (n, m) / ri (n)
  const std::string b = ends_with(op, "ri") ? "0.0" : fread(i.reg(1));
  out.line(fmt::format("kiln::rt::fp_compare_flags({}, ({}){}, {}, n, z, cf, vf);", fread(i.reg(0)), ftype(precision(op)), b,
                       starts_with(op, "FCMPE") ? "true" : "false"));
}

void conditional_compare(const Instruction& i, EmitTarget& out) {
  const int64_t nzcv = i.imm(2);
  out.line(fmt::format("if ({}) kiln::rt::fp_compare_flags({}, {}, {}, n, z, cf, vf); else {{ n = {}; z = {}; cf = {}; vf = {}; }}",
                       condition(i.imm(3)), fread(i.reg(0)), fread(i.reg(1)), starts_with(i.opcode, "FCCMPE") ? "true" : "false",
                       (nzcv >> 3) & 1, (nzcv >> 2) & 1, (nzcv >> 1) & 1, nzcv & 1));
}

void select(const Instruction& i, EmitTarget& out) {
  out.line(fmt::format("{} = {} ? {} : {};", vreg(i.reg(0)), condition(i.imm(3)), vreg(i.reg(1)), vreg(i.reg(2))));
  out.line(fmt::format("{}.u64[1] = 0;{}", vreg(i.reg(0)), i.reg(0).kind == RegKind::s ? fmt::format(" {}.u32[1] = 0;", vreg(i.reg(0))) : ""));
}

/// FCVT[ZANMP][SU]U{W,X}{S,D}r: float to integer with the named rounding; SCVTF/UCVTF U{W,X}{S,D}ri back.
void convert_int(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  if (starts_with(op, "SCVTF") || starts_with(op, "UCVTF")) {
    const char* t = ftype(precision(op));
    const bool sign = op[0] == 'S';
    const std::string source = read(i.reg(1));
    const std::string integer = sign ? (i.reg(1).is_64() ? fmt::format("(int64_t){}", source) : fmt::format("(int32_t){}", source)) : source;
    // The fixed-point forms (SCVTF d0, w1, #fbits) carry a third operand: divide by 2^fbits.
    const std::string scale = i.operands.size() > 2 ? fmt::format(" / ({})({:.1f})", t, std::ldexp(1.0, static_cast<int>(i.imm(2)))) : "";
    out.line(fwrite(i.reg(0), fmt::format("({}){}{}", t, integer, scale)));
    return;
  }
  const char rounding = op[4];
  const bool sign = op[5] == 'S';
  const bool x = op[7] == 'X';
  std::string rounded;
  switch (rounding) {
  case 'Z': rounded = "std::trunc(value)"; break;
  case 'A': rounded = "std::round(value)"; break;
  case 'N': rounded = "kiln::rt::fp_round_even(value)"; break;
  case 'M': rounded = "std::floor(value)"; break;
  default: rounded = "std::ceil(value)"; break;
  }
  const char* it = sign ? (x ? "int64_t" : "int32_t") : (x ? "uint64_t" : "uint32_t");
  out.line(fmt::format("{{ const auto value = {}; {} }}", fread(i.reg(1)),
                       write(i.reg(0), fmt::format("({})kiln::rt::fp_convert_to_int<{}>({}, value)", x ? "uint64_t" : "uint32_t", it, rounded))));
}

/// The AdvSIMD scalar forms, integer and float both in a SIMD&FP register: SCVTF/UCVTFv1i64 (d, d), FCVTZSv1i32 (s, s).
void convert_in_vector(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const bool wide = ends_with(op, "v1i64");
  const std::string d = vreg(i.reg(0)), n = vreg(i.reg(1));
  const char* bits = wide ? "kiln::rt::f64_bits" : "kiln::rt::f32_bits";
  if (starts_with(op, "SCVTF") || starts_with(op, "UCVTF")) {
    const bool sign = op[0] == 'S';
    const std::string integer = wide ? fmt::format("({}){}.u64[0]", sign ? "int64_t" : "uint64_t", n) : fmt::format("({}){}.u32[0]", sign ? "int32_t" : "uint32_t", n);
    out.line(fmt::format("{} = kiln::rt::v_from_u64({}(({}){}));", d, bits, wide ? "double" : "float", integer));
    return;
  }
  std::string rounded;
  switch (op[4]) {
  case 'Z': rounded = "std::trunc(value)"; break;
  case 'A': rounded = "std::round(value)"; break;
  case 'N': rounded = "kiln::rt::fp_round_even(value)"; break;
  case 'M': rounded = "std::floor(value)"; break;
  default: rounded = "std::ceil(value)"; break;
  }
  const bool sign = op[5] == 'S';
  const char* it = sign ? (wide ? "int64_t" : "int32_t") : (wide ? "uint64_t" : "uint32_t");
  out.line(fmt::format("{{ const auto value = {}.{}[0]; {} = kiln::rt::v_from_u64(({})kiln::rt::fp_convert_to_int<{}>({}, value)); }}", n,
                       wide ? "f64" : "f32", d, wide ? "uint64_t" : "uint32_t", it, rounded));
}

void convert_precision(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode; // FCVTSDr: S <- D ; FCVTDSr: D <- S
  out.line(fwrite(i.reg(0), fmt::format("({}){}", op == "FCVTSDr" ? "float" : "double", fread(i.reg(1)))));
}

/// VFPExpandImm: the 8-bit FMOV immediate as a float/double.
double expand_fp_immediate(uint32_t imm8) {
  const int sign = (imm8 >> 7) & 1, exponent = ((imm8 >> 4) & 7) ^ 4, fraction = imm8 & 15;
  const double value = (16.0 + fraction) / 16.0 * std::ldexp(1.0, exponent - 3);
  return sign ? -value : value;
}

void move(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  if (op == "FMOVDi" || op == "FMOVSi") {
    const double value = expand_fp_immediate(static_cast<uint32_t>(i.imm(1)));
    out.line(fwrite(i.reg(0), op == "FMOVDi" ? fmt::format("{:.17g}", value) : fmt::format("(float){:.17g}", value)));
  } else if (op == "FMOVXDr") out.line(fmt::format("{} = kiln::rt::v_from_u64({});", vreg(i.reg(0)), read(i.reg(1))));
  else if (op == "FMOVWSr") out.line(fmt::format("{} = kiln::rt::v_from_u64({});", vreg(i.reg(0)), read(i.reg(1))));
  else if (op == "FMOVDXr") out.line(write(i.reg(0), fmt::format("{}.u64[0]", vreg(i.reg(1)))));
  else if (op == "FMOVSWr") out.line(write(i.reg(0), fmt::format("{}.u32[0]", vreg(i.reg(1)))));
  else if (op == "FMOVDXHighr") out.line(write(i.reg(0), fmt::format("{}.u64[1]", vreg(i.reg(1)))));
  else if (op == "FMOVXDHighr") out.line(fmt::format("{}.u64[1] = {};", vreg(i.reg(0)), read(i.reg(1)))); // (q, x, #1)
  else if (op == "FMOVDr" || op == "FMOVSr") out.line(fwrite(i.reg(0), fread(i.reg(1))));
}

} // namespace

void register_fp(Registry& r) {
  static std::vector<std::string> names;
  names.reserve(512);
  auto add = [&](std::string name, Handler h) { names.push_back(std::move(name)); r[names.back()] = h; };
  for (const char* p : {"S", "D"}) {
    for (const char* base : {"FADD", "FSUB", "FMUL", "FDIV", "FNMUL", "FMAX", "FMIN", "FMAXNM", "FMINNM", "FABD"}) add(std::string(base) + p + "rr", arithmetic);
    for (const char* base : {"FMADD", "FMSUB", "FNMADD", "FNMSUB"}) add(std::string(base) + p + "rrr", arithmetic);
    for (const char* base : {"FABS", "FNEG", "FSQRT", "FRINTN", "FRINTI", "FRINTX", "FRINTP", "FRINTM", "FRINTZ", "FRINTA"}) add(std::string(base) + p + "r", arithmetic);
    for (const char* base : {"FCMP", "FCMPE"}) { add(std::string(base) + p + "rr", compare); add(std::string(base) + p + "ri", compare); }
    for (const char* base : {"FCCMP", "FCCMPE"}) add(std::string(base) + p + "rr", conditional_compare);
    add(std::string("FCSEL") + p + "rrr", select);
    for (const char* base : {"FCVTZS", "FCVTZU", "FCVTAS", "FCVTAU", "FCVTNS", "FCVTNU", "FCVTMS", "FCVTMU", "FCVTPS", "FCVTPU"})
      for (const char* w : {"UW", "UX"}) add(std::string(base) + w + p + "r", convert_int);
    for (const char* base : {"SCVTF", "UCVTF"})
      for (const char* w : {"UW", "UX", "SW", "SX"}) add(std::string(base) + w + p + "ri", convert_int);
    add(std::string("FMOV") + p + "i", move);
    add(std::string("FMOV") + p + "r", move);
  }
  for (const char* base : {"SCVTF", "UCVTF", "FCVTZS", "FCVTZU", "FCVTAS", "FCVTAU", "FCVTNS", "FCVTNU", "FCVTMS", "FCVTMU", "FCVTPS", "FCVTPU"})
    for (const char* size : {"v1i32", "v1i64"}) add(std::string(base) + size, convert_in_vector);
  add("FCVTSDr", convert_precision);
  add("FCVTDSr", convert_precision);
  for (const char* name : {"FMOVXDr", "FMOVWSr", "FMOVDXr", "FMOVSWr", "FMOVDXHighr", "FMOVXDHighr"}) add(name, move);
}

} // namespace kiln::a64::sem
