// Advanced SIMD (NEON): lane-wise arithmetic, compares, pairwise and across-lane reductions, permutes,
// moves between register files, immediates and LD1/ST1 structures. Lanes go through kiln::rt::neon (runtime/core/
// runtime/core/aarch64/neon.h, on SIMDe's NEON intrinsics); the few operations SIMDe does not compute as AArch64 does use the
// plain lane helpers of runtime/core/aarch64/ops.h (v_map1/v_map2 with the lane expressions below).
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

/// Lane kinds: the helper's lane type is unsigned (U), signed (S) or floating point (F).
enum class Kind { U, S, F };
/// An operation kiln::rt::neon implements: helper name, lane kind, and whether 64-bit lanes exist.
struct Neon {
  std::string_view helper;
  Kind kind;
  bool has_64 = false;
};
const std::map<std::string_view, Neon>& binary_neon() {
  static const std::map<std::string_view, Neon> ops = {
      {"ADD", {"add", Kind::U, true}}, {"SUB", {"sub", Kind::U, true}}, {"MUL", {"mul", Kind::U}},
      {"AND", {"bit_and", Kind::U}}, {"ORR", {"bit_or", Kind::U}}, {"EOR", {"bit_xor", Kind::U}},
      {"BIC", {"bit_clear", Kind::U}}, {"ORN", {"or_not", Kind::U}},
      {"CMEQ", {"equal", Kind::U, true}}, {"CMTST", {"test", Kind::U, true}}, {"CMHI", {"greater", Kind::U, true}},
      {"CMHS", {"greater_equal", Kind::U, true}}, {"CMGT", {"greater", Kind::S, true}}, {"CMGE", {"greater_equal", Kind::S, true}},
      {"UMAX", {"max", Kind::U}}, {"UMIN", {"min", Kind::U}}, {"SMAX", {"max", Kind::S}}, {"SMIN", {"min", Kind::S}},
      {"UABD", {"abd", Kind::U}}, {"SABD", {"abd", Kind::S}},
      {"SSHL", {"shl", Kind::S, true}}, {"USHL", {"shl", Kind::U, true}}, {"SRSHL", {"rounding_shl", Kind::S, true}},
      {"URSHL", {"rounding_shl", Kind::U, true}},
      {"SQADD", {"sat_add", Kind::S, true}}, {"UQADD", {"sat_add", Kind::U, true}}, {"SQSUB", {"sat_sub", Kind::S, true}},
      {"UQSUB", {"sat_sub", Kind::U, true}}, {"SHADD", {"halving_add", Kind::S}}, {"UHADD", {"halving_add", Kind::U}},
      {"SRHADD", {"rounding_halving_add", Kind::S}}, {"URHADD", {"rounding_halving_add", Kind::U}},
      {"FADD", {"fadd", Kind::F}}, {"FSUB", {"fsub", Kind::F}}, {"FMUL", {"fmul", Kind::F}}, {"FDIV", {"fdiv", Kind::F}},
  };
  return ops;
}
/// FP operations kept as plain lane expressions: SIMDe's vmax/vmin/vmaxnm/vminnm on x86 order +0/-0 by operand
/// position and return a signalling NaN unquieted, where AArch64 has max(-0, +0) = +0 and quiets; FABD is
/// FPAbs(FPSub) with AArch64's NaN rules (simple enough as a lane expression).
const std::map<std::string_view, std::string>& binary_plain_fp() {
  static const std::map<std::string_view, std::string> ops = {
      {"FMAX", "kiln::rt::fp_max(x, y)"}, {"FMIN", "kiln::rt::fp_min(x, y)"}, {"FMAXNM", "kiln::rt::fp_maxnm(x, y)"},
      {"FMINNM", "kiln::rt::fp_minnm(x, y)"}, {"FABD", "std::fabs(kiln::rt::fp_default_nan(x - y, x, y))"},
  };
  return ops;
}
const std::map<std::string_view, Neon>& pairwise_neon() {
  static const std::map<std::string_view, Neon> ops = {
      {"ADDP", {"pairwise_add", Kind::U, true}}, {"UMAXP", {"pairwise_max", Kind::U}}, {"UMINP", {"pairwise_min", Kind::U}},
      {"SMAXP", {"pairwise_max", Kind::S}}, {"SMINP", {"pairwise_min", Kind::S}}, {"FADDP", {"fpairwise_add", Kind::F}},
  };
  return ops;
}
/// FMAXP/FMINP: plain for the reason FMAX/FMIN are.
const std::map<std::string_view, std::string>& pairwise_plain_fp() {
  static const std::map<std::string_view, std::string> ops = {{"FMAXP", "kiln::rt::fp_max(x, y)"}, {"FMINP", "kiln::rt::fp_min(x, y)"}};
  return ops;
}
const std::map<std::string_view, Neon>& zero_compare_neon() {
  static const std::map<std::string_view, Neon> ops = {
      {"CMEQ", {"equal_zero", Kind::S, true}}, {"CMGE", {"greater_equal_zero", Kind::S, true}}, {"CMGT", {"greater_zero", Kind::S, true}},
      {"CMLE", {"less_equal_zero", Kind::S, true}}, {"CMLT", {"less_zero", Kind::S, true}},
  };
  return ops;
}
const std::map<std::string_view, Neon>& unary_neon() {
  static const std::map<std::string_view, Neon> ops = {
      {"NOT", {"bit_not", Kind::U}}, {"NEG", {"neg", Kind::S, true}}, {"ABS", {"abs", Kind::S, true}}, {"CNT", {"cnt", Kind::U}},
      {"RBIT", {"rbit", Kind::U}}, {"CLZ", {"clz", Kind::U}}, {"SQABS", {"sat_abs", Kind::S, true}}, {"SQNEG", {"sat_neg", Kind::S, true}},
      {"FNEG", {"neg", Kind::F}}, {"FABS", {"fabs", Kind::F}},
  };
  return ops;
}
/// FSQRT: SIMDe 0.7.4 has no vsqrtq; the lane's NaN is made AArch64's.
const std::map<std::string_view, std::string>& unary_plain_fp() {
  static const std::map<std::string_view, std::string> ops = {{"FSQRT", "kiln::rt::fp_default_nan(std::sqrt(x), x)"}};
  return ops;
}
const std::map<std::string_view, Neon>& reduce_neon() {
  static const std::map<std::string_view, Neon> ops = {
      {"ADDV", {"add_across", Kind::U}}, {"UMAXV", {"max_across", Kind::U}}, {"UMINV", {"min_across", Kind::U}},
      {"SMAXV", {"max_across", Kind::S}}, {"SMINV", {"min_across", Kind::S}},
  };
  return ops;
}

std::string neon_type(Kind kind, int bits) { return kind == Kind::F ? ftype(bits) : kind == Kind::S ? stype(bits) : utype(bits); }
std::string neon_call(const Neon& op, const Shape& s, const std::string& arguments) {
  return fmt::format("kiln::rt::neon::{}<{}, {}>({})", op.helper, neon_type(op.kind, s.bits), s.lanes, arguments);
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
  const std::string a = vreg(i.reg(1));
  if (s.suffix == "rz") return set(out, i.reg(0), neon_call(zero_compare_neon().at(s.operation), s, a));
  if (auto p = pairwise_neon().find(s.operation); p != pairwise_neon().end())
    return set(out, i.reg(0), neon_call(p->second, s, a + ", " + vreg(i.reg(2))));
  if (auto p = pairwise_plain_fp().find(s.operation); p != pairwise_plain_fp().end())
    return set(out, i.reg(0), fmt::format("kiln::rt::v_pairwise<{}, {}>({}, {}, {})", e, s.lanes, a, vreg(i.reg(2)), lambda2(s, p->second)));
  if (auto r = reduce_neon().find(s.operation); r != reduce_neon().end()) return set(out, i.reg(0), neon_call(r->second, s, a));
  if (i.operands.size() == 2) {
    if (auto u = unary_neon().find(s.operation); u != unary_neon().end()) return set(out, i.reg(0), neon_call(u->second, s, a));
    if (auto u = unary_plain_fp().find(s.operation); u != unary_plain_fp().end())
      return set(out, i.reg(0), fmt::format("kiln::rt::v_map1<{}, {}>({}, {})", e, s.lanes, a, lambda1(s, u->second)));
  }
  if (auto b = binary_neon().find(s.operation); b != binary_neon().end())
    return set(out, i.reg(0), neon_call(b->second, s, a + ", " + vreg(i.reg(2))));
  set(out, i.reg(0), fmt::format("kiln::rt::v_map2<{}, {}>({}, {}, {})", e, s.lanes, a, vreg(i.reg(2)), lambda2(s, binary_plain_fp().at(s.operation))));
}

void bitwise_select(const Instruction& i, EmitTarget& out) {
  // (d, d, n, m), all one bitwise select (mask & a) | (~mask & b): BSL mask d; BIT mask m picks n over d;
  // BIF mask m picks d over n.
  Shape s;
  parse(i.opcode, s);
  const std::string d = vreg(i.reg(1)), n = vreg(i.reg(2)), m = vreg(i.reg(3));
  const std::string arguments = s.operation == "BSL" ? d + ", " + n + ", " + m : s.operation == "BIT" ? m + ", " + n + ", " + d : m + ", " + d + ", " + n;
  set(out, i.reg(0), fmt::format("kiln::rt::neon::select<{}>({})", s.lanes, arguments));
}

/// Immediate shifts. The amounts SIMDe's intrinsics do not take (a right shift by the lane width) are reduced
/// here to what they mean: USHR #bits is 0, SSHR #bits equals SSHR #bits-1, URSHR #bits is the top bit
/// (USHR #bits-1), SRSHR #bits is 0, USRA #bits adds nothing.
void shift_immediate(const Instruction& i, EmitTarget& out) {
  Shape s;
  parse(i.opcode, s);
  const std::string u = utype(s.bits), sg = stype(s.bits);
  const int64_t amount = i.imm(2);
  const std::string a = vreg(i.reg(1));
  const std::string_view op = s.operation;
  auto shift = [&](const char* helper, const std::string& e, int64_t n, const std::string& arguments) {
    set(out, i.reg(0), fmt::format("kiln::rt::neon::{}<{}, {}, {}>({})", helper, e, s.lanes, n, arguments));
  };
  const std::string zero = "kiln::rt::V128{}";
  if (op == "SHL") shift("shl_n", u, amount, a);
  else if (op == "USHR") amount >= s.bits ? set(out, i.reg(0), zero) : shift("shr_n", u, amount, a);
  else if (op == "SSHR") shift("shr_n", sg, std::min<int64_t>(amount, s.bits - 1), a);
  else if (op == "URSHR") amount >= s.bits ? shift("shr_n", u, s.bits - 1, a) : shift("rounding_shr_n", u, amount, a);
  else if (op == "SRSHR") amount >= s.bits ? set(out, i.reg(0), zero) : shift("rounding_shr_n", sg, amount, a);
  else if (op == "USRA" || op == "SSRA") { // (d, d, n, amount): d += n >> amount, lane by lane
    const int64_t n = i.imm(3);
    const std::string arguments = vreg(i.reg(1)) + ", " + vreg(i.reg(2));
    if (op == "USRA" && n >= s.bits) set(out, i.reg(0), fmt::format("kiln::rt::v_half({}, {})", vreg(i.reg(1)), s.full()));
    else shift("sra_n", op == "USRA" ? u : sg, op == "USRA" ? n : std::min<int64_t>(n, s.bits - 1), arguments);
  } else if (op == "SHRN") { // narrow: arrangement names the narrow result
    const bool high = s.full();
    set(out, i.reg(0), fmt::format("kiln::rt::neon::shr_narrow_n<{}, {}>({}, {}, {})", utype(s.bits * 2), i.imm(high ? 3 : 2),
                                   vreg(i.reg(high ? 1 : 0)), vreg(i.reg(high ? 2 : 1)), high));
  } else if (op == "USHLL" || op == "SSHLL") { // widen: arrangement names the narrow source
    set(out, i.reg(0), fmt::format("kiln::rt::neon::shl_long_n<{}, {}>({}, {})", op == "USHLL" ? u : sg, amount, a, s.full()));
  }
}

/// XTN/SQXTN/UQXTN/SQXTUN (d, n) and their "2" forms (d, d, n): the arrangement names the narrow result.
void narrow(const Instruction& i, EmitTarget& out) {
  Shape s;
  parse(i.opcode, s);
  const bool high = s.full();
  const std::string_view op = s.operation;
  const char* helper = op == "XTN" ? "extract_narrow" : op == "SQXTUN" ? "sat_narrow_unsigned" : "sat_narrow";
  const std::string wide = op == "UQXTN" || op == "XTN" ? utype(s.bits * 2) : stype(s.bits * 2);
  set(out, i.reg(0), fmt::format("kiln::rt::neon::{}<{}>({}, {}, {})", helper, wide, vreg(i.reg(high ? 1 : 0)), vreg(i.reg(high ? 2 : 1)), high));
}

void duplicate(const Instruction& i, EmitTarget& out) {
  Shape s;
  parse(i.opcode, s);
  const std::string e = utype(s.bits);
  if (s.suffix == "gpr") set(out, i.reg(0), fmt::format("kiln::rt::neon::dup<{}, {}>(({}){})", e, s.lanes, e, read(i.reg(1))));
  else set(out, i.reg(0), fmt::format("kiln::rt::neon::dup<{}, {}>(kiln::rt::v_lane<{}>({}, {}))", e, s.lanes, e, vreg(i.reg(1)), i.imm(2)));
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
  set(out, i.reg(0), fmt::format("kiln::rt::neon::ext_n<uint8_t, {}, {}>({}, {})", s.lanes, i.imm(3), vreg(i.reg(1)), vreg(i.reg(2))));
}

void reverse(const Instruction& i, EmitTarget& out) { // REV16/REV32/REV64 v<arr>: reverse lanes inside each container
  Shape s;
  parse(i.opcode, s);
  std::string helper(s.operation);
  for (char& c : helper) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  set(out, i.reg(0), fmt::format("kiln::rt::neon::{}<{}, {}>({})", helper, utype(s.bits), s.lanes, vreg(i.reg(1))));
}

void permute(const Instruction& i, EmitTarget& out) { // UZP1/2 ZIP1/2 TRN1/2 (d, n, m)
  Shape s;
  parse(i.opcode, s);
  std::string helper(s.operation);
  for (char& c : helper) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  set(out, i.reg(0), fmt::format("kiln::rt::neon::{}<{}, {}>({}, {})", helper, utype(s.bits), s.lanes, vreg(i.reg(1)), vreg(i.reg(2))));
}

/// TBL (d, list, idx) / TBX (d, d, list, idx) with 1-4 table registers ("TBLv16i8One", "TBXv8i8Two"...).
void table(const Instruction& i, EmitTarget& out) {
  Shape s;
  parse(i.opcode, s);
  const bool extend = s.operation == "TBX";
  const Register& list = i.reg(extend ? 2 : 1);
  const int count = list.kind == RegKind::vlist ? list.count : 1;
  std::string registers;
  for (int k = 0; k < count; ++k) registers += fmt::format("{}v{}", k ? ", " : "", (list.index + k) % 32);
  const std::string indices = vreg(i.reg(extend ? 3 : 2));
  const std::string call = extend ? fmt::format("kiln::rt::neon::table_extend<{}, {}>({}, table_, {})", count, s.lanes, vreg(i.reg(1)), indices)
                                  : fmt::format("kiln::rt::neon::table<{}, {}>(table_, {})", count, s.lanes, indices);
  out.line(fmt::format("{{ const kiln::rt::V128 table_[] = {{{}}}; {} = {}; }}", registers, vreg(i.reg(0)), call));
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
    set(out, i.reg(0), fmt::format("kiln::rt::neon::{}<{}, {}>({}, kiln::rt::neon::dup<{}, {}>(({}){}))", starts_with(op, "ORR") ? "bit_or" : "bit_clear", e,
                                   s.lanes, vreg(i.reg(1)), e, s.lanes, e, hex(lane)));
  } else {
    set(out, i.reg(0), fmt::format("kiln::rt::neon::dup<{}, {}>(({}){}{})", e, s.lanes, e, invert ? "~" : "", hex(lane)));
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
  if (ends_with(i.opcode, "_indexed")) m = fmt::format("kiln::rt::neon::dup<{}, {}>(kiln::rt::v_lane<{}>({}, {}))", e, s.lanes, e, m, i.imm(4));
  const std::string arguments = fmt::format("{}, {}, {}", vreg(i.reg(1)), vreg(i.reg(2)), m);
  if (s.is_float) set(out, i.reg(0), fmt::format("kiln::rt::neon::fused_mla<{}, {}>({}, {})", e, s.lanes, arguments, subtract));
  else set(out, i.reg(0), fmt::format("kiln::rt::neon::{}<{}, {}>({})", subtract ? "mls" : "mla", e, s.lanes, arguments));
}

/// Long and wide forms named "<OP>v2i32_v2i64": SMULL/UMULL (d, n, m), SMLAL/UMLAL/SMLSL/UMLSL (d, d, n, m),
/// SADDW/UADDW/SSUBW/USUBW (d, n, m), SADDL/UADDL/SSUBL/USUBL (d, n, m). The "2" forms read the high halves.
void long_form(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  Shape s;
  parse(op.substr(0, op.find('_')), s);
  const bool high = s.full();
  const std::string narrow = op[0] == 'S' ? stype(s.bits) : utype(s.bits);
  const std::string_view name = s.operation.substr(1); // MULL, MLAL, ADDW...
  static const std::map<std::string_view, const char*> helpers = {{"MULL", "mul_long"}, {"MLAL", "mla_long"}, {"MLSL", "mls_long"}, {"ADDW", "add_wide"},
                                                                  {"SUBW", "sub_wide"}, {"ADDL", "add_long"}, {"SUBL", "sub_long"}};
  std::string arguments;
  for (size_t k = 1; k < i.operands.size(); ++k) arguments += vreg(i.reg(k)) + ", ";
  set(out, i.reg(0), fmt::format("kiln::rt::neon::{}<{}>({}{})", helpers.at(name), narrow, arguments, high));
}

void fp_move_immediate(const Instruction& i, EmitTarget& out) { // FMOVv2f64_ns / v4f32_ns / v2f32_ns (d, imm8)
  Shape s;
  parse(i.opcode, s);
  const uint32_t imm8 = static_cast<uint32_t>(i.imm(1));
  const int exponent = static_cast<int>(((imm8 >> 4) & 7) ^ 4) - 3;
  double value = (16.0 + (imm8 & 15)) / 16.0 * std::ldexp(1.0, exponent);
  if (imm8 & 0x80) value = -value;
  set(out, i.reg(0), fmt::format("kiln::rt::neon::dup<{}, {}>(({}){:.17g})", lane_type(s), s.lanes, lane_type(s), value));
}

/// SCVTF/UCVTF/FCVTZS/FCVTZU v2f64/v4f32/v2f32 (d, n). FCVTZU stays a plain lane loop: SIMDe 0.7.4's SSE2
/// vcvtq_u32_f32 gives 0x80000000 for [2^31, 2^32) and vcvtq_u64_f64 gives 2^63 for [2^63, 2^64).
void convert_vector(const Instruction& i, EmitTarget& out) {
  Shape s;
  parse(i.opcode, s);
  const std::string f = ftype(s.bits), u = utype(s.bits), sg = stype(s.bits);
  const std::string a = vreg(i.reg(1));
  if (s.operation == "SCVTF") set(out, i.reg(0), fmt::format("kiln::rt::neon::to_float<{}, {}>({})", sg, s.lanes, a));
  else if (s.operation == "UCVTF") set(out, i.reg(0), fmt::format("kiln::rt::neon::to_float<{}, {}>({})", u, s.lanes, a));
  else if (s.operation == "FCVTZS") set(out, i.reg(0), fmt::format("kiln::rt::neon::to_signed<{}, {}>({})", f, s.lanes, a));
  else
    set(out, i.reg(0), fmt::format("kiln::rt::v_map1<{}, {}>({}, [](auto x) {{ return kiln::rt::fp_to_int<{}>(std::trunc(kiln::rt::bits_to_f{}(x))); }})", u,
                                   s.lanes, a, u, s.bits));
}

void fp_narrow(const Instruction& i, EmitTarget& out) { // FCVTNv2i32 (d, n) / FCVTNv4i32 (d, d, n): doubles to floats
  const bool high = i.opcode == "FCVTNv4i32";
  set(out, i.reg(0), fmt::format("kiln::rt::neon::narrow_double({}, {}, {})", vreg(i.reg(high ? 1 : 0)), vreg(i.reg(high ? 2 : 1)), high));
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
  const char* bhs_arrangements[] = {"v8i8", "v16i8", "v4i16", "v8i16", "v2i32", "v4i32"};
  const char* bytes[] = {"v8i8", "v16i8"};
  auto add_neon = [&](const std::map<std::string_view, Neon>& ops, const char* suffix, bool vector_64 = true) {
    for (const auto& [name, op] : ops) {
      if (op.kind == Kind::F) { for (const char* a : float_arrangements) add(std::string(name) + a + suffix, lanewise); continue; }
      for (const char* a : bhs_arrangements) add(std::string(name) + a + suffix, lanewise);
      if (op.has_64) { add(std::string(name) + "v2i64" + suffix, lanewise); if (vector_64) add(std::string(name) + "v1i64" + suffix, lanewise); }
    }
  };
  add_neon(binary_neon(), "");
  for (const auto& [name, expr] : binary_plain_fp()) for (const char* a : float_arrangements) add(std::string(name) + a, lanewise);
  add_neon(pairwise_neon(), "", false);
  for (const auto& [name, expr] : pairwise_plain_fp()) for (const char* a : float_arrangements) add(std::string(name) + a, lanewise);
  add_neon(zero_compare_neon(), "rz");
  for (const auto& [name, op] : reduce_neon()) for (const char* a : {"v8i8", "v16i8", "v4i16", "v8i16", "v4i32"}) add(std::string(name) + a + "v", lanewise);
  for (const auto& [name, op] : unary_neon()) {
    if (op.kind == Kind::F) for (const char* a : float_arrangements) add(std::string(name) + a, lanewise);
    else if (name == "NOT" || name == "CNT" || name == "RBIT") for (const char* a : bytes) add(std::string(name) + a, lanewise);
    else {
      for (const char* a : bhs_arrangements) add(std::string(name) + a, lanewise);
      if (op.has_64) { add(std::string(name) + "v2i64", lanewise); add(std::string(name) + "v1i64", lanewise); }
    }
  }
  for (const auto& [name, expr] : unary_plain_fp()) for (const char* a : float_arrangements) add(std::string(name) + a, lanewise);
  for (const char* a : bytes) for (const char* op : {"BSL", "BIT", "BIF"}) add(std::string(op) + a, bitwise_select);
  for (const char* a : int_arrangements) for (const char* op : {"SHL", "USHR", "SSHR", "USRA", "SSRA", "URSHR", "SRSHR"}) add(std::string(op) + a + "_shift", shift_immediate);
  for (const char* a : {"v8i8", "v16i8", "v4i16", "v8i16", "v2i32", "v4i32"}) {
    add(std::string("SHRN") + a + "_shift", shift_immediate);
    add(std::string("USHLL") + a + "_shift", shift_immediate);
    add(std::string("SSHLL") + a + "_shift", shift_immediate);
    for (const char* op : {"XTN", "SQXTN", "UQXTN", "SQXTUN"}) add(std::string(op) + a, narrow);
  }
  for (const char* a : {"v8i8", "v16i8", "v4i16", "v8i16", "v2i32", "v4i32", "v2i64"}) { add(std::string("DUP") + a + "gpr", duplicate); add(std::string("DUP") + a + "lane", duplicate); }
  for (const char* name : {"DUPi8", "DUPi16", "DUPi32", "DUPi64"}) add(name, duplicate_scalar);
  for (const char* bits : {"8", "16", "32", "64"}) { add(std::string("INSvi") + bits + "gpr", insert); add(std::string("INSvi") + bits + "lane", insert); add(std::string("UMOVvi") + bits, move_to_general); add(std::string("UMOVvi") + bits + "_idx0", move_to_general); }
  for (const char* name : {"SMOVvi8to32", "SMOVvi8to64", "SMOVvi16to32", "SMOVvi16to64", "SMOVvi32to64", "SMOVvi8to32_idx0", "SMOVvi16to32_idx0", "SMOVvi32to64_idx0"}) add(name, move_to_general);
  add("EXTv8i8", extract);
  add("EXTv16i8", extract);
  for (const char* a : bhs_arrangements) add(std::string("REV64") + a, reverse);
  for (const char* a : {"v8i8", "v16i8", "v4i16", "v8i16"}) add(std::string("REV32") + a, reverse);
  for (const char* a : bytes) add(std::string("REV16") + a, reverse);
  for (const char* a : {"v8i8", "v16i8", "v4i16", "v8i16", "v2i32", "v4i32", "v2i64"}) for (const char* op : {"UZP1", "UZP2", "ZIP1", "ZIP2", "TRN1", "TRN2"}) add(std::string(op) + a, permute);
  for (const char* count : {"One", "Two", "Three", "Four"}) for (const char* a : bytes) { add(std::string("TBL") + a + count, table); add(std::string("TBX") + a + count, table); }
  for (const char* name : {"MOVIv8b_ns", "MOVIv16b_ns", "MOVIv2i32", "MOVIv4i32", "MOVIv4i16", "MOVIv8i16", "MOVIv2d_ns", "MOVID", "MVNIv2i32",
                           "MVNIv4i32", "MVNIv4i16", "MVNIv8i16", "ORRv2i32", "ORRv4i32", "ORRv4i16", "ORRv8i16", "BICv2i32", "BICv4i32", "BICv4i16", "BICv8i16",
                           "MOVIv2s_msl", "MOVIv4s_msl", "MVNIv2s_msl", "MVNIv4s_msl"})
    add(name, move_immediate);
  for (const char* a : bhs_arrangements) for (const char* op : {"MLA", "MLS"}) add(std::string(op) + a, accumulate);
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
