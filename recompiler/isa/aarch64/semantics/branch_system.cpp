// Branches, calls, returns, system registers, barriers, hints and supervisor calls.
#include "recompiler/isa/aarch64/semantics/handlers.h"

namespace kiln::a64::sem {
namespace {

uint64_t target_of(const Instruction& i, int64_t words) { return i.address + static_cast<uint64_t>(words) * 4; }

void branch(const Instruction& i, EmitTarget& out) {
  const std::string_view op = i.opcode;
  if (op == "B") out.branch(target_of(i, i.imm(0)));
  else if (op == "BL") {
    out.line(fmt::format("x30 = {};", hex(i.address + 4)));
    out.call(target_of(i, i.imm(0)), i.address + 4);
  } else if (op == "Bcc") out.branch_if(condition(i.imm(0)), target_of(i, i.imm(1)));
  else if (starts_with(op, "CBZ")) out.branch_if(fmt::format("{} == 0", read(i.reg(0))), target_of(i, i.imm(1)));
  else if (starts_with(op, "CBNZ")) out.branch_if(fmt::format("{} != 0", read(i.reg(0))), target_of(i, i.imm(1)));
  else if (starts_with(op, "TBZ")) out.branch_if(fmt::format("(({} >> {}) & 1) == 0", read(i.reg(0)), i.imm(1)), target_of(i, i.imm(2)));
  else if (starts_with(op, "TBNZ")) out.branch_if(fmt::format("(({} >> {}) & 1) != 0", read(i.reg(0)), i.imm(1)), target_of(i, i.imm(2)));
  else if (op == "BR") out.branch_indirect(read(i.reg(0)));
  else if (op == "BLR") {
    out.line(fmt::format("{{ const uint64_t target = {};", read(i.reg(0))));
    out.line(fmt::format("x30 = {};", hex(i.address + 4)));
    out.call_indirect("target", i.address + 4);
    out.line("}");
  } else if (op == "RET") out.return_to(read(i.reg(0)));
}

using system_register::tpidr_el0, system_register::fpcr, system_register::fpsr, system_register::nzcv;

void mrs(const Instruction& i, EmitTarget& out) {
  const int64_t reg = i.imm(1);
  if (reg == tpidr_el0) out.line(write(i.reg(0), "c->tpidr"));
  else if (reg == fpcr) out.line(write(i.reg(0), "c->fpcr"));
  else if (reg == fpsr) out.line(write(i.reg(0), "kiln::rt::fp_read_fpsr(c)")); // the host's flags (runtime/core/aarch64/fp.h)
  else if (reg == nzcv) out.line(write(i.reg(0), "(uint64_t)(n << 31 | z << 30 | cf << 29 | vf << 28)"));
  else {
    out.line(write(i.reg(0), fmt::format("kiln::rt::read_system_register(c, {}, {})", reg, hex(i.address))));
  }
}

void msr(const Instruction& i, EmitTarget& out) {
  const int64_t reg = i.imm(0);
  const std::string value = read(i.reg(1));
  if (reg == tpidr_el0) out.line(fmt::format("c->tpidr = {};", value));
  else if (reg == fpcr) out.line(fmt::format("kiln::rt::fp_write_fpcr(c, {});", value)); // sets the host rounding mode
  else if (reg == fpsr) out.line(fmt::format("kiln::rt::fp_write_fpsr(c, {});", value));
  else if (reg == nzcv) out.line(fmt::format("{{ const uint64_t f = {}; n = (f >> 31) & 1; z = (f >> 30) & 1; cf = (f >> 29) & 1; vf = (f >> 28) & 1; }}", value));
  else out.line(fmt::format("kiln::rt::write_system_register(c, {}, {}, {});", reg, value, hex(i.address)));
}

void nothing(const Instruction&, EmitTarget&) {}

void clear_exclusive(const Instruction&, EmitTarget& out) { out.line("c->exclusive_address = ~0ull;"); }

void hint(const Instruction& i, EmitTarget& out) {
  // NOP, YIELD, BTI and the pointer-authentication hints: kiln reports no PAuth in HWCAP, and on such a CPU
  // these encodings execute as NOPs (Arm ARM: the HINT space).
  (void)i;
  (void)out;
}

void system(const Instruction& i, EmitTarget& out) {
  // SYS #op1, Cn, Cm, #op2, Xt: DC ZVA (3, 7, 4, 1) zeroes the 64-byte block DCZID_EL0 announces; cache
  // maintenance (DC CVAU/CIVAC, IC IVAU) has nothing to do on the host.
  if (i.imm(0) == 3 && i.imm(1) == 7 && i.imm(2) == 4 && i.imm(3) == 1) {
    out.line(fmt::format("std::memset(kiln::rt::host_pointer({} & ~63ull), 0, 64);", read(i.reg(4))));
  }
}

void supervisor(const Instruction&, EmitTarget& out) { out.supervisor_call(); }

void trap(const Instruction& i, EmitTarget& out) {
  out.line(fmt::format("kiln::rt::trap_instruction(c, {}, {:#x}u, \"{}\");", hex(i.address), i.encoding, i.opcode));
}

} // namespace

void register_branch(Registry& r) {
  for (const char* name : {"B", "BL", "Bcc", "CBZW", "CBZX", "CBNZW", "CBNZX", "TBZW", "TBZX", "TBNZW", "TBNZX", "BR", "BLR", "RET"})
    r[name] = branch;
}

void register_system(Registry& r) {
  r["MRS"] = mrs;
  r["MSR"] = msr;
  for (const char* name : {"DMB", "DSB", "ISB", "PRFMui", "PRFMl", "PRFMroX", "PRFMroW", "PRFUMi", "SB"}) r[name] = nothing;
  for (const char* name : {"HINT", "XPACLRI", "PACIASP", "AUTIASP", "PACIBSP", "AUTIBSP", "AUTIA1716", "AUTIB1716",
                           "PACIA1716", "PACIB1716", "PACIAZ", "AUTIAZ", "PACIBZ", "AUTIBZ"})
    r[name] = hint;
  r["CLREX"] = clear_exclusive;
  r["SYSxt"] = system;
  r["SVC"] = supervisor;
  for (const char* name : {"BRK", "UDF", "HLT"}) r[name] = trap;
}

} // namespace kiln::a64::sem
