#pragma once
// One decoded instruction of the Volta-family 128-bit SASS encoding, as ptxas emits it for Ampere (SM86) and
// Turing (SM75). The encoding table (encoding_table.h) drives decode(), disassemble() and assemble(), so the
// three always agree; this header is what the rest of the translator consumes.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::sass::sm86 {

/// The raw 128-bit instruction word: bits 0-63 in `low`, 64-127 in `high` (little-endian in memory).
struct Word128 {
  uint64_t low = 0;
  uint64_t high = 0;

  /// Bits [lsb, lsb+width) with width <= 64; the field may straddle bit 64.
  uint64_t field(unsigned lsb, unsigned width) const;
  void set_field(unsigned lsb, unsigned width, uint64_t value);
  bool bit(unsigned index) const { return field(index, 1) != 0; }
  static Word128 from_bytes(std::span<const uint8_t, 16> bytes);
  friend bool operator==(const Word128&, const Word128&) = default;
};

enum class Architecture : uint8_t { sm75, sm86 };

enum class Opcode : uint16_t {
#define KILN_SM86_OPCODE(name) name,
#include "translator/sass/sm86/opcodes.def"
#undef KILN_SM86_OPCODE
};
std::string_view opcode_name(Opcode opcode);

/// An instruction modifier as nvdisasm prints it after the mnemonic ("FADD.FTZ.RZ" has FTZ and RZ). Tokens
/// that start with a digit get an `n` prefix (".64" is Modifier::n64); NAN is Modifier::NAN_ (a <cmath> macro).
enum class Modifier : uint16_t {
#define KILN_SM86_MODIFIER(name, text) name,
#include "translator/sass/sm86/modifiers.def"
#undef KILN_SM86_MODIFIER
};
std::string_view modifier_text(Modifier modifier);

inline constexpr uint8_t kRZ = 255;   ///< the zero GPR
inline constexpr uint8_t kURZ = 63;   ///< the zero uniform GPR
inline constexpr uint8_t kPT = 7;     ///< the true predicate (PT / UPT)

enum class OperandKind : uint8_t {
  gpr,                ///< R0-R254, RZ (index 255)
  uniform_gpr,        ///< UR0-UR62, URZ (index 63)
  predicate,          ///< P0-P6, PT (index 7)
  uniform_predicate,  ///< UP0-UP6, UPT (index 7)
  barrier,            ///< convergence barrier B0-B15 (BSSY/BSYNC/BMOV)
  immediate,          ///< a literal; `value` holds its bits, `immediate_type` how to read them
  constant_buffer,    ///< c[bank][index + offset]; bank may be a uniform register (`uniform_bank`)
  memory,             ///< [base(.64) + uniform base + offset]
  special_register,   ///< SR_TID.X, SR_CTAID.Y, SR_LANEID, SR_CLOCKLO, ...: `index` is the hardware number
  attribute,          ///< a[offset] (graphics stages: IPA/ALD/AST)
  branch_target,      ///< an absolute byte offset in the kernel's code (`value`)
  enumerant,          ///< a named value printed as a word (texture dimension "2D", "PNNPPNNP", ...): `text`
};

enum class ImmediateType : uint8_t {
  integer,      ///< printed as hex; `value` is the sign-extended integer
  float32,      ///< `value` holds the IEEE single bits
  float64_high, ///< `value` holds the upper 32 bits of an IEEE double (the low half is zero)
  float16x2,    ///< `value` holds two IEEE halves (low half = first printed)
};

struct Operand {
  OperandKind kind = OperandKind::gpr;
  uint16_t index = 0;           ///< register/predicate/barrier number; special register number; constant bank
  bool negate = false;          ///< "-R1" (float or integer negation)
  bool absolute = false;        ///< "|R1|"
  bool invert = false;          ///< "!P0" for predicates, "~R1" for bitwise-inverted integer sources
  bool reuse = false;           ///< ".reuse": operand-reuse cache hint (no semantic effect)
  std::string_view suffix;      ///< text after the operand: "64" in R2.64, "H1_H1" in R0.H1_H1, "X" in SR_TID.X
  ImmediateType immediate_type = ImmediateType::integer;
  int64_t value = 0;            ///< immediate bits, branch target, memory/constant-buffer byte offset
  std::string_view text;        ///< enumerant name; special register name
  // Memory and constant-buffer addresses:
  uint8_t base = kRZ;           ///< GPR base/index (kRZ: none)
  bool base_is_64 = false;      ///< "[R2.64]": the base is a 64-bit register pair
  uint8_t uniform_base = kURZ;  ///< uniform register added to the address (kURZ: none); bank register if uniform_bank
  bool uniform_bank = false;    ///< "cx[UR4][...]": constant bank taken from a uniform register
  bool has_uniform_base = false; ///< memory: the form adds a uniform register (printed even when URZ)
  bool omitted = false;         ///< nvdisasm leaves this operand out because it holds its default (PT, 0xf, ...)

  bool is_register(OperandKind k, uint16_t number) const { return kind == k && index == number; }
};

/// The scheduling control bits (bits 105-125) that ptxas sets for each instruction.
struct Control {
  uint8_t stall = 0;          ///< cycles to wait before issuing the next instruction (0-15)
  bool yield = false;
  uint8_t write_barrier = 7;  ///< scoreboard set when the result is written (7: none)
  uint8_t read_barrier = 7;   ///< scoreboard set when the sources have been read (7: none)
  uint8_t wait_mask = 0;      ///< scoreboards waited on before issue (bit n = SBn)
  uint8_t reuse_mask = 0;     ///< operand-reuse flags (bit 0: first source slot, ...)
};

struct Instruction {
  uint64_t offset = 0;        ///< byte offset inside the kernel's code
  Word128 word;               ///< the raw encoding
  Opcode opcode{};
  uint8_t guard = kPT;        ///< guard predicate P0-P6, kPT when unconditional
  bool guard_negated = false; ///< "@!P0"
  bool guard_uniform = false; ///< the guard is a uniform predicate (UP0-UP6), as on uniform-datapath instructions
  std::vector<Modifier> modifiers;  ///< in nvdisasm's printing order
  std::vector<Operand> operands;    ///< destinations first, as nvdisasm prints them
  Control control;
  uint16_t form = 0;          ///< index of the encoding-table entry that decoded it (for assemble())

  bool has(Modifier modifier) const;
  bool is_predicated() const { return guard != kPT || guard_negated; }
};

/// Where the bytes come from, for error messages ("file: offset 0x...: kernel K: unknown instruction ...").
struct DecodeLocation {
  std::string file;             ///< cubin path (or corpus file name)
  std::string kernel;           ///< kernel (function) name; empty for raw code
  uint64_t file_offset = 0;     ///< where the code starts inside `file`
};

/// Decodes one 128-bit word found at `offset` bytes into the code. Throws kiln::Error naming the file, the
/// kernel, the offset and the 128-bit word when no table entry matches (never guesses).
Instruction decode(const Word128& word, uint64_t offset, const DecodeLocation& location,
                   Architecture architecture = Architecture::sm86);

/// Decodes a whole code section (its size must be a multiple of 16 bytes).
std::vector<Instruction> decode_all(std::span<const uint8_t> code, const DecodeLocation& location,
                                    Architecture architecture = Architecture::sm86);

/// nvdisasm's text of one instruction without the trailing " ;", e.g. "@!P0 FADD.FTZ R3, R17, -R20".
/// Branch targets print as absolute hex offsets ("BRA 0x120"), as `nvdisasm -b SM75` does on raw code.
std::string disassemble(const Instruction& instruction);

/// Encodes an instruction again from its decoded form (operands, modifiers, control bits). For every word the
/// decoder accepts, assemble(decode(w)) == w: the table accounts for every bit.
Word128 assemble(const Instruction& instruction);

} // namespace kiln::sass::sm86
