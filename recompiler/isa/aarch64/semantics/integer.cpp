// Integer data processing: add/sub, logical, moves, bitfields, shifts, multiply/divide, conditional ops.
#include "recompiler/isa/aarch64/semantics/handlers.h"

namespace kiln::a64::sem {
namespace {

/// The register width from the opcode name: the last capital before the lower-case form suffix ("EXTRWrri" -> W).
bool is64(const Instruction& i) {
  const size_t end = i.opcode.find_first_of("abcdefghijklmnopqrstuvwxyz");
  return end != std::string_view::npos && end > 0 && i.opcode[end - 1] == 'X';
}
const char* T(const Instruction& i) { return is64(i) ? "uint64_t" : "uint32_t"; }

/// ADD/SUB/ADDS/SUBS, ADC/SBC(S): operand 2 is imm/shifted/extended depending on the form suffix.
void add_sub(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const bool sub = starts_with(op, "SUB") || starts_with(op, "SBC");
  const bool carry = starts_with(op, "ADC") || starts_with(op, "SBC");
  const bool flags = op[3] == 'S' || (carry && op[3] == 'S');
  const char* t = T(i);
  std::string b;
  if (ends_with(op, "ri")) b = hex(static_cast<uint64_t>(i.imm(2)) << i.imm(3));
  else if (ends_with(op, "rs")) b = shifted(i.reg(2), i.imm(3));
  else if (ends_with(op, "rx") || ends_with(op, "rx64")) b = extended(i.reg(2), i.imm(3));
  else b = read(i.reg(2)); // ADC/SBC
  const std::string a = read(i.reg(1));
  if (flags) {
    const std::string carry_in = carry ? "cf" : (sub ? "1" : "0");
    const std::string operand = sub ? fmt::format("({})~({})({})", t, t, b) : fmt::format("({})({})", t, b);
    out.line(write(i.reg(0), fmt::format("kiln::rt::add_flags<{}>(({}){}, {}, {}, n, z, cf, vf)", t, t, a, operand, carry_in)));
  } else if (carry) {
    out.line(write(i.reg(0), fmt::format("({})({} {} ({})({}) {} ({})({}))", t, a, sub ? "-" : "+", t, b, sub ? "- 1 +" : "+", t, "cf")));
  } else {
    out.line(write(i.reg(0), fmt::format("({})({} {} ({}))", t, a, sub ? "-" : "+", b)));
  }
}

void logical(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const char* t = T(i);
  const bool flags = starts_with(op, "ANDS") || starts_with(op, "BICS");
  std::string b;
  if (ends_with(op, "ri")) b = hex(decode_bit_masks(static_cast<uint32_t>(i.imm(2)), is64(i) ? 64 : 32));
  else b = shifted(i.reg(2), i.imm(3));
  const bool invert = starts_with(op, "BIC") || starts_with(op, "ORN") || starts_with(op, "EON");
  if (invert) b = fmt::format("~({})({})", t, b);
  const char* operation = starts_with(op, "AND") || starts_with(op, "BIC") ? "&" : starts_with(op, "ORR") || starts_with(op, "ORN") ? "|" : "^";
  const std::string value = fmt::format("({})({} {} ({}))", t, read(i.reg(1)), operation, b);
  out.line(write(i.reg(0), flags ? fmt::format("kiln::rt::logic_flags<{}>({}, n, z, cf, vf)", t, value) : value));
}

void move_wide(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const bool x = is64(i);
  if (starts_with(op, "MOVK")) {
    const uint64_t mask = uint64_t{0xffff} << i.imm(3);
    out.line(write(i.reg(0), fmt::format("({} & ~{}) | {}", read(i.reg(1)), hex(mask), hex(static_cast<uint64_t>(i.imm(2)) << i.imm(3)))));
    return;
  }
  uint64_t value = static_cast<uint64_t>(i.imm(1)) << i.imm(2);
  if (starts_with(op, "MOVN")) value = ~value;
  if (!x) value &= 0xffffffffu;
  out.line(write(i.reg(0), hex(value)));
}

void address(const Instruction& i, EmitTarget& out) {
  const uint64_t value = i.opcode == "ADRP" ? (i.address & ~uint64_t{0xfff}) + (static_cast<uint64_t>(i.imm(1)) << 12)
                                            : i.address + static_cast<uint64_t>(i.imm(1));
  out.line(write(i.reg(0), hex(value)));
}

void bitfield(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const char* t = T(i);
  const bool keep = starts_with(op, "BFM");
  const size_t src = keep ? 2 : 1;
  const unsigned bits = is64(i) ? 64 : 32;
  const unsigned immr = static_cast<unsigned>(i.imm(src + 1)), imms = static_cast<unsigned>(i.imm(src + 2));
  const std::string s = read(i.reg(src));
  if (!keep && imms == bits - 1) { // LSR / ASR
    out.line(write(i.reg(0), fmt::format("kiln::rt::{}<{}>({}, {})", starts_with(op, "SBFM") ? "asr" : "lsr", t, s, immr)));
  } else if (starts_with(op, "UBFM") && imms + 1 == immr) { // LSL
    out.line(write(i.reg(0), fmt::format("({})({} << {})", t, s, bits - immr)));
  } else {
    out.line(write(i.reg(0), fmt::format("kiln::rt::bitfield_move<{}>({}, {}, {}, {}, {}, {})", t, keep ? read(i.reg(1)) : "0", s,
                                         immr, imms, starts_with(op, "SBFM") ? "true" : "false", keep ? "true" : "false")));
  }
}

void extract(const Instruction& i, EmitTarget& out) {
  const char* t = T(i);
  const unsigned bits = is64(i) ? 64 : 32, lsb = static_cast<unsigned>(i.imm(3));
  if (lsb == 0) { out.line(write(i.reg(0), read(i.reg(2)))); return; }
  out.line(write(i.reg(0), fmt::format("({})(({})({} >> {}) | ({})({} << {}))", t, t, read(i.reg(2)), lsb, t, read(i.reg(1)), bits - lsb)));
}

void conditional_select(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const char* t = T(i);
  std::string otherwise = read(i.reg(2));
  if (starts_with(op, "CSINC")) otherwise = fmt::format("({})({} + 1)", t, otherwise);
  else if (starts_with(op, "CSINV")) otherwise = fmt::format("({})~{}", t, otherwise);
  else if (starts_with(op, "CSNEG")) otherwise = fmt::format("({})(0 - {})", t, otherwise);
  out.line(write(i.reg(0), fmt::format("{} ? {} : {}", condition(i.imm(3)), read(i.reg(1)), otherwise)));
}

void conditional_compare(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const char* t = T(i);
  const bool negative = starts_with(op, "CCMN");
  const std::string b = ends_with(op, "i") ? hex(static_cast<uint64_t>(i.imm(1))) : read(i.reg(1));
  const int64_t nzcv = i.imm(2);
  const std::string operand = negative ? fmt::format("({})({})", t, b) : fmt::format("({})~({})({})", t, t, b);
  out.line(fmt::format("if ({}) kiln::rt::add_flags<{}>({}, {}, {}, n, z, cf, vf); else {{ n = {}; z = {}; cf = {}; vf = {}; }}",
                       condition(i.imm(3)), t, read(i.reg(0)), operand, negative ? 0 : 1, (nzcv >> 3) & 1, (nzcv >> 2) & 1,
                       (nzcv >> 1) & 1, nzcv & 1));
}

void multiply(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const char* t = T(i);
  const bool sub = starts_with(op, "MSUB") || starts_with(op, "SMSUBL") || starts_with(op, "UMSUBL");
  if (starts_with(op, "MADD") || starts_with(op, "MSUB")) {
    out.line(write(i.reg(0), fmt::format("({})({} {} ({})({} * {}))", t, read(i.reg(3)), sub ? "-" : "+", t, read(i.reg(1)), read(i.reg(2)))));
  } else { // SMADDL/UMADDL/SMSUBL/UMSUBL: 32x32 -> 64
    const char* ext = op[0] == 'S' ? "(uint64_t)(int64_t)(int32_t)" : "(uint64_t)";
    out.line(write(i.reg(0), fmt::format("{} {} {}{} * {}{}", read(i.reg(3)), sub ? "-" : "+", ext, read(i.reg(1)), ext, read(i.reg(2)))));
  }
}

void data2(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const char* t = T(i);
  const std::string a = read(i.reg(1)), b = read(i.reg(2));
  std::string value;
  if (starts_with(op, "UDIV")) value = fmt::format("kiln::rt::udiv<{}>({}, {})", t, a, b);
  else if (starts_with(op, "SDIV")) value = fmt::format("kiln::rt::sdiv<{}>({}, {})", t, a, b);
  else if (starts_with(op, "LSLV")) value = fmt::format("kiln::rt::lsl<{}>({}, (unsigned){})", t, a, b);
  else if (starts_with(op, "LSRV")) value = fmt::format("kiln::rt::lsr<{}>({}, (unsigned){})", t, a, b);
  else if (starts_with(op, "ASRV")) value = fmt::format("kiln::rt::asr<{}>({}, (unsigned){})", t, a, b);
  else if (starts_with(op, "RORV")) value = fmt::format("kiln::rt::ror<{}>({}, (unsigned){})", t, a, b);
  else if (op == "UMULHrr") value = fmt::format("kiln::rt::umulh({}, {})", a, b);
  else if (op == "SMULHrr") value = fmt::format("kiln::rt::smulh({}, {})", a, b);
  out.line(write(i.reg(0), value));
}

void data1(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  const char* t = T(i);
  const bool x = is64(i);
  const std::string a = read(i.reg(1));
  std::string value;
  if (starts_with(op, "CLZ")) value = fmt::format("kiln::rt::clz<{}>({})", t, a);
  else if (starts_with(op, "CLS")) value = fmt::format("kiln::rt::cls<{}>({})", t, a);
  else if (starts_with(op, "RBIT")) value = x ? fmt::format("kiln::rt::rbit64({})", a) : fmt::format("kiln::rt::rbit32({})", a);
  else if (op == "REVWr" || op == "REV32Xr") value = x ? fmt::format("kiln::rt::rev32_64({})", a) : fmt::format("__builtin_bswap32({})", a);
  else if (op == "REVXr") value = fmt::format("__builtin_bswap64({})", a);
  else if (starts_with(op, "REV16")) value = x ? fmt::format("kiln::rt::rev16_64({})", a) : fmt::format("kiln::rt::rev16_32({})", a);
  out.line(write(i.reg(0), value));
}

} // namespace

void register_integer(Registry& r) {
  for (const char* base : {"ADD", "SUB", "ADDS", "SUBS"})
    for (const char* form : {"Wri", "Xri", "Wrs", "Xrs", "Wrx", "Xrx", "Xrx64"}) {
      static std::vector<std::string> names; // storage for the composed keys
      names.reserve(64);
      names.push_back(std::string(base) + form);
      r[names.back()] = add_sub;
    }
  for (const char* name : {"ADCWr", "ADCXr", "SBCWr", "SBCXr", "ADCSWr", "ADCSXr", "SBCSWr", "SBCSXr"}) r[name] = add_sub;
  for (const char* base : {"AND", "ORR", "EOR", "ANDS"})
    for (const char* form : {"Wri", "Xri", "Wrs", "Xrs"}) {
      static std::vector<std::string> names;
      names.reserve(64);
      names.push_back(std::string(base) + form);
      r[names.back()] = logical;
    }
  for (const char* name : {"BICWrs", "BICXrs", "BICSWrs", "BICSXrs", "ORNWrs", "ORNXrs", "EONWrs", "EONXrs"}) r[name] = logical;
  for (const char* name : {"MOVZWi", "MOVZXi", "MOVNWi", "MOVNXi", "MOVKWi", "MOVKXi"}) r[name] = move_wide;
  r["ADR"] = address;
  r["ADRP"] = address;
  for (const char* name : {"UBFMWri", "UBFMXri", "SBFMWri", "SBFMXri", "BFMWri", "BFMXri"}) r[name] = bitfield;
  r["EXTRWrri"] = extract;
  r["EXTRXrri"] = extract;
  for (const char* name : {"CSELWr", "CSELXr", "CSINCWr", "CSINCXr", "CSINVWr", "CSINVXr", "CSNEGWr", "CSNEGXr"}) r[name] = conditional_select;
  for (const char* name : {"CCMPWi", "CCMPXi", "CCMPWr", "CCMPXr", "CCMNWi", "CCMNXi", "CCMNWr", "CCMNXr"}) r[name] = conditional_compare;
  for (const char* name : {"MADDWrrr", "MADDXrrr", "MSUBWrrr", "MSUBXrrr", "SMADDLrrr", "UMADDLrrr", "SMSUBLrrr", "UMSUBLrrr"}) r[name] = multiply;
  for (const char* name : {"UDIVWr", "UDIVXr", "SDIVWr", "SDIVXr", "LSLVWr", "LSLVXr", "LSRVWr", "LSRVXr", "ASRVWr", "ASRVXr",
                           "RORVWr", "RORVXr", "UMULHrr", "SMULHrr"})
    r[name] = data2;
  for (const char* name : {"CLZWr", "CLZXr", "CLSWr", "CLSXr", "RBITWr", "RBITXr", "REVWr", "REVXr", "REV32Xr", "REV16Wr", "REV16Xr"})
    r[name] = data1;
}

} // namespace kiln::a64::sem

namespace kiln::a64 {

uint64_t decode_bit_masks(uint32_t encoded, unsigned width) {
  const unsigned n = (encoded >> 12) & 1, immr = (encoded >> 6) & 63, imms = encoded & 63;
  const unsigned combined = (n << 6) | (~imms & 63);
  if (combined == 0) return 0;
  const int length = 31 - __builtin_clz(combined); // highest set bit
  const unsigned esize = 1u << length;
  const unsigned levels = esize - 1;
  const unsigned s = imms & levels, rotate = immr & levels;
  uint64_t element = s + 1 >= 64 ? ~uint64_t{0} : (uint64_t{1} << (s + 1)) - 1;
  if (rotate) element = ((element >> rotate) | (element << (esize - rotate))) & (esize == 64 ? ~uint64_t{0} : (uint64_t{1} << esize) - 1);
  uint64_t result = 0;
  for (unsigned at = 0; at < width; at += esize) result |= element << at;
  return width == 64 ? result : result & 0xffffffffu;
}

} // namespace kiln::a64
