// Advanced SIMD (NEON): lane-wise arithmetic, compares, pairwise and across-lane reductions, permutes,
// moves between register files, immediates and LD1/ST1 structures. Lanes go through the typed helpers in
// runtime/core/a64_ops.h, which the host compiler vectorises.
#include <cmath>
#include <map>

#include "recompiler/isa/aarch64/semantics/handlers.h"

namespace kiln::a64::sem {
namespace {

struct Shape {
  std::string_view operation; ///< "ADD", "CMEQ", ...
  int lanes = 0;
  int bits = 0;
  bool is_float = false;
  std::string_view suffix; ///< what follows the arrangement ("rz", "_shift", "gpr", "lane", "v", ...)
  bool full() const { return lanes * bits == 128; }
};

/// Splits "CMEQv16i8rz" into CMEQ, 16 x i8, "rz".
bool parse(std::string_view op, Shape& s) {
  for (size_t at = 1; at + 3 < op.size(); ++at) {
    if (op[at] != 'v' || !std::isdigit(static_cast<unsigned char>(op[at + 1]))) continue;
    size_t p = at + 1;
    int lanes = 0, bits = 0;
    while (p < op.size() && std::isdigit(static_cast<unsigned char>(op[p]))) lanes = lanes * 10 + (op[p++] - '0');
    if (p >= op.size() || (op[p] != 'i' && op[p] != 'f')) continue;
    s.is_float = op[p++] == 'f';
    while (p < op.size() && std::isdigit(static_cast<unsigned char>(op[p]))) bits = bits * 10 + (op[p++] - '0');
    s.operation = op.substr(0, at);
    s.lanes = lanes;
    s.bits = bits;
    s.suffix = op.substr(p);
    return bits == 8 || bits == 16 || bits == 32 || bits == 64;
  }
  return false;
}

std::string utype(int bits) { return fmt::format("uint{}_t", bits); }
std::string stype(int bits) { return fmt::format("int{}_t", bits); }
std::string ftype(int bits) { return bits == 32 ? "float" : "double"; }
std::string lane_type(const Shape& s) { return s.is_float ? ftype(s.bits) : utype(s.bits); }

/// Lane expressions of x and y (lane type E, unsigned for integers) for two-operand operations.
const std::map<std::string_view, std::string>& binary_ops() {
  static const std::map<std::string_view, std::string> ops = {
      {"ADD", "x + y"}, {"SUB", "x - y"}, {"MUL", "x * y"}, {"AND", "x & y"}, {"ORR", "x | y"}, {"EOR", "x ^ y"},
      {"BIC", "x & ~y"}, {"ORN", "x | ~y"},
      {"CMEQ", "x == y ? E(~E(0)) : E(0)"}, {"CMTST", "(x & y) != 0 ? E(~E(0)) : E(0)"},
      {"CMHI", "x > y ? E(~E(0)) : E(0)"}, {"CMHS", "x >= y ? E(~E(0)) : E(0)"},
      {"CMGT", "S(x) > S(y) ? E(~E(0)) : E(0)"}, {"CMGE", "S(x) >= S(y) ? E(~E(0)) : E(0)"},
      {"UMAX", "x > y ? x : y"}, {"UMIN", "x < y ? x : y"}, {"SMAX", "S(x) > S(y) ? x : y"}, {"SMIN", "S(x) < S(y) ? x : y"},
      {"UABD", "x > y ? E(x - y) : E(y - x)"}, {"SABD", "S(x) > S(y) ? E(x - y) : E(y - x)"},
      {"SSHL", "(int8_t)y >= 0 ? ((int8_t)y >= (int)sizeof(E) * 8 ? E(0) : E(x << (int8_t)y)) : E(S(x) >> (-(int8_t)y >= (int)sizeof(E) * 8 ? (int)sizeof(E) * 8 - 1 : -(int8_t)y))"},
      {"USHL", "(int8_t)y >= 0 ? ((int8_t)y >= (int)sizeof(E) * 8 ? E(0) : E(x << (int8_t)y)) : (-(int8_t)y >= (int)sizeof(E) * 8 ? E(0) : E(x >> -(int8_t)y))"},
      {"FADD", "x + y"}, {"FSUB", "x - y"}, {"FMUL", "x * y"}, {"FDIV", "x / y"},
      {"FMAX", "kiln::rt::fp_max(x, y)"}, {"FMIN", "kiln::rt::fp_min(x, y)"}, {"FMAXNM", "kiln::rt::fp_maxnm(x, y)"},
      {"FMINNM", "kiln::rt::fp_minnm(x, y)"}, {"FABD", "std::fabs(x - y)"},
  };
  return ops;
}
const std::map<std::string_view, std::string>& pairwise_ops() {
  static const std::map<std::string_view, std::string> ops = {
      {"ADDP", "x + y"}, {"UMAXP", "x > y ? x : y"}, {"UMINP", "x < y ? x : y"}, {"SMAXP", "S(x) > S(y) ? x : y"},
      {"SMINP", "S(x) < S(y) ? x : y"}, {"FADDP", "x + y"}, {"FMAXP", "kiln::rt::fp_max(x, y)"}, {"FMINP", "kiln::rt::fp_min(x, y)"},
  };
  return ops;
}
const std::map<std::string_view, std::string>& zero_compare_ops() {
  static const std::map<std::string_view, std::string> ops = {
      {"CMEQ", "x == 0"}, {"CMGE", "S(x) >= 0"}, {"CMGT", "S(x) > 0"}, {"CMLE", "S(x) <= 0"}, {"CMLT", "S(x) < 0"},
  };
  return ops;
}
const std::map<std::string_view, std::string>& unary_ops() {
  static const std::map<std::string_view, std::string> ops = {
      {"NOT", "~x"}, {"NEG", "E(0) - x"}, {"ABS", "S(x) < 0 ? E(0 - x) : x"}, {"CNT", "__builtin_popcount(x)"},
      {"FNEG", "-x"}, {"FABS", "std::fabs(x)"}, {"FSQRT", "std::sqrt(x)"}, {"RBIT", "kiln::rt::rbit32(x) >> 24"},
  };
  return ops;
}
const std::map<std::string_view, std::string>& reduce_ops() {
  static const std::map<std::string_view, std::string> ops = {
      {"ADDV", "x + y"}, {"UMAXV", "x > y ? x : y"}, {"UMINV", "x < y ? x : y"}, {"SMAXV", "S(x) > S(y) ? x : y"},
      {"SMINV", "S(x) < S(y) ? x : y"},
  };
  return ops;
}

/// A lambda prologue making E (lane type) and S (its signed type) available to lane expressions.
std::string lambda2(const Shape& s, const std::string& body) {
  const std::string e = lane_type(s);
  const std::string sgn = s.is_float ? e : stype(s.bits);
  return fmt::format("[](auto x, auto y) {{ using E = {}; using S = {}; (void)sizeof(S); return E({}); }}", e, sgn, body);
}
std::string lambda1(const Shape& s, const std::string& body) {
  const std::string e = lane_type(s);
  const std::string sgn = s.is_float ? e : stype(s.bits);
  return fmt::format("[](auto x) {{ using E = {}; using S = {}; (void)sizeof(S); return E({}); }}", e, sgn, body);
}

void set(EmitTarget& out, const Register& d, const std::string& value) { out.line(fmt::format("{} = {};", vreg(d), value)); }

void lanewise(const Instruction& i, EmitTarget& out) {
  Shape s;
  parse(i.opcode, s);
  const std::string e = lane_type(s);
  if (s.suffix == "rz") {
    const std::string body = zero_compare_ops().at(s.operation) + " ? E(~E(0)) : E(0)";
    set(out, i.reg(0), fmt::format("kiln::rt::v_map1<{}, {}>({}, {})", e, s.lanes, vreg(i.reg(1)), lambda1(s, body)));
  } else if (auto p = pairwise_ops().find(s.operation); p != pairwise_ops().end()) {
    set(out, i.reg(0), fmt::format("kiln::rt::v_pairwise<{}, {}>({}, {}, {})", e, s.lanes, vreg(i.reg(1)), vreg(i.reg(2)), lambda2(s, p->second)));
  } else if (auto r = reduce_ops().find(s.operation); r != reduce_ops().end()) {
    set(out, i.reg(0), fmt::format("kiln::rt::v_from_u64(({})kiln::rt::v_reduce<{}, {}>({}, {}))", e, e, s.lanes, vreg(i.reg(1)), lambda2(s, r->second)));
  } else if (auto u = unary_ops().find(s.operation); u != unary_ops().end() && i.operands.size() == 2) {
    set(out, i.reg(0), fmt::format("kiln::rt::v_map1<{}, {}>({}, {})", e, s.lanes, vreg(i.reg(1)), lambda1(s, u->second)));
  } else {
    set(out, i.reg(0), fmt::format("kiln::rt::v_map2<{}, {}>({}, {}, {})", e, s.lanes, vreg(i.reg(1)), vreg(i.reg(2)), lambda2(s, binary_ops().at(s.operation))));
  }
}

void bitwise_select(const Instruction& i, EmitTarget& out) {
  // (d, d, n, m): BSL d = (d & n) | (~d & m); BIT d = (n & m) | (d & ~m); BIF d = (d & m) | (n & ~m)
  Shape s;
  parse(i.opcode, s);
  const std::string d = vreg(i.reg(1)), n = vreg(i.reg(2)), m = vreg(i.reg(3));
  const char* expr = s.operation == "BSL" ? "(d & n) | (~d & m)" : s.operation == "BIT" ? "(n & m) | (d & ~m)" : "(d & m) | (n & ~m)";
  out.line(fmt::format("{{ const V128 d_ = {}, n_ = {}, m_ = {}; V128 r_; for (int k = 0; k < 2; ++k) {{ const uint64_t d = d_.u64[k], n = n_.u64[k], m = m_.u64[k]; r_.u64[k] = {}; }} {} = kiln::rt::v_half(r_, {}); }}",
                       d, n, m, expr, vreg(i.reg(0)), s.full()));
}

void shift_immediate(const Instruction& i, EmitTarget& out) {
  Shape s;
  parse(i.opcode, s);
  const std::string e = utype(s.bits);
  const int64_t amount = i.imm(2);
  const std::string a = vreg(i.reg(1));
  if (s.operation == "SHL") set(out, i.reg(0), fmt::format("kiln::rt::v_map1<{}, {}>({}, [](auto x) {{ return x << {}; }})", e, s.lanes, a, amount));
  else if (s.operation == "USHR") set(out, i.reg(0), fmt::format("kiln::rt::v_map1<{}, {}>({}, [](auto x) {{ return {} >= {} ? 0 : x >> {}; }})", e, s.lanes, a, amount, s.bits, amount % s.bits));
  else if (s.operation == "SSHR") set(out, i.reg(0), fmt::format("kiln::rt::v_map1<{}, {}>({}, [](auto x) {{ return ({})(({})x >> {}); }})", e, s.lanes, a, e, stype(s.bits), std::min<int64_t>(amount, s.bits - 1)));
  else if (s.operation == "USRA" || s.operation == "SSRA") { // (d, d, n, amount): d += n >> amount, lane by lane
    const int64_t shift = i.imm(3);
    const std::string shifted = s.operation == "USRA"
        ? (shift >= s.bits ? std::string("0") : fmt::format("(x >> {})", shift))
        : fmt::format("({})(({})x >> {})", e, stype(s.bits), std::min<int64_t>(shift, s.bits - 1));
    set(out, i.reg(0), fmt::format("kiln::rt::v_map2<{}, {}>({}, {}, [](auto acc, auto x) {{ return acc + {}; }})", e, s.lanes,
                                   vreg(i.reg(1)), vreg(i.reg(2)), shifted));
  } else if (s.operation == "SHRN") { // narrow: arrangement names the narrow result
    const bool high = s.full();
    const Register& src = i.reg(high ? 2 : 1);
    set(out, i.reg(0), fmt::format("kiln::rt::v_narrow<{}, {}, {}>({}, {}, {}, [](auto x) {{ return x >> {}; }})", utype(s.bits * 2), e, 64 / s.bits,
                                   vreg(i.reg(high ? 1 : 0)), vreg(src), high, i.imm(high ? 3 : 2)));
  } else if (s.operation == "USHLL" || s.operation == "SSHLL") { // widen: arrangement names the narrow source
    const bool high = s.full();
    const std::string narrow = s.operation == "USHLL" ? utype(s.bits) : stype(s.bits);
    set(out, i.reg(0), fmt::format("kiln::rt::v_widen<{}, {}, {}>({}, {}, [](auto x) {{ return x << {}; }})", narrow,
                                   s.operation == "USHLL" ? utype(s.bits * 2) : stype(s.bits * 2), 64 / s.bits, a, high, amount));
  }
}

void narrow(const Instruction& i, EmitTarget& out) { // XTN (d, n) / XTN2 (d, d, n)
  Shape s;
  parse(i.opcode, s);
  const bool high = s.full();
  set(out, i.reg(0), fmt::format("kiln::rt::v_narrow<{}, {}, {}>({}, {}, {}, [](auto x) {{ return x; }})", utype(s.bits * 2), utype(s.bits),
                                 64 / s.bits, vreg(i.reg(high ? 1 : 0)), vreg(i.reg(high ? 2 : 1)), high));
}

void duplicate(const Instruction& i, EmitTarget& out) {
  Shape s;
  parse(i.opcode, s);
  const std::string e = utype(s.bits);
  if (s.suffix == "gpr") set(out, i.reg(0), fmt::format("kiln::rt::v_dup<{}, {}>(({}){})", e, s.lanes, e, read(i.reg(1))));
  else set(out, i.reg(0), fmt::format("kiln::rt::v_dup<{}, {}>(kiln::rt::v_lane<{}>({}, {}))", e, s.lanes, e, vreg(i.reg(1)), i.imm(2)));
}

/// DUPi8/16/32/64 (scalar from lane): "mov b0, v1.b[3]".
void duplicate_scalar(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const int bits = op == "DUPi8" ? 8 : op == "DUPi16" ? 16 : op == "DUPi32" ? 32 : 64;
  set(out, i.reg(0), fmt::format("kiln::rt::v_from_u64(kiln::rt::v_lane<{}>({}, {}))", utype(bits), vreg(i.reg(1)), i.imm(2)));
}

int lane_bits(std::string_view op) { // INSvi32gpr, UMOVvi8, SMOVvi16to32 ...
  const size_t at = op.find("vi");
  int bits = 0;
  for (size_t p = at + 2; p < op.size() && std::isdigit(static_cast<unsigned char>(op[p])); ++p) bits = bits * 10 + (op[p] - '0');
  return bits;
}

void insert(const Instruction& i, EmitTarget& out) { // INSvi32gpr (d, d, idx, r) / INSvi32lane (d, d, idx, n, idx2)
  const int bits = lane_bits(i.opcode);
  const std::string e = utype(bits);
  const std::string value = ends_with(i.opcode, "gpr") ? fmt::format("({}){}", e, read(i.reg(3)))
                                                       : fmt::format("kiln::rt::v_lane<{}>({}, {})", e, vreg(i.reg(3)), i.imm(4));
  set(out, i.reg(0), fmt::format("kiln::rt::v_insert<{}>({}, {}, {})", e, vreg(i.reg(1)), i.imm(2), value));
}

void move_to_general(const Instruction& i, EmitTarget& out) { // UMOVvi32 (w, q, idx) / SMOVvi8to32 ...
  const int bits = lane_bits(i.opcode);
  const bool sign = i.opcode[0] == 'S';
  std::string value = fmt::format("kiln::rt::v_lane<{}>({}, {})", utype(bits), vreg(i.reg(1)), i.operands.size() > 2 ? i.imm(2) : 0);
  if (sign) value = fmt::format("(uint64_t)(int64_t)({}){}", stype(bits), value);
  out.line(write(i.reg(0), value));
}

void extract(const Instruction& i, EmitTarget& out) { // EXTv16i8 (d, n, m, index)
  Shape s;
  parse(i.opcode, s);
  const int bytes = s.lanes;
  out.line(fmt::format("{{ uint8_t t_[32]; std::memcpy(t_, &{}, 16); std::memcpy(t_ + {}, &{}, 16); V128 r_{{}}; std::memcpy(&r_, t_ + {}, {}); {} = r_; }}",
                       vreg(i.reg(1)), bytes, vreg(i.reg(2)), i.imm(3), bytes, vreg(i.reg(0))));
}

void reverse(const Instruction& i, EmitTarget& out) { // REV16/REV32/REV64 v<arr>: reverse lanes inside each container
  Shape s;
  parse(i.opcode, s);
  const int container = s.operation == "REV16" ? 2 : s.operation == "REV32" ? 4 : 8;
  const int lane = s.bits / 8;
  out.line(fmt::format("{{ const V128 a_ = {}; V128 r_{{}}; for (int k = 0; k < {}; k += {}) for (int j = 0; j < {}; j += {}) std::memcpy(&r_.u8[k + j], &a_.u8[k + {} - {} - j], {}); {} = r_; }}",
                       vreg(i.reg(1)), s.lanes * lane, container, container, lane, container, lane, lane, vreg(i.reg(0))));
}

void permute(const Instruction& i, EmitTarget& out) { // UZP1/2 ZIP1/2 TRN1/2 (d, n, m)
  Shape s;
  parse(i.opcode, s);
  const std::string_view op = s.operation;
  const int part = op.back() - '1';
  std::string index; // source lane (in the concatenation n:m) of result lane k; half = lanes / 2
  if (starts_with(op, "UZP")) index = fmt::format("2 * k + {}", part);
  else if (starts_with(op, "ZIP")) index = fmt::format("(k & 1 ? {} : 0) + k / 2 + {} * {}", s.lanes, part, s.lanes / 2);
  else index = fmt::format("(k & 1 ? {} : 0) + (k & ~1) + {}", s.lanes, part);
  out.line(fmt::format("{{ {} t_[{}]; std::memcpy(t_, &{}, {}); std::memcpy(t_ + {}, &{}, {}); V128 r_{{}}; {} o_[{}]; for (int k = 0; k < {}; ++k) o_[k] = t_[{}]; std::memcpy(&r_, o_, {}); {} = r_; }}",
                       utype(s.bits), 2 * s.lanes, vreg(i.reg(1)), s.lanes * s.bits / 8, s.lanes, vreg(i.reg(2)), s.lanes * s.bits / 8,
                       utype(s.bits), s.lanes, s.lanes, index, s.lanes * s.bits / 8, vreg(i.reg(0))));
}

void table(const Instruction& i, EmitTarget& out) { // TBLv16i8One (d, n, idx) / Two.. (d, list, idx)
  Shape s;
  parse(i.opcode, s);
  const Register& list = i.reg(1);
  const int count = list.kind == RegKind::vlist ? list.count : 1;
  std::string registers;
  for (int k = 0; k < count; ++k) registers += fmt::format("{}v{}", k ? ", " : "", (list.index + k) % 32);
  out.line(fmt::format("{{ const kiln::rt::V128 table_[] = {{{}}}; {} = kiln::rt::v_table(table_, {}, {}, {}); }}", registers, vreg(i.reg(0)), count,
                       vreg(i.reg(2)), s.lanes));
}

/// AdvSIMDExpandImm for the MOVI/MVNI/ORR/BIC forms LLVM names (imm8 + shift operand).
void move_immediate(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  Shape s;
  if (!parse(op, s)) { // byte and msl forms spell the arrangement as v8b/v16b/v2s/v4s
    s.bits = op.find("v8b") != std::string_view::npos || op.find("v16b") != std::string_view::npos ? 8 : 32;
    s.lanes = (op.find("v16b") != std::string_view::npos ? 16 : op.find("v8b") != std::string_view::npos ? 8 : op.find("v4s") != std::string_view::npos ? 4 : 2);
  }
  const bool invert = starts_with(op, "MVNI");
  const bool modify = starts_with(op, "ORR") || starts_with(op, "BIC");
  if (op == "MOVIv2d_ns" || op == "MOVID") {
    uint64_t value = 0;
    for (int b = 0; b < 8; ++b) if ((i.imm(1) >> b) & 1) value |= uint64_t{0xff} << (8 * b);
    set(out, i.reg(0), fmt::format("kiln::rt::v_from_u64({}, {})", hex(value), op == "MOVID" ? "0" : hex(value)));
    return;
  }
  const size_t imm_at = modify ? 2 : 1;
  uint64_t lane = static_cast<uint64_t>(i.imm(imm_at));
  if (ends_with(op, "_ns")) { /* byte lanes, no shift */ }
  else if (s.suffix == "_msl" || op.find("msl") != std::string_view::npos) {
    const int64_t amount = i.imm(imm_at + 1) & 0x1f; // encoded as 264/272 in LLVM: low bits give 8 or 16
    const int shift = amount == 8 ? 8 : 16;
    lane = (lane << shift) | ((uint64_t{1} << shift) - 1);
  } else if (i.operands.size() > imm_at + 1) {
    lane <<= i.imm(imm_at + 1);
  }
  const std::string e = utype(s.bits);
  if (modify) {
    const char* how = starts_with(op, "ORR") ? "x | v_" : "x & ~v_";
    set(out, i.reg(0), fmt::format("kiln::rt::v_map1<{}, {}>({}, [](auto x) {{ const {} v_ = {}; return {}; }})", e, s.lanes, vreg(i.reg(1)), e, hex(lane), how));
  } else {
    set(out, i.reg(0), fmt::format("kiln::rt::v_dup<{}, {}>(({}){}{})", e, s.lanes, e, invert ? "~" : "", hex(lane)));
  }
}

/// LD1/ST1 of 1-4 consecutive registers ("LD1Twov16b", "_POST" adds writeback by immediate or register).
void structure(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const bool load = op[0] == 'L';
  const bool post = ends_with(op, "_POST");
  const bool q = op.find("v16b") != std::string_view::npos || op.find("v8h") != std::string_view::npos ||
                 op.find("v4s") != std::string_view::npos || op.find("v2d") != std::string_view::npos;
  const int count = op.find("One") != std::string_view::npos ? 1 : op.find("Two") != std::string_view::npos ? 2 : op.find("Three") != std::string_view::npos ? 3 : 4;
  const size_t first = post ? 1 : 0;
  const Register& list = i.reg(first);
  const std::string base = read(i.reg(first + 1));
  const int bytes = q ? 16 : 8;
  std::string code = fmt::format("{{ const uint64_t address = {}; ", base);
  for (int k = 0; k < count; ++k) {
    const int reg = (list.index + k) % 32;
    if (load) code += q ? fmt::format("v{} = kiln::rt::v_load(m, address + {}); ", reg, k * bytes)
                        : fmt::format("v{} = kiln::rt::v_from_u64(kiln::rt::load<uint64_t>(m, address + {})); ", reg, k * bytes);
    else code += q ? fmt::format("kiln::rt::v_store(m, address + {}, v{}); ", k * bytes, reg)
                   : fmt::format("kiln::rt::store<uint64_t>(m, address + {}, v{}.u64[0]); ", k * bytes, reg);
  }
  if (post) {
    const Register& step = i.reg(first + 2);
    code += write(i.reg(0), fmt::format("address + {}", step.is_zero() ? fmt::format("{}", count * bytes) : read(step))) + " ";
  }
  out.line(code + "}");
}

/// MLA/MLS/FMLA/FMLS (d, d, n, m) and the by-element FMLA/FMLS (d, d, n, m, index).
void accumulate(const Instruction& i, EmitTarget& out) {
  Shape s;
  parse(i.opcode, s);
  s.is_float = s.operation[0] == 'F'; // the by-element forms spell float lanes as v2i64/v4i32
  const std::string e = lane_type(s);
  const bool subtract = s.operation == "MLS" || s.operation == "FMLS";
  std::string m = vreg(i.reg(3));
  if (ends_with(i.opcode, "_indexed")) m = fmt::format("kiln::rt::v_dup<{}, {}>(kiln::rt::v_lane<{}>({}, {}))", e, s.lanes, e, m, i.imm(4));
  const std::string body = s.is_float ? (subtract ? "std::fma(-y, z, x)" : "std::fma(y, z, x)") : (subtract ? "x - y * z" : "x + y * z");
  set(out, i.reg(0), fmt::format("kiln::rt::v_map3<{}, {}>({}, {}, {}, [](auto x, auto y, auto z) {{ return {}({}); }})", e, s.lanes, vreg(i.reg(1)),
                                 vreg(i.reg(2)), m, e, body));
}

/// Long and wide forms named "<OP>v2i32_v2i64": SMULL/UMULL (d, n, m), SMLAL/UMLAL/SMLSL/UMLSL (d, d, n, m),
/// SADDW/UADDW/SSUBW/USUBW (d, n, m), SADDL/UADDL/SSUBL/USUBL (d, n, m). The "2" forms read the high halves.
void long_form(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  Shape s;
  parse(op.substr(0, op.find('_')), s);
  const bool high = s.full();
  const int lanes = 64 / s.bits;
  const bool sign = op[0] == 'S';
  const std::string narrow = sign ? stype(s.bits) : utype(s.bits), wide = sign ? stype(s.bits * 2) : utype(s.bits * 2);
  const std::string_view name = s.operation.substr(1); // MULL, MLAL, ADDW...
  std::string acc = "kiln::rt::V128{}", b, c, body;
  if (name == "MULL") { b = vreg(i.reg(1)); c = vreg(i.reg(2)); body = "y * z"; }
  else if (name == "MLAL" || name == "MLSL") { acc = vreg(i.reg(1)); b = vreg(i.reg(2)); c = vreg(i.reg(3)); body = name == "MLAL" ? "x + y * z" : "x - y * z"; }
  else if (name == "ADDW" || name == "SUBW") { acc = vreg(i.reg(1)); b = vreg(i.reg(2)); c = b; body = name == "ADDW" ? "x + y" : "x - y"; }
  else { b = vreg(i.reg(1)); c = vreg(i.reg(2)); body = name == "ADDL" ? "y + z" : "y - z"; }
  set(out, i.reg(0), fmt::format("kiln::rt::v_long<{}, {}, {}>({}, {}, {}, {}, [](auto x, auto y, auto z) {{ (void)x; (void)z; return {}; }})", narrow, wide,
                                 lanes, acc, b, c, high, body));
}

void fp_move_immediate(const Instruction& i, EmitTarget& out) { // FMOVv2f64_ns / v4f32_ns / v2f32_ns (d, imm8)
  Shape s;
  parse(i.opcode, s);
  const uint32_t imm8 = static_cast<uint32_t>(i.imm(1));
  const int exponent = static_cast<int>(((imm8 >> 4) & 7) ^ 4) - 3;
  double value = (16.0 + (imm8 & 15)) / 16.0 * std::ldexp(1.0, exponent);
  if (imm8 & 0x80) value = -value;
  set(out, i.reg(0), fmt::format("kiln::rt::v_dup<{}, {}>(({}){:.17g})", lane_type(s), s.lanes, lane_type(s), value));
}

void convert_vector(const Instruction& i, EmitTarget& out) { // SCVTF/UCVTF/FCVTZS/FCVTZU v2f64/v4f32/v2f32 (d, n)
  Shape s;
  parse(i.opcode, s);
  const std::string f = ftype(s.bits), u = utype(s.bits), sg = stype(s.bits);
  std::string body;
  if (s.operation == "SCVTF") body = fmt::format("kiln::rt::f{}_bits(({})({})x)", s.bits, f, sg);
  else if (s.operation == "UCVTF") body = fmt::format("kiln::rt::f{}_bits(({})x)", s.bits, f);
  else if (s.operation == "FCVTZS") body = fmt::format("({})kiln::rt::fp_to_int<{}>(std::trunc(kiln::rt::bits_to_f{}(x)))", u, sg, s.bits);
  else body = fmt::format("kiln::rt::fp_to_int<{}>(std::trunc(kiln::rt::bits_to_f{}(x)))", u, s.bits);
  set(out, i.reg(0), fmt::format("kiln::rt::v_map1<{}, {}>({}, [](auto x) {{ return {}; }})", u, s.lanes, vreg(i.reg(1)), body));
}

void fp_narrow(const Instruction& i, EmitTarget& out) { // FCVTNv2i32 (d, n) / FCVTNv4i32 (d, d, n): doubles to floats
  const bool high = i.opcode == "FCVTNv4i32";
  set(out, i.reg(0), fmt::format("kiln::rt::v_narrow<uint64_t, uint32_t, 2>({}, {}, {}, [](auto x) {{ return kiln::rt::f32_bits((float)kiln::rt::bits_to_f64(x)); }})",
                                 vreg(i.reg(high ? 1 : 0)), vreg(i.reg(high ? 2 : 1)), high));
}

void scalar_shift(const Instruction& i, EmitTarget& out) { // SHLd / USHRd / SSHRd (d, n, amount)
  const std::string_view op = i.opcode;
  const int64_t amount = i.imm(2);
  const std::string a = fmt::format("{}.u64[0]", vreg(i.reg(1)));
  std::string value;
  if (op == "SHLd") value = fmt::format("{} << {}", a, amount);
  else if (op == "USHRd") value = amount >= 64 ? "0" : fmt::format("{} >> {}", a, amount);
  else value = fmt::format("(uint64_t)((int64_t){} >> {})", a, std::min<int64_t>(amount, 63));
  set(out, i.reg(0), fmt::format("kiln::rt::v_from_u64({})", value));
}

void pairwise_scalar(const Instruction& i, EmitTarget& out) { // ADDPv2i64p (d, n)
  set(out, i.reg(0), fmt::format("kiln::rt::v_from_u64({0}.u64[0] + {0}.u64[1])", vreg(i.reg(1))));
}

/// LD1R: one element loaded and replicated to every lane ("LD1Rv2d" (list, n); "_POST" (n!, list, n, m)).
void load_replicate(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const bool post = ends_with(op, "_POST");
  const size_t first = post ? 1 : 0;
  const std::string_view arrangement = op.substr(4, op.find('_') == std::string_view::npos ? std::string_view::npos : op.find('_') - 4);
  const int bits = ends_with(arrangement, "b") ? 8 : ends_with(arrangement, "h") ? 16 : ends_with(arrangement, "s") ? 32 : 64;
  const int lanes = std::stoi(std::string(arrangement.substr(1, arrangement.size() - 2)));
  std::string code = fmt::format("{{ const uint64_t address = {}; v{} = kiln::rt::v_dup<{}, {}>(kiln::rt::load<{}>(m, address)); ", read(i.reg(first + 1)),
                                 i.reg(first).index, utype(bits), lanes, utype(bits));
  if (post) {
    const Register& step = i.reg(first + 2);
    code += write(i.reg(0), fmt::format("address + {}", step.is_zero() ? std::to_string(bits / 8) : read(step))) + " ";
  }
  out.line(code + "}");
}

} // namespace

void register_simd(Registry& r) {
  static std::vector<std::string> names;
  names.reserve(4096);
  auto add = [&](std::string name, Handler h) { names.push_back(std::move(name)); r[names.back()] = h; };
  const char* int_arrangements[] = {"v8i8", "v16i8", "v4i16", "v8i16", "v2i32", "v4i32", "v1i64", "v2i64"};
  const char* float_arrangements[] = {"v2f32", "v4f32", "v2f64"};
  for (const auto& [name, expr] : binary_ops()) {
    const bool is_float = name[0] == 'F';
    if (is_float) for (const char* a : float_arrangements) add(std::string(name) + a, lanewise);
    else for (const char* a : int_arrangements) add(std::string(name) + a, lanewise);
  }
  for (const auto& [name, expr] : pairwise_ops())
    for (const char* a : name[0] == 'F' ? std::vector<const char*>{"v2f32", "v4f32", "v2f64"} : std::vector<const char*>{"v8i8", "v16i8", "v4i16", "v8i16", "v2i32", "v4i32", "v2i64"})
      add(std::string(name) + a, lanewise);
  for (const auto& [name, expr] : zero_compare_ops())
    for (const char* a : int_arrangements) add(std::string(name) + a + "rz", lanewise);
  for (const auto& [name, expr] : reduce_ops())
    for (const char* a : {"v8i8", "v16i8", "v4i16", "v8i16", "v4i32"}) add(std::string(name) + a + "v", lanewise);
  for (const char* a : {"v8i8", "v16i8"}) { add(std::string("NOT") + a, lanewise); add(std::string("CNT") + a, lanewise); add(std::string("RBIT") + a, lanewise); }
  for (const char* a : int_arrangements) { add(std::string("NEG") + a, lanewise); add(std::string("ABS") + a, lanewise); }
  for (const char* a : float_arrangements) { add(std::string("FNEG") + a, lanewise); add(std::string("FABS") + a, lanewise); add(std::string("FSQRT") + a, lanewise); }
  for (const char* a : {"v8i8", "v16i8"}) for (const char* op : {"BSL", "BIT", "BIF"}) add(std::string(op) + a, bitwise_select);
  for (const char* a : int_arrangements) for (const char* op : {"SHL", "USHR", "SSHR", "USRA", "SSRA"}) add(std::string(op) + a + "_shift", shift_immediate);
  for (const char* a : {"v8i8", "v16i8", "v4i16", "v8i16", "v2i32", "v4i32"}) {
    add(std::string("SHRN") + a + "_shift", shift_immediate);
    add(std::string("USHLL") + a + "_shift", shift_immediate);
    add(std::string("SSHLL") + a + "_shift", shift_immediate);
    add(std::string("XTN") + a, narrow);
  }
  for (const char* a : {"v8i8", "v16i8", "v4i16", "v8i16", "v2i32", "v4i32", "v2i64"}) { add(std::string("DUP") + a + "gpr", duplicate); add(std::string("DUP") + a + "lane", duplicate); }
  for (const char* name : {"DUPi8", "DUPi16", "DUPi32", "DUPi64"}) add(name, duplicate_scalar);
  for (const char* bits : {"8", "16", "32", "64"}) { add(std::string("INSvi") + bits + "gpr", insert); add(std::string("INSvi") + bits + "lane", insert); add(std::string("UMOVvi") + bits, move_to_general); add(std::string("UMOVvi") + bits + "_idx0", move_to_general); }
  for (const char* name : {"SMOVvi8to32", "SMOVvi8to64", "SMOVvi16to32", "SMOVvi16to64", "SMOVvi32to64", "SMOVvi8to32_idx0", "SMOVvi16to32_idx0", "SMOVvi32to64_idx0"}) add(name, move_to_general);
  add("EXTv8i8", extract);
  add("EXTv16i8", extract);
  for (const char* a : {"v8i8", "v16i8", "v4i16", "v8i16", "v2i32", "v4i32"}) for (const char* op : {"REV64", "REV32", "REV16"}) add(std::string(op) + a, reverse);
  for (const char* a : {"v8i8", "v16i8", "v4i16", "v8i16", "v2i32", "v4i32", "v2i64"}) for (const char* op : {"UZP1", "UZP2", "ZIP1", "ZIP2", "TRN1", "TRN2"}) add(std::string(op) + a, permute);
  for (const char* count : {"One", "Two", "Three", "Four"}) for (const char* a : {"v8i8", "v16i8"}) add(std::string("TBL") + a + count, table);
  for (const char* name : {"MOVIv8b_ns", "MOVIv16b_ns", "MOVIv2i32", "MOVIv4i32", "MOVIv4i16", "MOVIv8i16", "MOVIv2d_ns", "MOVID", "MVNIv2i32",
                           "MVNIv4i32", "MVNIv4i16", "MVNIv8i16", "ORRv2i32", "ORRv4i32", "ORRv4i16", "ORRv8i16", "BICv2i32", "BICv4i32", "BICv4i16", "BICv8i16",
                           "MOVIv2s_msl", "MOVIv4s_msl", "MVNIv2s_msl", "MVNIv4s_msl"})
    add(name, move_immediate);
  for (const char* a : int_arrangements) for (const char* op : {"MLA", "MLS"}) add(std::string(op) + a, accumulate);
  for (const char* a : float_arrangements) for (const char* op : {"FMLA", "FMLS"}) add(std::string(op) + a, accumulate);
  for (const char* name : {"FMLAv2i32_indexed", "FMLAv4i32_indexed", "FMLAv2i64_indexed", "FMLSv2i32_indexed", "FMLSv4i32_indexed", "FMLSv2i64_indexed"}) add(name, accumulate);
  for (const char* op : {"SMULL", "UMULL", "SMLAL", "UMLAL", "SMLSL", "UMLSL", "SADDW", "UADDW", "SSUBW", "USUBW", "SADDL", "UADDL", "SSUBL", "USUBL"})
    for (const char* shapes : {"v8i8_v8i16", "v16i8_v8i16", "v4i16_v4i32", "v8i16_v4i32", "v2i32_v2i64", "v4i32_v2i64"}) add(std::string(op) + shapes, long_form);
  for (const char* name : {"FMOVv2f64_ns", "FMOVv4f32_ns", "FMOVv2f32_ns"}) add(name, fp_move_immediate);
  for (const char* op : {"SCVTF", "UCVTF", "FCVTZS", "FCVTZU"}) for (const char* a : float_arrangements) add(std::string(op) + a, convert_vector);
  add("FCVTNv2i32", fp_narrow);
  add("FCVTNv4i32", fp_narrow);
  for (const char* name : {"SHLd", "USHRd", "SSHRd"}) add(name, scalar_shift);
  add("ADDPv2i64p", pairwise_scalar);
  for (const char* a : {"v8b", "v16b", "v4h", "v8h", "v2s", "v4s", "v1d", "v2d"}) {
    add(std::string("LD1R") + a, load_replicate);
    add(std::string("LD1R") + a + "_POST", load_replicate);
  }
  for (const char* prefix : {"LD1", "ST1"})
    for (const char* count : {"One", "Two", "Three", "Four"})
      for (const char* a : {"v8b", "v16b", "v4h", "v8h", "v2s", "v4s", "v1d", "v2d"}) {
        add(std::string(prefix) + count + a, structure);
        add(std::string(prefix) + count + a + "_POST", structure);
      }
}

} // namespace kiln::a64::sem
