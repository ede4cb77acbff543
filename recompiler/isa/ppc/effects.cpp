// Register effects and control flow of one instruction, read from its table row and word: the data the
// shared pipeline computes spill sets and blocks from (never from emitted text).
#include "recompiler/isa/ppc/encoding_table.h"
#include "runtime/core/ppc/cpu.h"
#include "runtime/core/ppc/fields.h"

namespace kiln::ppc {
namespace {

using namespace trait;

constexpr uint32_t bit(unsigned r) { return 1u << r; }
/// Registers first..31 (lmw/stmw).
constexpr uint32_t from(unsigned first) { return first >= 32 ? 0u : ~0u << first; }

void operand_effects(Operand op, uint32_t w, Effects& e) {
  using namespace field;
  switch (op) {
    case Operand::rd: e.gpr_write |= bit(d(w)); break;
    case Operand::rs: e.gpr_read |= bit(d(w)); break;
    case Operand::ra: e.gpr_read |= bit(a(w)); break;
    case Operand::ra0: case Operand::ra0_named: case Operand::d_ra0: case Operand::psq_d_ra0:
      if (a(w) != 0) e.gpr_read |= bit(a(w));
      break;
    case Operand::ra_w: e.gpr_write |= bit(a(w)); break;
    case Operand::ra_rw: case Operand::d_ra_update: case Operand::psq_d_ra_update:
      e.gpr_read |= bit(a(w));
      e.gpr_write |= bit(a(w));
      break;
    case Operand::rb: e.gpr_read |= bit(b(w)); break;
    case Operand::frd: e.fpr_write |= bit(d(w)); break;
    case Operand::frs: e.fpr_read |= bit(d(w)); break;
    case Operand::fra: e.fpr_read |= bit(a(w)); break;
    case Operand::frb: e.fpr_read |= bit(b(w)); break;
    case Operand::frc: e.fpr_read |= bit(c(w)); break;
    case Operand::crfd: e.cr_write |= static_cast<uint8_t>(bit(crfd(w))); break;
    case Operand::crfs: e.cr_read |= static_cast<uint8_t>(bit(crfs(w))); break;
    // A CR-logical result replaces one bit of its field: the other three are read back.
    case Operand::crbd: e.cr_read |= static_cast<uint8_t>(bit(d(w) >> 2)); e.cr_write |= static_cast<uint8_t>(bit(d(w) >> 2)); break;
    case Operand::crba: e.cr_read |= static_cast<uint8_t>(bit(a(w) >> 2)); break;
    case Operand::crbb: e.cr_read |= static_cast<uint8_t>(bit(b(w) >> 2)); break;
    default: break;
  }
}

constexpr uint16_t all_special = 0x3FFF;

void everything(Effects& e) {
  e.gpr_read = e.gpr_write = e.fpr_read = e.fpr_write = ~0u;
  e.cr_read = e.cr_write = 0xFF;
  e.special_read = e.special_write = all_special;
  e.may_raise = true;
}

/// SPR numbers with a home of their own in the state (Special bits); the rest are special_spr.
uint16_t special_of_spr(unsigned n) {
  switch (n) {
    case spr::xer: return special_xer_so | special_xer_ov | special_xer_ca | special_xer_count;
    case spr::lr: return special_lr;
    case spr::ctr: return special_ctr;
    case spr::srr0: case spr::srr1: return special_srr;
    case spr::tbl_read: case spr::tbu_read: case spr::tbl_write: case spr::tbu_write: return special_timebase;
    default: return special_spr;
  }
}

} // namespace

Effects effects(const Encoding& row, uint32_t w) {
  using namespace field;
  Effects e;
  for (Operand op : row.operands) operand_effects(op, w, e);
  if (row.has(reads_ca)) e.special_read |= special_xer_ca;
  if (row.has(writes_ca)) e.special_write |= special_xer_ca;
  if (row.has(has_oe) && oe(w)) {
    e.special_read |= special_xer_so; // SO is sticky: the new SO is the old one or OV
    e.special_write |= special_xer_ov | special_xer_so;
  }
  const bool record = row.has(always_rc) || (row.has(has_rc) && rc(w));
  if (record && row.has(floating)) {
    e.cr_write |= 1u << 1; // CR1 = FPSCR[FX FEX VX OX]
    e.special_read |= special_fpscr;
  } else if (record) {
    e.cr_write |= 1u << 0; // CR0 = LT GT EQ and a copy of XER[SO]
    e.special_read |= special_xer_so;
  }
  if (row.has(floating)) {
    e.special_read |= special_msr; // MSR[FP]
    e.may_raise = true;
  }
  if (row.has(fpscr_rw)) {
    e.special_read |= special_fpscr;
    e.special_write |= special_fpscr;
  }
  if (row.has(paired) || row.has(quantized) || row.has(locked_cache)) {
    e.special_read |= special_spr; // HID2 (and the GQR below)
    e.may_raise = true;
  }
  if (row.has(quantized)) e.spr = spr::gqr0 + (row.opcode == Opcode::psq_lx || row.opcode == Opcode::psq_lux ||
                                                        row.opcode == Opcode::psq_stx || row.opcode == Opcode::psq_stux
                                                    ? psq_ix(w) : psq_i(w));
  if (row.has(privileged)) {
    e.special_read |= special_msr; // MSR[PR]
    e.may_raise = true;
  }
  if (row.has(loads)) e.special_read |= special_memory;
  if (row.has(stores)) e.special_write |= special_memory;

  switch (row.opcode) {
    // lmw/stmw (and lwarx/stwcx. below): the alignment exception for an address that is not word aligned.
    case Opcode::lmw: e.gpr_write = from(d(w)); e.may_raise = true; break;
    case Opcode::stmw: e.gpr_read |= from(d(w)); e.may_raise = true; break;
    // lswi fills registers rD upwards, wrapping from r31 to r0, one per 4 bytes.
    case Opcode::lswi: {
      const unsigned bytes = b(w) == 0 ? 32 : b(w);
      e.gpr_write = 0;
      for (unsigned i = 0; i < (bytes + 3) / 4; ++i) e.gpr_write |= bit((d(w) + i) & 31);
      break;
    }
    case Opcode::stswi: {
      const unsigned bytes = b(w) == 0 ? 32 : b(w);
      e.gpr_read &= ~bit(d(w));
      for (unsigned i = 0; i < (bytes + 3) / 4; ++i) e.gpr_read |= bit((d(w) + i) & 31);
      break;
    }
    // The XER byte count decides how many registers: any of them.
    case Opcode::lswx: e.gpr_write = ~0u; e.special_read |= special_xer_count; break;
    case Opcode::stswx: e.gpr_read = ~0u; e.special_read |= special_xer_count; break;
    case Opcode::lwarx: e.special_write |= special_reservation; e.may_raise = true; break;
    case Opcode::stwcx_dot: e.special_read |= special_reservation; e.special_write |= special_reservation; e.may_raise = true; break;
    case Opcode::mcrxr:
      e.special_read |= special_xer_so | special_xer_ov | special_xer_ca;
      e.special_write |= special_xer_so | special_xer_ov | special_xer_ca;
      break;
    case Opcode::mtcrf: e.cr_write = static_cast<uint8_t>(
        ((crm(w) & 0x80) ? 1 : 0) | ((crm(w) & 0x40) ? 2 : 0) | ((crm(w) & 0x20) ? 4 : 0) | ((crm(w) & 0x10) ? 8 : 0) |
        ((crm(w) & 0x08) ? 16 : 0) | ((crm(w) & 0x04) ? 32 : 0) | ((crm(w) & 0x02) ? 64 : 0) | ((crm(w) & 0x01) ? 128 : 0));
      break;
    case Opcode::mfcr: e.cr_read = 0xFF; break;
    case Opcode::mcrfs: e.special_read |= special_fpscr; e.special_write |= special_fpscr; break;
    case Opcode::mffs: e.special_read |= special_fpscr; break;
    case Opcode::mfspr: case Opcode::mftb:
      e.spr = spr_number(w);
      e.special_read |= special_of_spr(spr_number(w));
      e.may_raise = true; // an SPR the 750CL lacks, or a supervisor one in user mode
      break;
    case Opcode::mtspr:
      e.spr = spr_number(w);
      e.special_write |= special_of_spr(spr_number(w));
      e.may_raise = true;
      break;
    case Opcode::mfmsr: e.special_read |= special_msr; break;
    case Opcode::mtmsr: e.special_write |= special_msr; break;
    case Opcode::mfsr: case Opcode::mfsrin: e.special_read |= special_segment; break;
    case Opcode::mtsr: case Opcode::mtsrin: e.special_write |= special_segment; break;
    case Opcode::eciwx: case Opcode::ecowx: e.special_read |= special_spr; e.spr = spr::ear; e.may_raise = true; break;
    case Opcode::b:
      if (lk(w)) e.special_write |= special_lr;
      break;
    case Opcode::bc: case Opcode::bclr: case Opcode::bcctr: {
      const unsigned bo = d(w);
      if ((bo & 16) == 0) e.cr_read |= static_cast<uint8_t>(bit(a(w) >> 2));
      if ((bo & 4) == 0) {
        e.special_read |= special_ctr;
        e.special_write |= special_ctr;
      }
      if (row.opcode == Opcode::bclr) e.special_read |= special_lr;
      if (row.opcode == Opcode::bcctr) e.special_read |= special_ctr;
      if (lk(w)) e.special_write |= special_lr;
      break;
    }
    case Opcode::tw: case Opcode::twi: e.may_raise = true; break;
    case Opcode::rfi:
      e.special_read |= special_srr | special_msr;
      e.special_write |= special_msr;
      break;
    case Opcode::sc: everything(e); break;
    default: break;
  }
  return e;
}

ControlFlow control_flow(const Encoding& row, uint32_t w, uint32_t address) {
  using namespace field;
  ControlFlow f;
  const unsigned bo = d(w);
  const bool always = (bo & 20) == 20; // condition ignored and CTR not tested
  switch (row.flow) {
    case Flow::none: break;
    case Flow::branch:
      f.kind = lk(w) ? FlowKind::call : FlowKind::jump;
      f.target = aa(w) ? static_cast<uint32_t>(li(w)) : address + static_cast<uint32_t>(li(w));
      break;
    case Flow::branch_conditional:
      f.kind = lk(w) ? FlowKind::call : FlowKind::jump;
      f.conditional = !always;
      f.target = aa(w) ? static_cast<uint32_t>(bd(w)) : address + static_cast<uint32_t>(bd(w));
      f.decrements_ctr = (bo & 4) == 0;
      break;
    case Flow::branch_to_lr:
      f.kind = lk(w) ? FlowKind::indirect_call : FlowKind::return_;
      f.conditional = !always;
      f.via = Via::lr;
      f.decrements_ctr = (bo & 4) == 0;
      break;
    case Flow::branch_to_ctr:
      f.kind = lk(w) ? FlowKind::indirect_call : FlowKind::indirect_jump;
      f.conditional = !always;
      f.via = Via::ctr;
      break;
    case Flow::system_call: f.kind = FlowKind::system_call; break;
    case Flow::trap:
      // A TO covering every signed (lt gt eq) or every unsigned (llt lgt eq) outcome always traps.
      f.kind = FlowKind::trap;
      f.conditional = (d(w) & 28) != 28 && (d(w) & 7) != 7;
      break;
    case Flow::exception_return: f.kind = FlowKind::exception_return; break;
  }
  return f;
}

} // namespace kiln::ppc
