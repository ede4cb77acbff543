#pragma once
// AArch64 decoding through LLVM 14's MC disassembler (+sve,+mte,+lse,+v8.5a: it decodes every word of static
// glibc, where Capstone 4 fails on SVE/MTE/LSE forms) into kiln::a64::Instruction.
#include <cstdint>
#include <memory>
#include <span>

#include "recompiler/isa/aarch64/instruction.h"

namespace kiln::a64 {

class Decoder {
public:
  Decoder();
  ~Decoder();
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  /// Decodes the 4-byte word at `address`. An undecodable word gives decoded = false (never throws).
  Instruction decode(uint32_t word, uint64_t address, bool with_text = true) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace kiln::a64
