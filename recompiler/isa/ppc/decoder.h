#pragma once
// Gekko decoding: Capstone (CS_ARCH_PPC, 32-bit big endian) names the base-ISA instruction and kiln's encoding
// table confirms it; the table alone decodes what Capstone 4.0.2 cannot or gets wrong (the OE forms, mcrxr,
// lswx/stswx, eciwx/ecowx, fcmpo, mtfsb0./mtfsb1., and everything the Gekko adds: paired singles, psq_*,
// dcbz_l, which Capstone reads as AltiVec/VSX or not at all). The text is always kiln's (objdump -M750cl style),
// so it does not depend on which of the two named the instruction.
#include <cstdint>
#include <string>

#include "recompiler/isa/ppc/encoding_table.h"

namespace kiln::ppc {

struct Instruction {
  uint32_t address = 0;
  uint32_t word = 0;
  bool decoded = false;             ///< false: no 750CL/Gekko instruction has this encoding
  bool decoded_by_capstone = false; ///< Capstone named it (else kiln's table decoded it alone)
  Opcode opcode = Opcode::count;
  std::string text;                 ///< disassembly, or why the word is not an instruction

  const Encoding& encoding() const { return kiln::ppc::encoding(opcode); }
  Effects effects() const { return kiln::ppc::effects(encoding(), word); }
  ControlFlow control_flow() const { return kiln::ppc::control_flow(encoding(), word, address); }
};

class Decoder {
public:
  Decoder();
  ~Decoder();
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  /// Decodes one word; never throws for any word (decoded = false and the reason in text).
  Instruction decode(uint32_t word, uint32_t address) const;
  /// Decodes or throws kiln::Error naming `file`, the address and the encoding.
  Instruction decode_or_throw(uint32_t word, uint32_t address, const std::string& file) const;

private:
  size_t handle_ = 0; ///< Capstone csh
};

} // namespace kiln::ppc
