// Loads and stores: every addressing mode (unsigned offset, unscaled, pre/post-index, register offset with
// extend/shift, literal), pairs, acquire/release, exclusives and LSE atomics.
#include <array>
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

void atomic(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const unsigned size = size_suffix(op);
  const char* t = utype(size);
  if (starts_with(op, "CAS")) { // (s_out, s, t, n)
    out.line(fmt::format("{{ const uint64_t address = {}; const {} old = kiln::rt::load<{}>(m, address); if (old == ({}){}) "
                         "kiln::rt::store<{}>(m, address, ({}){}); {} }}",
                         read(i.reg(3)), t, t, t, read(i.reg(1)), t, t, read(i.reg(2)), write(i.reg(0), "old")));
    return;
  }
  // LD<op>/SWP (s, t, n): t = old; memory = old <op> s
  const std::string s = fmt::format("({}){}", t, read(i.reg(0)));
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
  out.line(fmt::format("{{ const uint64_t address = {}; const {} old = kiln::rt::load<{}>(m, address); "
                       "kiln::rt::store<{}>(m, address, ({})({})); {} }}",
                       read(i.reg(2)), t, t, t, t, value, write(i.reg(1), "old")));
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
  for (const char* name : {"LDXPW", "LDXPX", "LDAXPW", "LDAXPX", "STXPW", "STXPX", "STLXPW", "STLXPX"}) add(r, name, exclusive);
}

} // namespace kiln::a64::sem
