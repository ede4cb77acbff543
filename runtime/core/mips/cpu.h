#pragma once
// The MIPS R3000A guest CPU state (also used by the MIPS32r2 linux-user variant): general registers, HI/LO,
// the load-delay and branch-delay state the R3000 pipeline exposes, and the COP0 registers exceptions use.
// Recompiled code and the step interpreter (runtime/core/mips/step.h) both run on it through r3000_ops.h.
#include <cstdint>

namespace kiln::r3000 {

/// Which pipeline the frontend models. The PS1's R3000A has a load delay slot (a load's value is not visible to
/// the next instruction); MIPS32r2 (what mipsel-linux-gnu-gcc targets) interlocks loads instead.
enum class Variant : uint8_t { r3000, mips32r2 };

/// Cause.ExcCode values (psx-spx "COP0 - Exception Handling").
enum class ExceptionCode : uint32_t {
  interrupt = 0x00,
  address_load = 0x04,  ///< AdEL: misaligned load or instruction fetch
  address_store = 0x05, ///< AdES: misaligned store
  bus_instruction = 0x06,
  bus_data = 0x07,
  syscall = 0x08,
  breakpoint = 0x09,
  reserved_instruction = 0x0A,
  coprocessor_unusable = 0x0B,
  overflow = 0x0C,
  trap = 0x0D, ///< TEQ/TNE (MIPS32)
};

/// COP0 registers the R3000A implements (index = cop0 register number).
namespace cop0 {
constexpr unsigned bpc = 3, bda = 5, tar = 6, dcic = 7, bad_vaddr = 8, bdam = 9, bpcm = 11, status = 12, cause = 13,
                   epc = 14, prid = 15;
constexpr uint32_t status_bev = 1u << 22; ///< boot exception vectors (in ROM)
constexpr uint32_t status_cu0 = 1u << 28, status_cu2 = 1u << 30;
constexpr uint32_t cause_bd = 1u << 31; ///< exception in a branch delay slot
constexpr uint32_t cause_bt = 1u << 30; ///< ... of a taken branch
constexpr uint32_t cause_ip_software = 0x300; ///< IP0/IP1: the only writable Cause bits
constexpr uint32_t r3000a_prid = 0x00000002;
} // namespace cop0

/// A load whose value reaches its register at the end of the next instruction.
struct PendingLoad {
  int32_t reg = -1; ///< -1: none (a load to $zero is pending with reg 0, and then discarded)
  uint32_t value = 0;
  bool operator==(const PendingLoad&) const = default;
};

/// A branch whose delay slot runs next (or is running): after the delay slot, PC = target when `taken`.
struct PendingBranch {
  uint32_t target = 0;
  bool slot = false;
  bool taken = false;
  bool operator==(const PendingBranch&) const = default;
};

struct Cpu {
  uint32_t gpr[32] = {};
  uint32_t hi = 0, lo = 0;
  uint32_t pc = 0; ///< address of the instruction being executed (the step interpreter advances it)
  PendingLoad load;      ///< issued by the previous instruction: lands at the end of this one
  PendingLoad next_load; ///< issued by this instruction
  PendingBranch delay;   ///< the branch whose delay slot this instruction is (slot = false: none)
  PendingBranch branch;  ///< issued by this instruction (its delay slot is the next one)
  uint32_t cop0[32] = {};
  bool exception_taken = false; ///< set when this instruction raised an exception (PC is then the vector)
  uint32_t fpr[32] = {}; ///< MIPS32r2 COP1 (FR = 0, the o32 mode: a double is the even/odd pair, low word even)
  uint32_t fcsr = 0;     ///< COP1 control register 31

  Cpu() { cop0[cop0::prid] = cop0::r3000a_prid; }
};

/// The register write every instruction uses: a write wins over a load still in flight to the same register.
inline void set_gpr(Cpu& c, unsigned reg, uint32_t value) {
  if (reg != 0) c.gpr[reg] = value;
  if (c.load.reg == static_cast<int32_t>(reg)) c.load.reg = -1;
}

/// The end of an instruction's load-delay step: the previous instruction's load lands, this one's becomes pending.
inline void retire_load(Cpu& c) {
  if (c.load.reg > 0) c.gpr[c.load.reg] = c.load.value;
  c.load = c.next_load;
  c.next_load = PendingLoad{};
}

/// The address of the instruction that follows the one at `pc` in execution order: the target of a taken branch
/// whose delay slot `pc` is, else pc + 4. The R3000 computes branch targets and link addresses from it, so a
/// branch in a taken branch's delay slot is relative to that target (as the r3000-singlestep vectors show).
inline uint32_t following_address(const Cpu& c, uint32_t pc) {
  return (c.delay.slot && c.delay.taken) ? c.delay.target : pc + 4;
}

/// Exception entry for instruction `word` at `pc` (psx-spx / ares): EPC and Cause.BD/BT/TAR account for a delay
/// slot, the KU/IE stack in Status is pushed, PC goes to the general vector. Cause.CE receives the instruction's
/// bits 26-27 (the coprocessor number for COPz/LWCz/SWCz; the R3000A latches those bits for every exception).
inline void raise_exception(Cpu& c, ExceptionCode code, uint32_t word, uint32_t pc) {
  uint32_t cause = c.cop0[cop0::cause] & 0x0000FF00u;
  cause |= static_cast<uint32_t>(code) << 2 | ((word >> 26) & 3) << 28;
  uint32_t epc = pc;
  if (c.delay.slot) {
    epc = pc - 4;
    cause |= cop0::cause_bd;
    if (c.delay.taken) cause |= cop0::cause_bt;
    c.cop0[cop0::tar] = c.delay.target;
  }
  c.cop0[cop0::cause] = cause;
  c.cop0[cop0::epc] = epc;
  uint32_t& status = c.cop0[cop0::status];
  status = (status & ~0x3Fu) | ((status << 2) & 0x3Cu);
  c.pc = (status & cop0::status_bev) ? 0xBFC00180u : 0x80000080u;
  c.delay = PendingBranch{};
  c.branch = PendingBranch{};
  c.exception_taken = true;
}

} // namespace kiln::r3000
