#include "recompiler/isa/ppc/decoder.h"

#include <capstone/capstone.h>
#include <fmt/format.h>

#include <algorithm>

#include "runtime/base/error.h"

namespace kiln::ppc {
namespace {

bool names_row(const Encoding& row, unsigned id) {
  if (row.beyond_capstone) return false;
  return std::find(std::begin(row.capstone_ids), std::end(row.capstone_ids), id) != std::end(row.capstone_ids) ||
         std::find(row.capstone_family.begin(), row.capstone_family.end(), id) != row.capstone_family.end();
}

} // namespace

Decoder::Decoder() {
  csh handle = 0;
  if (cs_open(CS_ARCH_PPC, static_cast<cs_mode>(CS_MODE_32 | CS_MODE_BIG_ENDIAN), &handle) != CS_ERR_OK)
    throw Error("Capstone: cannot open a PowerPC 32-bit big-endian disassembler");
  handle_ = handle;
}

Decoder::~Decoder() {
  csh handle = handle_;
  cs_close(&handle);
}

Instruction Decoder::decode(uint32_t word, uint32_t address) const {
  Instruction out;
  out.address = address;
  out.word = word;
  // The table decides what the word is: its strict masks and BO rules are the 750CL's valid forms.
  const Encoding* row = match_encoding(word);
  const uint8_t bytes[4] = {static_cast<uint8_t>(word >> 24), static_cast<uint8_t>(word >> 16),
                            static_cast<uint8_t>(word >> 8), static_cast<uint8_t>(word)};
  cs_insn* insn = nullptr;
  const size_t count = cs_disasm(handle_, bytes, sizeof bytes, address, 1, &insn);
  std::string capstone_text;
  bool capstone_agrees = false;
  if (count == 1) {
    capstone_agrees = row && names_row(*row, insn->id);
    capstone_text = insn->op_str[0] ? fmt::format("{} {}", insn->mnemonic, insn->op_str) : std::string(insn->mnemonic);
  }
  if (count > 0) cs_free(insn, count);
  if (row) {
    out.decoded = true;
    out.decoded_by_capstone = capstone_agrees;
    out.opcode = row->opcode;
    out.text = format_instruction(*row, word, address);
    return out;
  }
  out.text = capstone_text.empty()
                 ? fmt::format("unknown instruction {:#010x}", word)
                 : fmt::format("'{}' ({:#010x}) is not a Gekko (PowerPC 750CL) instruction", capstone_text, word);
  return out;
}

Instruction Decoder::decode_or_throw(uint32_t word, uint32_t address, const std::string& file) const {
  Instruction instruction = decode(word, address);
  if (!instruction.decoded) throw Error(at_address(file, address), instruction.text);
  return instruction;
}

} // namespace kiln::ppc
