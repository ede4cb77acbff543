// Loads and stores: every addressing mode (unsigned offset, unscaled, pre/post-index, register offset with
// extend/shift, literal), pairs, acquire/release, exclusives and LSE atomics.
#include <array>
#include <string>
#include <vector>

#include "recompiler/isa/aarch64/semantics/handlers.h"

namespace kiln::a64::sem {
namespace {

struct Access {
  unsigned size = 8;      ///< bytes
  bool sign = false;      ///< sign-extending load
  bool vector = false;    ///< SIMD&FP register
};

/// The data type code in an opcode name after the LDR/STR/LDUR/STUR prefix.
bool parse_type(std::string_view code, Access& a) {
  static const std::array<std::pair<std::string_view, Access>, 14> types = {{
      {"X", {8, false, false}},  {"W", {4, false, false}},  {"BB", {1, false, false}}, {"HH", {2, false, false}},
      {"SBW", {1, true, false}}, {"SBX", {1, true, false}}, {"SHW", {2, true, false}}, {"SHX", {2, true, false}},
      {"SW", {4, true, false}},  {"Q", {16, false, true}},  {"D", {8, false, true}},   {"S", {4, false, true}},
      {"H", {2, false, true}},   {"B", {1, false, true}},
  }};
  for (const auto& [name, access] : types)
    if (code == name) { a = access; return true; }
  return false;
}

const char* utype(unsigned size) { return size == 1 ? "uint8_t" : size == 2 ? "uint16_t" : size == 4 ? "uint32_t" : "uint64_t"; }
const char* stype(unsigned size) { return size == 1 ? "int8_t" : size == 2 ? "int16_t" : size == 4 ? "int32_t" : "int64_t"; }
unsigned log2(unsigned size) { return size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : 4; }

/// Statement loading `a.size` bytes at C++ expression `address` into register `t`.
std::string load_into(const Register& t, const Access& a, const std::string& address) {
  if (a.vector) {
    if (a.size == 16) return fmt::format("{} = kiln::rt::v_load(m, {});", vreg(t), address);
    return fmt::format("{} = kiln::rt::v_from_u64(kiln::rt::load<{}>(m, {}));", vreg(t), utype(a.size), address);
  }
  std::string value = fmt::format("kiln::rt::load<{}>(m, {})", utype(a.size), address);
  if (a.sign) value = fmt::format("(uint64_t)(int64_t)({})({})", stype(a.size), value);
  return write(t, value);
}
std::string store_from(const Register& t, const Access& a, const std::string& address) {
  if (a.vector) {
    if (a.size == 16) return fmt::format("kiln::rt::v_store(m, {}, {});", address, vreg(t));
    const char* lane = a.size == 8 ? "u64" : a.size == 4 ? "u32" : a.size == 2 ? "u16" : "u8";
    return fmt::format("kiln::rt::store<{}>(m, {}, {}.{}[0]);", utype(a.size), address, vreg(t), lane);
  }
  return fmt::format("kiln::rt::store<{}>(m, {}, ({}){});", utype(a.size), address, utype(a.size), read(t));
}

void single(const Instruction& i, EmitTarget& out) {
  std::string_view op = i.opcode;
  const bool load = op[0] == 'L';
  const bool unscaled = starts_with(op, "LDUR") || starts_with(op, "STUR");
  op.remove_prefix(unscaled ? 4 : 3);
  std::string_view form;
  for (std::string_view suffix : {"ui", "pre", "post", "roW", "roX", "l", "i"})
    if (ends_with(op, suffix)) { form = suffix; break; }
  Access a;
  parse_type(op.substr(0, op.size() - form.size()), a);
  auto access = [&](const Register& t, const std::string& address) { return load ? load_into(t, a, address) : store_from(t, a, address); };
  if (form == "ui") {
    out.line(access(i.reg(0), fmt::format("{} + {}", read(i.reg(1)), hex(static_cast<uint64_t>(i.imm(2)) * a.size))));
  } else if (form == "i") {
    out.line(access(i.reg(0), fmt::format("{} + {}", read(i.reg(1)), hex(static_cast<uint64_t>(i.imm(2))))));
  } else if (form == "l") {
    out.line(access(i.reg(0), hex(i.address + static_cast<uint64_t>(i.imm(1)) * 4)));
  } else if (form == "pre" || form == "post") {
    const std::string base = read(i.reg(2)), offset = hex(static_cast<uint64_t>(i.imm(3)));
    const std::string address = form == "pre" ? fmt::format("{} + {}", base, offset) : base;
    out.line(fmt::format("{{ const uint64_t address = {}; {} {} }}", address, access(i.reg(1), "address"),
                         write(i.reg(0), fmt::format("{} + {}", base, offset))));
  } else { // roW / roX: (t, n, m, signed extend, shifted)
    const bool sign = i.imm(3) != 0, shift = i.imm(4) != 0;
    std::string index = read(i.reg(2));
    if (form == "roW") index = sign ? fmt::format("(uint64_t)(int64_t)(int32_t){}", index) : fmt::format("(uint64_t){}", index);
    if (shift && log2(a.size)) index = fmt::format("({} << {})", index, log2(a.size));
    out.line(access(i.reg(0), fmt::format("{} + {}", read(i.reg(1)), index)));
  }
}

void pair(const Instruction& i, EmitTarget& out) {
  std::string_view op = i.opcode; // LDP<type><form> / STP / LDNP / STNP
  const bool load = op[0] == 'L';
  op.remove_prefix(op[2] == 'N' ? 4 : 3);
  std::string_view form = ends_with(op, "pre") ? "pre" : ends_with(op, "post") ? "post" : "i";
  Access a;
  const std::string_view type = op.substr(0, op.size() - form.size());
  parse_type(type == "SW" ? "SW" : type, a);
  const bool writeback = form != "i";
  const size_t first = writeback ? 1 : 0;
  const Register& t1 = i.reg(first);
  const Register& t2 = i.reg(first + 1);
  const std::string base = read(i.reg(first + 2));
  const std::string offset = hex(static_cast<uint64_t>(i.imm(first + 3)) * a.size);
  const std::string address = form == "post" ? base : fmt::format("{} + {}", base, offset);
  auto access = [&](const Register& t, const std::string& at) { return load ? load_into(t, a, at) : store_from(t, a, at); };
  std::string code = fmt::format("{{ const uint64_t address = {}; ", address);
  if (load) { // both loads read memory before either register changes (t1 may be the base)
    code += fmt::format("{} {} ", access(t2, fmt::format("address + {}", a.size)), access(t1, "address"));
  } else {
    code += fmt::format("{} {} ", access(t1, "address"), access(t2, fmt::format("address + {}", a.size)));
  }
  if (writeback) code += write(i.reg(0), fmt::format("{} + {}", base, offset)) + " ";
  out.line(code + "}");
}

/// Size from the last letter of an exclusive/atomic opcode (B, H, W, X).
unsigned size_suffix(std::string_view op) { const char c = op.back(); return c == 'B' ? 1 : c == 'H' ? 2 : c == 'W' ? 4 : 8; }

void acquire_release(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode; // LDAR* / LDAPR* / STLR* (t, n) with a size suffix
  const Access a{size_suffix(op), false, false};
  const std::string address = read(i.reg(1));
  out.line(op[0] == 'L' ? load_into(i.reg(0), a, address) : store_from(i.reg(0), a, address));
}

void exclusive(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const bool pair_form = op.find("XP") != std::string_view::npos;
  const unsigned size = pair_form ? (op.back() == 'W' ? 4 : 8) : size_suffix(op);
  const Access a{size, false, false};
  if (op[0] == 'L') { // LDXR/LDAXR (t, n); LDXP/LDAXP (t1, t2, n)
    const std::string address = read(i.reg(pair_form ? 2 : 1));
    std::string code = fmt::format("{{ const uint64_t address = {}; c->exclusive_address = address; ", address);
    if (pair_form) code += load_into(i.reg(1), a, fmt::format("address + {}", size)) + " ";
    code += load_into(i.reg(0), a, "address") + " }";
    out.line(code);
  } else { // STXR/STLXR (s, t, n); STXP/STLXP (s, t1, t2, n)
    const std::string address = read(i.reg(pair_form ? 3 : 2));
    std::string stores = store_from(i.reg(1), a, "address");
    if (pair_form) stores += " " + store_from(i.reg(2), a, fmt::format("address + {}", size));
    out.line(fmt::format("{{ const uint64_t address = {}; const bool ok = c->exclusive_address == address; if (ok) {{ {} }} {} "
                         "c->exclusive_address = ~0ull; }}",
                         address, stores, write(i.reg(0), "ok ? 0u : 1u")));
  }
}

/// The general registers of an LSE atomic by role, from the encoding's fields (Rs 20:16, Rn 9:5, Rt 4:0): LLVM
/// MC orders them differently per class (LD<op>/SWP: Rt, Rs, Rn; CAS: Rs out, Rs, Rt, Rn) and names CASP's
/// register pairs as tuples, while the printed text puts Rs first everywhere.
struct AtomicRegisters {
  Register s, t, n;
};
AtomicRegisters atomic_registers(const Instruction& i, bool x_registers) {
  auto general = [&](unsigned index) {
    if (index == 31) return Register{x_registers ? RegKind::xzr : RegKind::wzr, 31};
    return Register{x_registers ? RegKind::x : RegKind::w, static_cast<uint8_t>(index)};
  };
  const unsigned n = (i.encoding >> 5) & 31;
  return {general((i.encoding >> 16) & 31), general(i.encoding & 31), n == 31 ? Register{RegKind::sp, 31} : Register{RegKind::x, static_cast<uint8_t>(n)}};
}
/// The second register of a CASP pair (Rs+1, Rt+1; the pair of X30 is X30, XZR).
Register pair_second(const Register& first) {
  if (first.index >= 30) return Register{first.is_64() ? RegKind::xzr : RegKind::wzr, 31};
  return Register{first.kind, static_cast<uint8_t>(first.index + 1)};
}

/// CASP Rs, Rs+1, Rt, Rt+1, [Rn]: both halves compared, both stored, Rs/Rs+1 receive the old values.
void compare_and_swap_pair(const Instruction& i, EmitTarget& out) {
  const unsigned size = size_suffix(i.opcode);
  const char* t = utype(size);
  const AtomicRegisters r = atomic_registers(i, size == 8);
  const Register s2 = pair_second(r.s), t2 = pair_second(r.t);
  out.line(fmt::format("{{ const uint64_t address = {}; const {} compare0 = ({}){}, compare1 = ({}){}, value0 = ({}){}, value1 = ({}){}; "
                       "const {} old0 = kiln::rt::load<{}>(m, address), old1 = kiln::rt::load<{}>(m, address + {}); "
                       "if (old0 == compare0 && old1 == compare1) {{ kiln::rt::store<{}>(m, address, value0); "
                       "kiln::rt::store<{}>(m, address + {}, value1); }} {} {} }}",
                       read(r.n), t, t, read(r.s), t, read(s2), t, read(r.t), t, read(t2), t, t, t, size, t, t, size,
                       write(r.s, "old0"), write(s2, "old1")));
}

void atomic(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const unsigned size = size_suffix(op);
  const char* t = utype(size);
  const AtomicRegisters r = atomic_registers(i, size == 8);
  if (starts_with(op, "CAS")) { // Rs = old; memory = Rt when old == Rs
    out.line(fmt::format("{{ const uint64_t address = {}; const {} compare = ({}){}, value = ({}){}; "
                         "const {} old = kiln::rt::load<{}>(m, address); if (old == compare) kiln::rt::store<{}>(m, address, value); {} }}",
                         read(r.n), t, t, read(r.s), t, read(r.t), t, t, t, write(r.s, "old")));
    return;
  }
  // LD<op>/SWP (ST<op> is LD<op> with Rt = XZR): Rt = old; memory = old <op> Rs
  const std::string s = "source";
  std::string value;
  if (starts_with(op, "SWP")) value = s;
  else if (starts_with(op, "LDADD")) value = fmt::format("old + {}", s);
  else if (starts_with(op, "LDCLR")) value = fmt::format("old & ~{}", s);
  else if (starts_with(op, "LDEOR")) value = fmt::format("old ^ {}", s);
  else if (starts_with(op, "LDSET")) value = fmt::format("old | {}", s);
  else if (starts_with(op, "LDSMAX")) value = fmt::format("({})std::max(({})old, ({}){})", t, stype(size), stype(size), s);
  else if (starts_with(op, "LDSMIN")) value = fmt::format("({})std::min(({})old, ({}){})", t, stype(size), stype(size), s);
  else if (starts_with(op, "LDUMAX")) value = fmt::format("std::max(old, {})", s);
  else if (starts_with(op, "LDUMIN")) value = fmt::format("std::min(old, {})", s);
  out.line(fmt::format("{{ const uint64_t address = {}; const {} source = ({}){}; const {} old = kiln::rt::load<{}>(m, address); "
                       "kiln::rt::store<{}>(m, address, ({})({})); {} }}",
                       read(r.n), t, t, read(r.s), t, t, t, t, value, write(r.t, "old")));
}

/// The parts of an AdvSIMD structure load/store: registers Vt..Vt+n-1 (wrapping at 31), base, post-index step.
struct Structure {
  bool load = false, post = false;
  int count = 1;      ///< n of LDn/STn
  int bits = 8;       ///< element size
  int lanes = 16;     ///< elements per register (arrangement forms)
  unsigned first = 0; ///< Vt
  int64_t index = 0;  ///< lane (single-structure forms)
  std::string base;   ///< Rn, read before anything is written
  std::string writeback; ///< statement advancing Rn by `step_bytes` or Xm; empty without post-index
};

/// Operands as LLVM MC gives them: [Rn!] Vt-list [Vt-list (tied)] [#index] Rn [Xm (XZR: immediate form)].
Structure parse_structure(const Instruction& i, int step_bytes) {
  Structure s;
  const std::string_view op = i.opcode;
  s.load = op[0] == 'L';
  s.post = ends_with(op, "_POST");
  s.count = op[2] - '0';
  auto is_list = [&](size_t at) {
    return i.operands[at].kind == Operand::Kind::reg && (i.reg(at).is_vector() || i.reg(at).kind == RegKind::vlist);
  };
  size_t at = 0;
  while (!is_list(at)) ++at; // past the written-back base of post-indexed forms
  s.first = i.reg(at).index;
  while (is_list(at)) ++at;  // loads name the list twice (result and tied input)
  if (i.operands[at].kind == Operand::Kind::imm) s.index = i.imm(at++);
  s.base = read(i.reg(at));
  if (s.post) {
    const Register& step = i.reg(i.operands.size() - 1);
    s.writeback = write(i.reg(0), fmt::format("address + {}", step.is_zero() ? std::to_string(step_bytes) : read(step)));
  }
  return s;
}

/// The element size and lane count of an arrangement suffix ("v16b", "v4h", "v1d" ...).
void parse_arrangement(std::string_view arrangement, Structure& s) {
  const char element = arrangement.back();
  s.bits = element == 'b' ? 8 : element == 'h' ? 16 : element == 's' ? 32 : 64;
  s.lanes = std::stoi(std::string(arrangement.substr(1, arrangement.size() - 2)));
}

std::string lane(unsigned reg, int bits, const std::string& index) { return fmt::format("v{}.u{}[{}]", reg % 32, bits, index); }

/// LD1..LD4 / ST1..ST4 (single structure): element k of the structure is lane `index` of Vt+k; other lanes keep
/// their values ("LD3i16", "ST1i64_POST").
void structure_lane(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const int bits = std::stoi(std::string(op.substr(4, op.find('_') == std::string_view::npos ? std::string_view::npos : op.find('_') - 4)));
  const int count = op[2] - '0';
  Structure s = parse_structure(i, count * bits / 8);
  s.bits = bits;
  std::string code = fmt::format("{{ const uint64_t address = {}; ", s.base);
  for (int k = 0; k < count; ++k) {
    const std::string target = lane(s.first + k, bits, std::to_string(s.index));
    const std::string at = fmt::format("address + {}", k * bits / 8);
    code += s.load ? fmt::format("{} = kiln::rt::load<{}>(m, {}); ", target, utype(bits / 8), at)
                   : fmt::format("kiln::rt::store<{}>(m, {}, {}); ", utype(bits / 8), at, target);
  }
  out.line(code + s.writeback + " }");
}

/// LD1R..LD4R: element k of one structure replicated to every lane of Vt+k ("LD2Rv8h", "LD4Rv1d_POST").
void structure_replicate(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const std::string_view arrangement = op.substr(4, op.find('_') == std::string_view::npos ? std::string_view::npos : op.find('_') - 4);
  Structure shape;
  parse_arrangement(arrangement, shape);
  const int count = op[2] - '0';
  const Structure s = parse_structure(i, count * shape.bits / 8);
  std::string code = fmt::format("{{ const uint64_t address = {}; ", s.base);
  for (int k = 0; k < count; ++k)
    code += fmt::format("v{} = kiln::rt::v_dup<{}, {}>(kiln::rt::load<{}>(m, address + {})); ", (s.first + k) % 32, utype(shape.bits / 8),
                        shape.lanes, utype(shape.bits / 8), k * shape.bits / 8);
  out.line(code + s.writeback + " }");
}

/// LD2..LD4 / ST2..ST4 (multiple structures): memory holds `lanes` structures of n elements; element k of
/// structure e is lane e of Vt+k ("LD3Threev4s", "ST2Twov16b_POST"). 64-bit arrangements zero the upper half.
void structure_interleaved(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const size_t v = op.find('v');
  const std::string_view arrangement = op.substr(v, op.find('_') == std::string_view::npos ? std::string_view::npos : op.find('_') - v);
  Structure shape;
  parse_arrangement(arrangement, shape);
  const int count = op[2] - '0';
  const int bytes = shape.bits / 8;
  const Structure s = parse_structure(i, count * shape.lanes * bytes);
  std::string code = fmt::format("{{ const uint64_t address = {}; for (int e = 0; e < {}; ++e) {{ ", s.base, shape.lanes);
  for (int k = 0; k < count; ++k) {
    const std::string target = lane(s.first + k, shape.bits, "e");
    const std::string at = fmt::format("address + (uint64_t)(e * {} + {}) * {}", count, k, bytes);
    code += s.load ? fmt::format("{} = kiln::rt::load<{}>(m, {}); ", target, utype(bytes), at)
                   : fmt::format("kiln::rt::store<{}>(m, {}, {}); ", utype(bytes), at, target);
  }
  code += "} ";
  if (s.load && shape.lanes * shape.bits == 64)
    for (int k = 0; k < count; ++k) code += fmt::format("v{}.u64[1] = 0; ", (s.first + k) % 32);
  out.line(code + s.writeback + " }");
}

std::vector<std::string>& names() { static std::vector<std::string> storage; return storage; }
void add(Registry& r, std::string name, Handler h) {
  names().push_back(std::move(name));
  r[names().back()] = h;
}

} // namespace

void register_memory(Registry& r) {
  names().reserve(4096);
  for (const char* type : {"X", "W", "BB", "HH", "Q", "D", "S", "H", "B"}) {
    for (const char* prefix : {"LDR", "STR"})
      for (const char* form : {"ui", "pre", "post", "roW", "roX"}) add(r, std::string(prefix) + type + form, single);
    add(r, std::string("LDUR") + type + "i", single);
    add(r, std::string("STUR") + type + "i", single);
  }
  for (const char* type : {"SBW", "SBX", "SHW", "SHX", "SW"}) {
    for (const char* form : {"ui", "pre", "post", "roW", "roX"}) add(r, std::string("LDR") + type + form, single);
    add(r, std::string("LDUR") + type + "i", single);
  }
  for (const char* type : {"X", "W", "SW", "Q", "D", "S"}) add(r, std::string("LDR") + type + "l", single);
  for (const char* type : {"X", "W", "Q", "D", "S"})
    for (const char* prefix : {"LDP", "STP"}) {
      for (const char* form : {"i", "pre", "post"}) add(r, std::string(prefix) + type + form, pair);
      add(r, std::string(prefix[0] == 'L' ? "LDNP" : "STNP") + type + "i", pair);
    }
  for (const char* form : {"i", "pre", "post"}) add(r, std::string("LDPSW") + form, pair);
  for (const char* size : {"B", "H", "W", "X"}) {
    for (const char* base : {"LDAR", "LDAPR", "STLR"}) add(r, std::string(base) + size, acquire_release);
    for (const char* base : {"LDXR", "LDAXR", "STXR", "STLXR"}) add(r, std::string(base) + size, exclusive);
    for (const char* base : {"CAS", "SWP", "LDADD", "LDCLR", "LDEOR", "LDSET", "LDSMAX", "LDSMIN", "LDUMAX", "LDUMIN"})
      for (const char* order : {"", "A", "L", "AL"}) add(r, std::string(base) + order + size, atomic);
  }
  for (const char* size : {"W", "X"})
    for (const char* order : {"", "A", "L", "AL"}) add(r, std::string("CASP") + order + size, compare_and_swap_pair);
  for (const char* name : {"LDXPW", "LDXPX", "LDAXPW", "LDAXPX", "STXPW", "STXPX", "STLXPW", "STLXPX"}) add(r, name, exclusive);
  // AdvSIMD structures beyond LD1/ST1 of whole registers and LD1R (those live with the other NEON semantics).
  for (const char* prefix : {"LD1", "LD2", "LD3", "LD4", "ST1", "ST2", "ST3", "ST4"})
    for (const char* size : {"i8", "i16", "i32", "i64"})
      for (const char* post : {"", "_POST"}) add(r, std::string(prefix) + size + post, structure_lane);
  for (const char* prefix : {"LD2R", "LD3R", "LD4R"})
    for (const char* a : {"v8b", "v16b", "v4h", "v8h", "v2s", "v4s", "v1d", "v2d"})
      for (const char* post : {"", "_POST"}) add(r, std::string(prefix) + a + post, structure_replicate);
  for (const char* prefix : {"LD2Two", "LD3Three", "LD4Four", "ST2Two", "ST3Three", "ST4Four"})
    for (const char* a : {"v8b", "v16b", "v4h", "v8h", "v2s", "v4s", "v2d"})
      for (const char* post : {"", "_POST"}) add(r, std::string(prefix) + a + post, structure_interleaved);
}

} // namespace kiln::a64::sem
