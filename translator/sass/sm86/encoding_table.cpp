// Parses the encoding table notation (see docs/translator-sm86.md, "The encoding table") into Forms.
#include "translator/sass/sm86/encoding_table.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <map>
#include <mutex>

#include "runtime/base/error.h"

namespace kiln::sass::sm86 {
namespace {

constexpr std::string_view kTableText[] = {
#include "translator/sass/sm86/table_alu.inc"
#include "translator/sass/sm86/table_control.inc"
#include "translator/sass/sm86/table_memory.inc"
};

constexpr std::array<std::string_view, 256> kSpecialRegisterNames = [] {
  std::array<std::string_view, 256> names{};
  names[0x00] = "SR_LANEID";
  names[0x03] = "SR_VIRTID";
  names[0x12] = "SR_Y_DIRECTION";
  names[0x21] = "SR_TID.X";
  names[0x22] = "SR_TID.Y";
  names[0x23] = "SR_TID.Z";
  names[0x25] = "SR_CTAID.X";
  names[0x26] = "SR_CTAID.Y";
  names[0x27] = "SR_CTAID.Z";
  names[0x38] = "SR_EQMASK";
  names[0x39] = "SR_LTMASK";
  names[0x3a] = "SR_LEMASK";
  names[0x3b] = "SR_GTMASK";
  names[0x3c] = "SR_GEMASK";
  names[0x43] = "SR_VIRTUALSMID";
  names[0x50] = "SR_CLOCKLO";
  names[0x51] = "SR_CLOCKHI";
  names[0x52] = "SR_GLOBALTIMERLO";
  names[0x53] = "SR_GLOBALTIMERHI";
  names[0x64] = "SR_PM0";
  names[0x66] = "SR_PM1";
  names[0x68] = "SR_PM2";
  names[0x6a] = "SR_PM3";
  names[0xff] = "SRZ";
  return names;
}();

class TableError : public Error {
public:
  TableError(std::string_view line, const std::string& message)
      : Error(fmt::format("SM86 encoding table: {} in line: {}", message, line)) {}
};

std::vector<std::string> split(std::string_view text, char separator, bool respect_parentheses = false) {
  std::vector<std::string> parts;
  std::string current;
  int depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == separator && (!respect_parentheses || depth == 0)) {
      parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  parts.push_back(current);
  return parts;
}

std::string trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(" \t");
  return std::string(text.substr(begin, end - begin + 1));
}

struct Parser {
  std::string_view line;

  [[noreturn]] void fail(const std::string& message) const { throw TableError(line, message); }

  uint64_t number(std::string_view text) const {
    uint64_t value = 0;
    int base = 10;
    if (text.starts_with("0x")) {
      text.remove_prefix(2);
      base = 16;
    }
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (error != std::errc() || end != text.data() + text.size() || text.empty()) fail(fmt::format("bad number '{}'", text));
    return value;
  }

  // "lsb:width" (width defaults to `default_width` when absent).
  BitField bits(std::string_view text, unsigned default_width = 0) const {
    const auto parts = split(text, ':');
    BitField field;
    field.lsb = static_cast<uint8_t>(number(parts[0]));
    field.width = static_cast<uint8_t>(parts.size() > 1 ? number(parts[1]) : default_width);
    if (parts.size() > 2 || field.width == 0 || field.lsb + field.width > 128) fail(fmt::format("bad field '{}'", text));
    return field;
  }

  // "lsb:width:name0/name1/..." or "lsb:width+lsb2:width2:names" (a value split over two ranges, the second
  // giving the high bits) -> a named field; names are also looked up as modifiers when `as_modifiers`.
  NamedField named_field(std::string_view text, bool as_modifiers) const {
    const size_t last_colon = text.rfind(':');
    if (last_colon == std::string_view::npos) fail(fmt::format("named field '{}' needs lsb:width:names", text));
    const std::string_view range = text.substr(0, last_colon);
    NamedField field;
    if (const size_t plus = range.find('+'); plus != std::string_view::npos) {
      field.bits = bits(range.substr(0, plus));
      field.high_bits = bits(range.substr(plus + 1));
    } else {
      field.bits = bits(range);
    }
    return finish_named(field, text.substr(last_colon + 1), as_modifiers, text);
  }

  NamedField finish_named(NamedField field, std::string_view names, bool as_modifiers, std::string_view text) const {
    field.names = split(names, '/');
    if (field.names.size() > (size_t{1} << (field.bits.width + field.high_bits.width))) fail(fmt::format("more names than values in '{}'", text));
    if (as_modifiers) {
      for (const auto& name : field.names) {
        std::vector<Modifier> tokens;
        if (!name.empty() && name != "?") {
          for (const auto& token : split(name, '.')) tokens.push_back(modifier(token));
        }
        field.modifiers.push_back(std::move(tokens));
      }
    }
    return field;
  }

  Modifier modifier(std::string_view text) const {
    static const std::map<std::string, Modifier, std::less<>> by_text = [] {
      std::map<std::string, Modifier, std::less<>> map;
      for (uint16_t i = 0;; ++i) {
        const auto name = modifier_text(static_cast<Modifier>(i));
        if (name == "?") break;
        map.emplace(std::string(name), static_cast<Modifier>(i));
      }
      return map;
    }();
    auto it = by_text.find(text);
    if (it == by_text.end()) fail(fmt::format("modifier '{}' is not in modifiers.def", text));
    return it->second;
  }

  void attributes(OperandSpec& spec, std::string_view text) const {
    for (const auto& attribute : split(text, ',')) {
      const std::string a = trim(attribute);
      if (a.empty()) continue;
      const std::string_view rest = std::string_view(a).substr(1);
      switch (a[0]) {
      case 'n': spec.negate_bit = static_cast<int16_t>(number(rest)); break;
      case 'a': spec.absolute_bit = static_cast<int16_t>(number(rest)); break;
      case 'i': spec.invert_bit = static_cast<int16_t>(number(rest)); break;
      case 'x': spec.fixed_suffix = std::string(rest); break;
      case 's': spec.suffix = named_field(rest, false); break;
      case 'o': spec.field = bits(rest); break;
      case 'b': spec.bank = bits(rest, 5); break;
      case 'u':
        if (spec.kind == OperandSpecKind::constant_buffer) spec.uniform_bank_bit = static_cast<int16_t>(number(rest));
        else spec.uniform_base = bits(rest, 8);
        break;
      case 'r':
        if (spec.kind == OperandSpecKind::constant_buffer) spec.index_register = bits(rest, 8);
        else spec.base = bits(rest, 8);
        break;
      case 'e': spec.reuse_bit = static_cast<int16_t>(number(rest)); break;
      case 'h': spec.field_high = bits(rest); break;
      case 'w': spec.wide_bit = static_cast<int16_t>(number(rest)); break;
      case 'S': spec.is_signed = true; break;
      case '<': spec.shift = static_cast<uint8_t>(number(rest)); break;
      case 'H': spec.hidden = true; break;
      case '_': spec.space_separated = true; break;
      case '?':
        spec.optional = true;
        spec.default_value = rest.empty() ? 7 : number(rest);  // PT unless given
        break;
      default: fail(fmt::format("unknown operand attribute '{}'", a));
      }
    }
  }

  OperandSpec operand(const std::string& token_text) const {
    std::string token = trim(token_text);
    std::string attribute_text;
    if (const size_t open = token.find('('); open != std::string::npos) {
      if (token.back() != ')') fail(fmt::format("unbalanced operand '{}'", token));
      attribute_text = token.substr(open + 1, token.size() - open - 2);
      token = token.substr(0, open);
    }
    OperandSpec spec;
    auto starts = [&](std::string_view prefix) {
      if (!token.starts_with(prefix)) return false;
      // the rest must be a field (digits) or empty, so "UR" is not taken for "U..." of another kind
      const std::string_view rest = std::string_view(token).substr(prefix.size());
      return rest.empty() || (rest[0] >= '0' && rest[0] <= '9');
    };
    const auto rest = [&](size_t n) { return std::string_view(token).substr(n); };
    if (starts("UR")) spec.kind = OperandSpecKind::uniform_gpr, spec.field = bits(rest(2), 8);
    else if (starts("UP")) spec.kind = OperandSpecKind::uniform_predicate, spec.field = bits(rest(2), 3);
    else if (starts("SR")) spec.kind = OperandSpecKind::special_register, spec.field = bits(rest(2), 8);
    else if (starts("R")) spec.kind = OperandSpecKind::gpr, spec.field = bits(rest(1), 8);
    else if (starts("P")) spec.kind = OperandSpecKind::predicate, spec.field = bits(rest(1), 3);
    else if (starts("B")) spec.kind = OperandSpecKind::barrier, spec.field = bits(rest(1), 4);
    else if (starts("I")) spec.kind = OperandSpecKind::immediate, spec.field = bits(rest(1), 32);
    else if (starts("S")) spec.kind = OperandSpecKind::immediate, spec.field = bits(rest(1), 32), spec.is_signed = true;
    else if (starts("F")) spec.kind = OperandSpecKind::immediate, spec.field = bits(rest(1), 32), spec.immediate_type = ImmediateType::float32;
    else if (starts("D")) spec.kind = OperandSpecKind::immediate, spec.field = bits(rest(1), 32), spec.immediate_type = ImmediateType::float64_high;
    else if (starts("H")) spec.kind = OperandSpecKind::immediate, spec.field = bits(rest(1), 32), spec.immediate_type = ImmediateType::float16x2;
    else if (starts("T")) spec.kind = OperandSpecKind::branch_target, spec.field = bits(rest(1)), spec.is_signed = true;
    else if (token == "C") spec.kind = OperandSpecKind::constant_buffer;
    else if (starts("C")) {
      // The ALU constant operand at `lsb`: offset at lsb+6 (16 bits), bank at lsb+22 (5 bits), cx flag bit 91.
      const unsigned lsb = static_cast<unsigned>(number(rest(1)));
      spec.kind = OperandSpecKind::constant_buffer;
      spec.field = {static_cast<uint8_t>(lsb + 6), 16};
      spec.bank = {static_cast<uint8_t>(lsb + 22), 5};
      spec.uniform_bank_bit = 91;
      spec.uniform_base = {static_cast<uint8_t>(lsb), 6};
    } else if (token.starts_with("Q")) {
      // FSWZADD's lane operations, printed as four letter pairs (P add, N subtract, Z zero)
      spec.kind = OperandSpecKind::enumerant;
      spec.field = bits(rest(1), 8);
      for (unsigned value = 0; value < 256; ++value) {
        std::string name;
        // two bits per pair of letters, most significant first: 0 PP, 1 PN, 2 NP, 3 ZP
        for (int pair = 3; pair >= 0; --pair) name += std::array<const char*, 4>{"PP", "PN", "NP", "ZP"}[(value >> (2 * pair)) & 3];
        spec.names.push_back(name);
      }
    } else if (token == "M") spec.kind = OperandSpecKind::memory;
    else if (token == "A") spec.kind = OperandSpecKind::attribute;
    else if (token.starts_with("E")) {
      spec.kind = OperandSpecKind::enumerant;
      NamedField field = named_field(rest(1), false);
      spec.field = field.bits;
      spec.names = field.names;
    } else fail(fmt::format("unknown operand '{}'", token));
    attributes(spec, attribute_text);
    return spec;
  }
};

// ALU source slots per form (NAK's sm70_encode.rs names the forms 1-7 by bits 9-11): where the second ("B") and
// third ("C") sources live. Register slots carry their negate/absolute bits.
struct SlotText {
  std::string b;
  std::string c;
};

std::string register_slot(const char* file, unsigned lsb, unsigned negate, unsigned absolute, const std::string& mods,
                          const std::string& extra = {}, unsigned default_reuse = 0) {
  std::string attributes = extra.empty() ? std::string() : extra + ",";
  // Reuse flags follow the operand's position (A: 122, B: 123, C: 124) unless the line names another bit.
  if (extra.find('e') == std::string::npos && default_reuse != 0) attributes += fmt::format("e{},", default_reuse);
  for (char m : mods) {
    if (m == 'n') attributes += fmt::format("n{},", negate);
    if (m == 'a') attributes += fmt::format("a{},", absolute);
    if (m == 'i') attributes += fmt::format("i{},", negate);
  }
  return fmt::format("{}{}({})", file, lsb, attributes);
}

std::string immediate_slot(char type) { return fmt::format("{}32", type); }

SlotText alu_slots(unsigned form, char type, const std::string& b_mods, const std::string& c_mods,
                   const std::string& b_extra, const std::string& c_extra, bool uniform, const Parser& parser) {
  const char* file = uniform ? "UR" : "R";
  const std::string b_reg32 = register_slot(file, 32, 63, 62, b_mods, b_extra, 123);
  const std::string b_reg64 = register_slot(file, 64, 75, 74, b_mods, b_extra, 123);
  const std::string c_reg64 = register_slot(file, 64, 75, 74, c_mods, c_extra, 124);
  const std::string constant = [&](const std::string& mods) {
    std::string attributes;
    for (char m : mods) {
      if (m == 'n') attributes += "n63,";
      if (m == 'a') attributes += "a62,";
      if (m == 'i') attributes += "i63,";
    }
    return fmt::format("C32({})", attributes);
  }(form == 3 ? c_mods : b_mods);
  switch (form) {
  case 1: return {b_reg32, c_reg64};
  case 2: return {b_reg64, immediate_slot(type)};
  case 3: return {b_reg64, constant};
  case 4: return {immediate_slot(type), c_reg64};
  case 5: return {constant, c_reg64};
  case 6: return {register_slot("UR", 32, 63, 62, b_mods), c_reg64};
  case 7: return {b_reg64, register_slot("UR", 32, 63, 62, c_mods)};
  default: parser.fail(fmt::format("no ALU form {}", form));
  }
}

// Replaces $B(type,mods) / $C(type,mods) in the operand text with the slot of `form`.
std::string expand_slots(std::string text, unsigned form, bool uniform, const Parser& parser) {
  std::string b_mods, c_mods, b_extra, c_extra;
  char type = 'I';
  for (const char* slot : {"$B", "$C"}) {
    const size_t at = text.find(slot);
    if (at == std::string::npos) continue;
    const size_t open = at + 2;
    if (open >= text.size() || text[open] != '(') parser.fail(fmt::format("{} needs (type,mods)", slot));
    const size_t close = text.find(')', open);
    const auto args = split(text.substr(open + 1, close - open - 1), ',');
    type = args[0].empty() ? 'I' : args[0][0];
    (slot[1] == 'B' ? b_mods : c_mods) = args.size() > 1 ? trim(args[1]) : "";
    std::string extra;  // every attribute after type and mods ("s60:2:...,e124")
    for (size_t i = 2; i < args.size(); ++i) extra += (i > 2 ? "," : "") + trim(args[i]);
    (slot[1] == 'B' ? b_extra : c_extra) = extra;
  }
  const SlotText slots = alu_slots(form, type, b_mods, c_mods, b_extra, c_extra, uniform, parser);
  for (const char* slot : {"$B", "$C"}) {
    const size_t at = text.find(slot);
    if (at == std::string::npos) continue;
    const size_t close = text.find(')', at);
    text.replace(at, close - at + 1, slot[1] == 'B' ? slots.b : slots.c);
  }
  return text;
}

void claim(Word128& claimed, BitField field) {
  if (field.present()) claimed.set_field(field.lsb, field.width, ~uint64_t{0});
}
void claim_bit(Word128& claimed, int16_t bit) {
  if (bit >= 0) claimed.set_field(static_cast<unsigned>(bit), 1, 1);
}

void finish(Form& form) {
  Word128& claimed = form.claimed;
  claimed.set_field(0, 16, 0xffff);                  // opcode and guard predicate
  claimed.set_field(105, 21, ~uint64_t{0});          // scheduling control and reuse flags
  for (const auto& modifier : form.modifiers) {
    claim(claimed, modifier.bits);
    claim(claimed, modifier.high_bits);
  }
  for (const auto& fixed : form.fixed) claim(claimed, fixed.bits);
  for (const auto& spec : form.operands) {
    claim(claimed, spec.field);
    claim(claimed, spec.field_high);
    claim(claimed, spec.suffix.bits);
    claim(claimed, spec.bank);
    claim(claimed, spec.index_register);
    claim(claimed, spec.base);
    claim(claimed, spec.uniform_base);
    for (int16_t bit : {spec.negate_bit, spec.absolute_bit, spec.invert_bit, spec.uniform_bank_bit, spec.wide_bit}) {
      claim_bit(claimed, bit);
    }
  }
}

Opcode opcode_by_name(const Parser& parser, std::string_view name) {
  for (uint16_t i = 0;; ++i) {
    const auto text = opcode_name(static_cast<Opcode>(i));
    if (text == "?") break;
    if (text == name) return static_cast<Opcode>(i);
  }
  parser.fail(fmt::format("opcode '{}' is not in opcodes.def", name));
}

// One table line: "NAME opcode [alu=forms|ualu=forms] | modifiers | operands | fixed bits".
void parse_line(std::string_view line, std::vector<Form>& forms) {
  const Parser parser{line};
  const auto sections = split(line, '|');
  if (sections.size() < 3 || sections.size() > 4) parser.fail("expected 3 or 4 sections separated by '|'");
  const auto head = split(trim(sections[0]), ' ');
  std::vector<std::string> words;
  for (const auto& word : head) {
    if (!word.empty()) words.push_back(word);
  }
  if (words.size() < 2 || words.size() > 4) parser.fail("expected NAME OPCODE [alu=forms] [arch=sm75|sm86] [guard=UP]");
  const Opcode opcode = opcode_by_name(parser, words[0]);
  const uint64_t opcode_bits = parser.number(words[1]);

  std::vector<unsigned> alu_forms;
  bool uniform = false;
  uint8_t architectures = 0b11;
  bool uniform_guard = false;
  for (size_t i = 2; i < words.size(); ++i) {
    const auto eq = words[i].find('=');
    const std::string kind = words[i].substr(0, eq);
    const std::string value = eq == std::string::npos ? std::string() : words[i].substr(eq + 1);
    if (kind == "arch") {
      // Turing and Ampere give a few fields different meanings (memory ordering, the uniform register of
      // global memory instructions); such lines name the one architecture they describe.
      if (value == "sm75") architectures = 1u << static_cast<unsigned>(Architecture::sm75);
      else if (value == "sm86") architectures = 1u << static_cast<unsigned>(Architecture::sm86);
      else parser.fail(fmt::format("unknown architecture '{}'", value));
      continue;
    }
    if (kind == "guard") {
      if (value != "UP") parser.fail(fmt::format("unknown guard kind '{}'", value));
      uniform_guard = true;
      continue;
    }
    if ((kind != "alu" && kind != "ualu") || !alu_forms.empty()) parser.fail("expected alu=..., ualu=... or arch=...");
    uniform = kind == "ualu";
    for (char c : value) {
      if (c < '1' || c > '7') parser.fail(fmt::format("no ALU form '{}'", c));
      alu_forms.push_back(static_cast<unsigned>(c - '0'));
    }
  }
  const bool is_alu = !alu_forms.empty();
  if (!is_alu) alu_forms.push_back(0);

  for (unsigned alu_form : alu_forms) {
    Form form;
    form.opcode = opcode;
    form.opcode_bits = static_cast<uint16_t>(is_alu ? (opcode_bits & 0x1ff) | (alu_form << 9) : opcode_bits);
    if (opcode_bits > 0xfff || (is_alu && opcode_bits > 0x1ff)) parser.fail("opcode out of range");
    form.source = std::string(line);
    form.architectures = architectures;
    // Instructions of the uniform datapath are guarded by uniform predicates ("@!UP0 UIADD3 ...").
    form.uniform_guard = uniform_guard || uniform;
    for (const auto& word : split(trim(sections[1]), ' ')) {
      if (word.empty()) continue;
      if (word[0] != '.') parser.fail(fmt::format("modifier '{}' must start with '.'", word));
      const std::string_view text = std::string_view(word).substr(1);
      if (text.find(':') == std::string_view::npos) {
        NamedField literal;  // always printed
        literal.names = {std::string(text)};
        literal.modifiers = {std::vector<Modifier>{}};
        for (const auto& token : split(text, '.')) literal.modifiers[0].push_back(parser.modifier(token));
        form.modifiers.push_back(literal);
      } else {
        form.modifiers.push_back(parser.named_field(text, true));
      }
    }
    std::string operand_text = trim(sections[2]);
    if (is_alu) operand_text = expand_slots(operand_text, alu_form, uniform, parser);
    if (!operand_text.empty()) {
      for (const auto& token : split(operand_text, ',', true)) form.operands.push_back(parser.operand(token));
    }
    if (sections.size() == 4) {
      for (const auto& word : split(trim(sections[3]), ' ')) {
        if (word.empty()) continue;
        if (word[0] != '=') parser.fail(fmt::format("fixed bits '{}' must start with '='", word));
        const auto parts = split(std::string_view(word).substr(1), ':');
        if (parts.size() != 3) parser.fail(fmt::format("fixed bits '{}' need =lsb:width:value", word));
        form.fixed.push_back({parser.bits(parts[0] + ":" + parts[1]), parser.number(parts[2])});
      }
    }
    if (uniform) form.fixed.push_back({{91, 1}, 1});  // every uniform-datapath ALU op sets bit 91
    if (!uniform && (alu_form == 6 || alu_form == 7)) form.fixed.push_back({{91, 1}, 1});
    finish(form);
    forms.push_back(std::move(form));
  }
}

struct Index {
  std::vector<Form> forms;
  std::array<std::vector<uint16_t>, 4096> by_opcode;
};

const Index& index() {
  static const Index table = [] {
    Index built;
    for (std::string_view block : kTableText) {
      for (const auto& raw : split(block, '\n')) {
        const std::string line = trim(raw);
        if (line.empty() || line[0] == '#') continue;
        parse_line(line, built.forms);
      }
    }
    for (size_t i = 0; i < built.forms.size(); ++i) built.by_opcode[built.forms[i].opcode_bits].push_back(static_cast<uint16_t>(i));
    return built;
  }();
  return table;
}

} // namespace

const std::vector<Form>& encoding_forms() { return index().forms; }

std::span<const uint16_t> forms_with_opcode(uint16_t opcode_bits) { return index().by_opcode[opcode_bits & 0xfff]; }

const std::vector<std::string>& special_register_names() {
  static const std::vector<std::string> names(kSpecialRegisterNames.begin(), kSpecialRegisterNames.end());
  return names;
}

} // namespace kiln::sass::sm86
