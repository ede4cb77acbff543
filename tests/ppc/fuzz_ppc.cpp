// libFuzzer target for the Gekko front end and semantics: every 4 bytes are a word to decode (text, effects,
// control flow) and, when it is an instruction, to step on a state seeded from the input, over a 64 KiB
// memory that wraps. Nothing may crash, hang or trip the sanitizers.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "recompiler/isa/ppc/decoder.h"
#include "runtime/core/ppc/step.h"

namespace {

struct WrappingBus {
  uint8_t memory[0x10000] = {};
  uint8_t read8(uint32_t a) { return memory[a & 0xFFFF]; }
  uint16_t read16(uint32_t a) { return static_cast<uint16_t>(read8(a) << 8 | read8(a + 1)); }
  uint32_t read32(uint32_t a) { return uint32_t{read16(a)} << 16 | read16(a + 2); }
  uint64_t read64(uint32_t a) { return uint64_t{read32(a)} << 32 | read32(a + 4); }
  void write8(uint32_t a, uint8_t v) { memory[a & 0xFFFF] = v; }
  void write16(uint32_t a, uint16_t v) { write8(a, static_cast<uint8_t>(v >> 8)); write8(a + 1, static_cast<uint8_t>(v)); }
  void write32(uint32_t a, uint32_t v) { write16(a, static_cast<uint16_t>(v >> 16)); write16(a + 2, static_cast<uint16_t>(v)); }
  void write64(uint32_t a, uint64_t v) { write32(a, static_cast<uint32_t>(v >> 32)); write32(a + 4, static_cast<uint32_t>(v)); }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const kiln::ppc::Decoder decoder;
  static WrappingBus bus;
  kiln::ppc::Cpu c;
  c.msr = kiln::ppc::msr::fp;
  c.spr[kiln::ppc::spr::hid2] = kiln::ppc::hid2::pse | kiln::ppc::hid2::lsqe | kiln::ppc::hid2::lce;
  // Registers from the input's tail so that operands vary with the words.
  for (size_t i = 0; i < 32 && (i + 1) * 8 <= size; ++i) {
    uint64_t v = 0;
    std::memcpy(&v, data + size - (i + 1) * 8, 8);
    c.gpr[i] = static_cast<uint32_t>(v);
    c.fpr[i] = kiln::ppc::Fpr{v, v ^ 0x8000000000000000ull};
  }
  for (size_t i = 0; i + 4 <= size; i += 4) {
    const uint32_t word = uint32_t{data[i]} << 24 | uint32_t{data[i + 1]} << 16 | uint32_t{data[i + 2]} << 8 | data[i + 3];
    const kiln::ppc::Instruction insn = decoder.decode(word, 0x80003000u + static_cast<uint32_t>(i));
    if (!insn.decoded) continue;
    (void)insn.effects();
    (void)insn.control_flow();
    c.pc = insn.address;
    kiln::ppc::step(c, bus, insn.opcode, word);
    c.msr |= kiln::ppc::msr::fp; // keep the FPU on after an exception entry
  }
  return 0;
}
