#pragma once
// MIPS decoding for both variants of the frontend: Capstone (CS_ARCH_MIPS, MIPS32 little endian) names the
// instruction and kiln's encoding table confirms it; the table alone decodes what Capstone 4.0.2 cannot (RFE,
// CFC2/CTC2, GTE commands) and the encodings the R3000A accepts with don't-care fields set.
#include <cstdint>
#include <string>

#include "recompiler/isa/mips/encoding_table.h"

namespace kiln::mips {

struct Instruction {
  uint32_t address = 0;
  uint32_t word = 0;
  bool decoded = false;           ///< false: no instruction of the variant has this encoding
  bool decoded_by_capstone = false; ///< Capstone named it (else kiln's table decoded it)
  Opcode opcode = Opcode::count;
  std::string text;               ///< disassembly, or why the word is not an instruction

  const Encoding& encoding() const { return kiln::mips::encoding(opcode); }
};

class Decoder {
public:
  explicit Decoder(Variant variant);
  ~Decoder();
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  Variant variant() const { return variant_; }
  /// Decodes one word; never throws for any word (decoded = false and the reason in text).
  Instruction decode(uint32_t word, uint32_t address) const;
  /// Decodes or throws kiln::Error naming `file`, the address and the encoding.
  Instruction decode_or_throw(uint32_t word, uint32_t address, const std::string& file) const;

private:
  Variant variant_;
  size_t handle_ = 0; ///< Capstone csh
};

} // namespace kiln::mips
