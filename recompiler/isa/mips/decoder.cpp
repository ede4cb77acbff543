#include "recompiler/isa/mips/decoder.h"

#include <capstone/capstone.h>
#include <fmt/format.h>

#include <algorithm>

#include "runtime/base/error.h"

namespace kiln::mips {
namespace {

const Encoding* row_for_capstone_id(unsigned id, uint32_t word, Variant variant) {
  for (const Encoding& row : encodings()) {
    const bool named = std::find(std::begin(row.capstone_ids), std::end(row.capstone_ids), id) != std::end(row.capstone_ids);
    if (named && row.matches(word, variant)) return &row;
  }
  return nullptr;
}

const char* variant_name(Variant v) { return v == Variant::r3000 ? "R3000A" : "MIPS32r2"; }

} // namespace

Decoder::Decoder(Variant variant) : variant_(variant) {
  csh handle = 0;
  if (cs_open(CS_ARCH_MIPS, static_cast<cs_mode>(CS_MODE_MIPS32 | CS_MODE_LITTLE_ENDIAN), &handle) != CS_ERR_OK)
    throw Error("Capstone: cannot open a MIPS32 little-endian disassembler");
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
  const uint8_t bytes[4] = {static_cast<uint8_t>(word), static_cast<uint8_t>(word >> 8), static_cast<uint8_t>(word >> 16),
                            static_cast<uint8_t>(word >> 24)};
  cs_insn* insn = nullptr;
  const size_t count = cs_disasm(handle_, bytes, sizeof bytes, address, 1, &insn);
  const Encoding* row = nullptr;
  std::string capstone_text;
  if (count == 1) {
    row = row_for_capstone_id(insn->id, word, variant_);
    capstone_text = insn->op_str[0] ? fmt::format("{} {}", insn->mnemonic, insn->op_str) : std::string(insn->mnemonic);
  }
  if (count > 0) cs_free(insn, count);
  if (row) {
    out.decoded = out.decoded_by_capstone = true;
    out.opcode = row->opcode;
    out.text = std::move(capstone_text);
    return out;
  }
  // Capstone had no instruction, or one kiln's variant reads differently (the R3000A ignores unused fields and
  // decodes every REGIMM rt): the table decides.
  row = match_encoding(word, variant_);
  if (row) {
    out.decoded = true;
    out.opcode = row->opcode;
    out.text = format_instruction(*row, word, address);
    return out;
  }
  out.text = capstone_text.empty()
                 ? fmt::format("unknown instruction {:#010x}", word)
                 : fmt::format("'{}' ({:#010x}) is not an {} instruction kiln supports", capstone_text, word, variant_name(variant_));
  return out;
}

Instruction Decoder::decode_or_throw(uint32_t word, uint32_t address, const std::string& file) const {
  Instruction instruction = decode(word, address);
  if (!instruction.decoded) throw Error(at_address(file, address), instruction.text);
  return instruction;
}

} // namespace kiln::mips
