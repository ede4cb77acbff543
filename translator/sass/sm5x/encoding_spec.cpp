// Parses the table notation of encoding_table.cpp into Encoding rows (once, on first use).
#include <charconv>
#include <map>

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "translator/sass/sm5x/encoding_table.h"

namespace kiln::sass::sm5x {
namespace {

// Value names shared by several rows. Facts: envydis gm107.c sub-tables (condition codes tabf0f8_0, float
// compare tab5bb0_0, rounding tab5cb8_2, texture LOD tabc038_0/tabdeb8_0, TEXS/TLDS targets tabd000_0/1 and
// tabd200_0/1, TXQ queries tabdf50_0).
const std::map<std::string, std::string, std::less<>>& named_lists() {
  static const std::map<std::string, std::string, std::less<>> lists = {
      {"CC", "CC.F,CC.LT,CC.EQ,CC.LE,CC.GT,CC.NE,CC.GE,CC.NUM,CC.NAN,CC.LTU,CC.EQU,CC.LEU,CC.GTU,CC.NEU,CC.GEU,,"
             "CC.OFF,CC.LO,CC.SFF,CC.LS,CC.HI,CC.SFT,CC.HS,CC.OFT,CC.CSM_TA,CC.CSM_TR,CC.CSM_MX,CC.FCSM_TA,"
             "CC.FCSM_TR,CC.FCSM_MX,CC.RLE,CC.RGT"},
      // The same tests as CSETP's modifier (CSETP.SFT.AND).
      {"CCTEST", "F,LT,EQ,LE,GT,NE,GE,NUM,NAN,LTU,EQU,LEU,GTU,NEU,GEU,T,OFF,LO,SFF,LS,HI,SFT,HS,OFT,CSM_TA,CSM_TR,CSM_MX,"
                 "FCSM_TA,FCSM_TR,FCSM_MX,RLE,RGT"},
      {"FCMP", "F,LT,EQ,LE,GT,NE,GE,NUM,NAN,LTU,EQU,LEU,GTU,NEU,GEU,T"},
      {"RND", ",RM,RP,RZ"},
      {"FMZ", ",FTZ,FMZ,?"},
      {"SCALE", ",D2,D4,D8,M8,M4,M2,?"},
      {"XSIGN", ",S16.U16,U16.S16,S16.S16"},
      {"SHFTYPE", ",?,U64,S64"},
      {"SHFX", ",HI,X,XHI"},
      {"FTYPE", "?,F16,F32,F64"},
      {"ITYPE", "U8,U16,U32,U64,S8,S16,S32,S64"},
      // F2F: bits 39-40 pick the rounding direction; bit 42 makes it a round to an integral value.
      {"F2FRND", ",RM,RP,RZ,ROUND,FLOOR,CEIL,TRUNC"},
      {"TEXLOD", ",LZ,LB,LL,?,?,LBA,LLA"},
      {"TEXSTARGET", "1D.LZ,2D,2D.LZ,2D.LL,2D.DC,2D.LL.DC,2D.LZ.DC,ARRAY_2D,ARRAY_2D.LZ,ARRAY_2D.LZ.DC,3D,3D.LZ,"
                     "CUBE,CUBE.LL,?,?"},
      {"TLDSTARGET", "1D.LZ,1D.LL,2D.LZ,?,2D.LZ.AOFFI,2D.LL,2D.LZ.MS,3D.LZ,ARRAY_2D.LZ,?,?,?,2D.LL.AOFFI,?,?,?"},
      {"TXQ", "?,TEX_HEADER_DIMENSION,TEX_HEADER_TEXTURE_TYPE,?,?,TEX_HEADER_SAMPLER_POS,?,?,?,?,?,?,?,?,?,?,"
              "TEX_SAMPLER_FILTER,?,TEX_SAMPLER_LOD,?,TEX_SAMPLER_WRAP,?,TEX_SAMPLER_BORDER_COLOR,?,?,?,?,?,?,?,?,?,"
              "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?"},
  };
  return lists;
}

[[noreturn]] void table_error(const EncodingRow& row, const std::string& what) {
  throw Error(fmt::format("sm5x encoding table: {} row {:#018x}: {}", opcode_name(row.opcode), row.match, what));
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    parts.emplace_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

std::string trim(std::string_view text) {
  const size_t first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  const size_t last = text.find_last_not_of(' ');
  return std::string(text.substr(first, last - first + 1));
}

unsigned number(const EncodingRow& row, std::string_view text) {
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) table_error(row, fmt::format("bad number '{}'", text));
  return value;
}

/// "39:2+42:1" -> ranges.
BitField parse_bits(const EncodingRow& row, std::string_view text) {
  BitField field;
  for (const std::string& part : split(text, '+')) {
    const size_t colon = part.find(':');
    if (colon == std::string::npos) table_error(row, fmt::format("bit range '{}' needs lsb:width", part));
    field.ranges.push_back({static_cast<uint8_t>(number(row, std::string_view(part).substr(0, colon))),
                            static_cast<uint8_t>(number(row, std::string_view(part).substr(colon + 1)))});
  }
  return field;
}

std::vector<std::string> parse_names(const EncodingRow& row, std::string_view text, unsigned width) {
  if (!text.empty() && text[0] == '%') {
    const auto found = named_lists().find(text.substr(1));
    if (found == named_lists().end()) table_error(row, fmt::format("unknown list '{}'", text));
    text = found->second;
  }
  // Inside operand lists (which are comma-separated) names are separated by '/'.
  std::vector<std::string> names = split(text, text.find('/') != std::string_view::npos ? '/' : ',');
  if (names.size() > (size_t{1} << width)) table_error(row, fmt::format("too many names in '{}'", text));
  names.resize(size_t{1} << width, "?");
  return names;
}

BitField at(unsigned lsb, unsigned width) { return BitField{{{static_cast<uint8_t>(lsb), static_cast<uint8_t>(width)}}}; }

OperandSpec parse_operand(const EncodingRow& row, const std::string& token) {
  const std::vector<std::string> words = split(token, ' ');
  const std::string_view kind = words[0];
  OperandSpec spec;
  auto width_at = [&](std::string_view text, OperandForm form) {
    const size_t at_sign = text.find('@');
    if (at_sign == std::string_view::npos) table_error(row, fmt::format("'{}' needs @lsb", text));
    spec.form = form;
    spec.field = at(number(row, text.substr(at_sign + 1)), number(row, text.substr(1, at_sign - 1)));
  };
  if (kind == "C") spec.form = OperandForm::cbuf;
  else if (kind.starts_with("E=")) {
    spec.form = OperandForm::enumerant;
    spec.names = {std::string(kind.substr(2))};
  } else if (kind.starts_with("HF")) spec = {OperandForm::half10, at(number(row, kind.substr(2)), 10)};
  else if (kind == "TA") spec = {OperandForm::absolute_target, at(20, 32)};
  else if (kind == "[R8]") spec.form = OperandForm::memory;
  else if (kind[0] == 'R' && kind.find('+') != std::string_view::npos) {
    const size_t plus = kind.find('+');
    spec = {OperandForm::implied_register, at(number(row, kind.substr(1, plus - 1)), 8)};
    spec.register_offset = static_cast<uint8_t>(number(row, kind.substr(plus + 1)));
  }
  else if (kind == "CX") spec.form = OperandForm::cbuf_indexed;
  else if (kind == "I20") spec = {OperandForm::int20, BitField{{{20, 19}, {56, 1}}}};
  else if (kind == "F20") spec = {OperandForm::float20, BitField{{{20, 19}, {56, 1}}}};
  else if (kind == "D20") spec = {OperandForm::double20, BitField{{{20, 19}, {56, 1}}}};
  else if (kind == "I32") spec = {OperandForm::int32, at(20, 32)};
  else if (kind == "U32") spec = {OperandForm::uint32, at(20, 32)};
  else if (kind == "F32") spec = {OperandForm::float32, at(20, 32)};
  else if (kind == "T") spec = {OperandForm::branch_target, at(20, 24)};
  else if (kind == "SR") spec = {OperandForm::special_register, at(20, 8)};
  else if (kind == "A") spec = {OperandForm::attribute, at(20, 10)};
  else if (kind == "A28") spec = {OperandForm::attribute, at(28, 10)};
  else if (kind[0] == 'M' && kind.find('@') != std::string_view::npos) width_at(kind, OperandForm::memory);
  else if (kind[0] == 'M') spec = {OperandForm::memory, at(20, number(row, kind.substr(1)))};
  else if (kind[0] == 'U') width_at(kind, OperandForm::unsigned_literal);
  else if (kind[0] == 'S') width_at(kind, OperandForm::signed_literal);
  else if (kind[0] == 'R') spec = {OperandForm::gpr, at(number(row, kind.substr(1)), 8)};
  else if (kind[0] == 'P') spec = {OperandForm::predicate, at(number(row, kind.substr(1)), 3)};
  else if (kind[0] == 'E') {
    const size_t equals = kind.find('=');
    if (equals == std::string_view::npos) table_error(row, fmt::format("enumerant '{}' needs names", kind));
    spec.form = OperandForm::enumerant;
    spec.field = parse_bits(row, kind.substr(1, equals - 1));
    spec.names = parse_names(row, kind.substr(equals + 1), spec.field.width());
  } else {
    table_error(row, fmt::format("unknown operand '{}'", kind));
  }
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string_view option = words[i];
    if (option.empty()) continue;
    const std::string_view rest = option.substr(1);
    switch (option[0]) {
    case 'n': spec.negate_bit = static_cast<int8_t>(number(row, rest)); break;
    case 'a': spec.absolute_bit = static_cast<int8_t>(number(row, rest)); break;
    case 'i': spec.invert_bit = static_cast<int8_t>(number(row, rest)); break;
    case '?': spec.optional = true; spec.default_value = number(row, rest); break;
    case 'x': spec.scale = static_cast<uint8_t>(number(row, rest)); break;
    case 'u': spec.reuse_slot = static_cast<int8_t>(number(row, rest)); break;
    case 'm': spec.suffix_to_mnemonic = true; break;
    case 'c': spec.component_mask = true; break;
    case 'b': spec.bit_set = true; break;
    case 's': {
      const size_t equals = rest.find('=');
      if (equals == std::string_view::npos) table_error(row, "selector needs names");
      spec.selector = parse_bits(row, rest.substr(0, equals));
      spec.selector_names = parse_names(row, rest.substr(equals + 1), spec.selector.width());
      break;
    }
    default: table_error(row, fmt::format("unknown operand option '{}'", option));
    }
  }
  return spec;
}

ModifierSpec parse_modifier(const EncodingRow& row, const std::string& token) {
  ModifierSpec spec;
  if (token.starts_with('&')) {
    spec = parse_modifier(row, token.substr(1));
    spec.as_operand = true;
    return spec;
  }
  const size_t at_sign = token.find('@');
  spec.name = token.substr(0, at_sign);
  if (at_sign == std::string::npos) {  // fixed text
    spec.values = {spec.name};
    return spec;
  }
  const std::string_view place = std::string_view(token).substr(at_sign + 1);
  const size_t equals = place.find('=');
  if (equals == std::string_view::npos) {  // one-bit flag
    spec.field = at(number(row, place), 1);
    spec.values = {"", spec.name};
    return spec;
  }
  spec.field = parse_bits(row, place.substr(0, equals));
  spec.values = parse_names(row, place.substr(equals + 1), spec.field.width());
  return spec;
}

} // namespace

// Mesa's emitter tables (gm107 TEXS/TLDS); the CUDA 11.8 listings show R, RG and RGBA.
std::string_view component_mask_name(int64_t value, bool one_register) {
  static constexpr std::string_view one[] = {"R", "G", "B", "A", "RG", "RA", "GA", "BA"};
  static constexpr std::string_view two[] = {"RGB", "RGA", "RBA", "GBA", "RGBA", "?", "?", "?"};
  return (one_register ? one : two)[value & 7];
}

unsigned BitField::width() const {
  unsigned total = 0;
  for (const BitRange& range : ranges) total += range.width;
  return total;
}

uint64_t BitField::mask() const {
  uint64_t bits = 0;
  for (const BitRange& range : ranges) bits |= low_mask(range.width) << range.lsb;
  return bits;
}

uint64_t BitField::read(uint64_t word) const {
  uint64_t value = 0;
  unsigned shift = 0;
  for (const BitRange& range : ranges) {
    value |= extract_bits(word, range.lsb, range.width) << shift;
    shift += range.width;
  }
  return value;
}

bool BitField::write(uint64_t& word, uint64_t value) const {
  if (width() < 64 && (value >> width()) != 0) return false;
  for (const BitRange& range : ranges) {
    word = insert_bits(word, range.lsb, range.width, value);
    value >>= range.width;
  }
  return true;
}

uint64_t OperandSpec::mask() const {
  if (form == OperandForm::implied_register) return 0;
  uint64_t bits = field.mask() | selector.mask();
  if (form == OperandForm::cbuf) bits |= at(34, 5).mask() | at(20, 14).mask();
  if (form == OperandForm::cbuf_indexed) bits |= at(36, 5).mask() | at(20, 16).mask() | at(8, 8).mask();
  if (form == OperandForm::memory || form == OperandForm::attribute) bits |= at(8, 8).mask();
  if (form == OperandForm::absolute_target) bits |= field.mask();
  for (const int8_t bit : {negate_bit, absolute_bit, invert_bit}) {
    if (bit >= 0) bits |= uint64_t{1} << bit;
  }
  return bits;
}

Encoding parse_encoding_row(const EncodingRow& row) {
  Encoding encoding{row.opcode, row.match, row.mask, row.guarded};
  encoding.source_operands = row.operands;
  if ((row.match & ~row.mask) != 0) table_error(row, "match has bits outside mask");
  uint64_t owned = row.mask | (row.guarded ? 0xf0000 : 0);
  auto claim = [&](uint64_t bits, std::string_view what, bool may_repeat) {
    if ((owned & bits) != 0 && !may_repeat) table_error(row, fmt::format("'{}' overlaps other fields", what));
    owned |= bits;
  };
  std::vector<uint64_t> operand_masks;
  for (const std::string& token : split(row.operands, ',')) {
    const std::string text = trim(token);
    if (text.empty()) continue;
    OperandSpec spec = parse_operand(row, text);
    const uint64_t bits = spec.mask();
    // An operand may repeat an earlier one exactly (FFMA32I reads its destination as the addend).
    bool repeats = false;
    for (const uint64_t earlier : operand_masks) repeats = repeats || (earlier & spec.field.mask()) == spec.field.mask();
    claim(repeats ? bits & ~spec.field.mask() : bits, text, false);
    operand_masks.push_back(bits);
    encoding.operands.push_back(std::move(spec));
  }
  for (const std::string& token : split(row.modifiers, ';')) {
    const std::string text = trim(token);
    if (text.empty()) continue;
    ModifierSpec spec = parse_modifier(row, text);
    claim(spec.field.mask(), text, false);
    encoding.modifiers.push_back(std::move(spec));
  }
  encoding.covered = owned;
  return encoding;
}

const std::vector<Encoding>& encodings() {
  static const std::vector<Encoding> table = [] {
    std::vector<Encoding> rows;
    for (const EncodingRow& row : encoding_rows()) rows.push_back(parse_encoding_row(row));
    return rows;
  }();
  return table;
}

} // namespace kiln::sass::sm5x
