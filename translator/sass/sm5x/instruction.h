#pragma once
// One decoded instruction of the Maxwell/Pascal SASS encoding (SM50-SM62: 64-bit instructions, one scheduling
// control word before every three). The encoding table (encoding_table.h) drives decode(), assemble() and the
// disassembly text, so the three always agree; this header is what the rest of the translator consumes.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::sass::sm5x {

enum class Opcode : uint16_t {
#define KILN_SM5X_OPCODE(name, text) name,
#include "translator/sass/sm5x/opcodes.def"
#undef KILN_SM5X_OPCODE
};
/// The mnemonic as printed ("FFMA").
std::string_view opcode_name(Opcode opcode);

inline constexpr uint8_t kRZ = 255; ///< the zero register
inline constexpr uint8_t kPT = 7;   ///< the always-true predicate

enum class OperandKind : uint8_t {
  gpr,              ///< R0-R254, RZ (index 255)
  predicate,        ///< P0-P6, PT (index 7)
  integer,          ///< an integer literal (`value`, sign-extended where the field is signed)
  float32,          ///< a float literal: `value` holds the IEEE single bits (20-bit forms: low 12 bits zero)
  float64,          ///< a double literal: `value` holds the IEEE double bits (20-bit form: low 44 bits zero)
  constant_buffer,  ///< c[bank][value]; `index` = bank; `base` = RZ unless indexed (LDC: c[bank][Rn+value])
  memory,           ///< [base + value]: LD/ST/LDG/STG/LDS/STS/LDL/STL addresses
  attribute,        ///< a[base + value]: ALD/AST/IPA attribute byte address
  special_register, ///< S2R source: `index` is the hardware number (SR_TID.X = 0x21)
  branch_target,    ///< absolute byte offset in the program's code (`value`)
  enumerant,        ///< a named choice printed as a word (texture dimension "2D", "SB5"): `value` is the field
};

struct Operand {
  OperandKind kind = OperandKind::gpr;
  uint16_t index = 0;   ///< register / predicate / special register number; constant bank
  uint8_t base = kRZ;   ///< base register of memory/attribute/indexed constant addresses
  bool negate = false;  ///< "-R1"
  bool absolute = false;///< "|R1|"
  bool invert = false;  ///< "!P0" for predicates, "~R1" for bitwise-inverted sources
  uint8_t selector = 0; ///< part select printed after the operand (".H1", ".B2"); 0 = none
  int64_t value = 0;    ///< literal bits, byte offset, branch target

  friend bool operator==(const Operand&, const Operand&) = default;
};

/// The scheduling information the control word holds for one instruction (maxas's control-code layout).
struct Scheduling {
  uint8_t stall = 0;          ///< cycles to wait before issuing the next instruction (4 bits)
  bool yield = false;         ///< yield hint (bit 4)
  uint8_t write_barrier = 7;  ///< scoreboard set when the result is written; 7 = none
  uint8_t read_barrier = 7;   ///< scoreboard set when the sources have been read; 7 = none
  uint8_t wait_mask = 0;      ///< scoreboards to wait for before issuing (6 bits)
  uint8_t reuse = 0;          ///< operand-reuse cache flags (4 bits)

  friend bool operator==(const Scheduling&, const Scheduling&) = default;
};
/// The three instructions' fields of one control word; bit 63 must be zero.
std::vector<Scheduling> decode_control_word(uint64_t word);
uint64_t encode_control_word(const Scheduling& first, const Scheduling& second, const Scheduling& third);

struct Encoding;

struct Instruction {
  Opcode opcode{};
  const Encoding* encoding = nullptr;  ///< the table row it was decoded from (assemble() writes it back)
  uint8_t guard = kPT;                  ///< @P0 .. @P6, PT = unconditional
  bool guard_negated = false;           ///< @!P0
  std::vector<Operand> operands;        ///< in printed order: destinations first
  std::vector<uint32_t> modifiers;      ///< one value per modifier field of the encoding, in table order
  uint64_t address = 0;                 ///< byte offset in the code (branch targets are absolute)

  /// The value of the modifier field called `name` (0 when the encoding has no such field).
  uint32_t modifier(std::string_view name) const;
  /// The printed suffix of that field (".RZ" -> "RZ"); empty when the value prints nothing.
  std::string_view modifier_text(std::string_view name) const;
};

/// Decodes the instruction word at `address`; `program` names the input in errors. Unknown encodings and
/// bits set outside every field of the matching encoding throw kiln::Error naming program, offset and word.
Instruction decode(uint64_t word, uint64_t address, std::string_view program = "sm5x");
/// The 64-bit word for `instruction` (its encoding must be set); throws kiln::Error for values that do not fit.
uint64_t assemble(const Instruction& instruction);
/// nvdisasm-style text without the trailing ';' ("@!P0 FFMA.FTZ R0, R1, c[0x0][0x20], R2"); `reuse` is the
/// instruction's operand-reuse flags from its control word (Scheduling::reuse), printed as ".reuse".
std::string disassemble(const Instruction& instruction, uint8_t reuse = 0);
/// The modifier field that makes an instruction write the condition code, printed on its destination ("R2.CC").
inline constexpr std::string_view kConditionCodeWrite = "CC";
/// A special register's name by hardware number as nvdisasm spells it ("SR_TID.X"), "SR0x.." when unnamed.
std::string special_register_name(unsigned index);

} // namespace kiln::sass::sm5x
