// Writes the freestanding ppc32 Linux program of the qemu-ppc differential test: for every base-ISA row qemu
// can check (integer, XER, CR, FPU arithmetic, compares, conversions, FPSCR), instances with random operands
// (from registers r0/r3-r12 and f1-f6) on random input states. For each case the program loads the input
// state, runs the one instruction, stores the state it produced, and finally writes all cases to stdout.
// Fixed seed: the same program, and the same listing of results, on every build.
#include <bit>
#include <cmath>
#include <cstdio>
#include <vector>

#include "recompiler/isa/ppc/encoding_table.h"
#include "runtime/core/ppc/fields.h"
#include "tests/ppc/differential_cases.h"
#include "tests/ppc/random_values.h"

using namespace kiln::ppc;
using namespace kiln::ppc::differential;
using kiln::ppc::test::RandomValues;

namespace {

RandomValues random_values(750);
uint64_t random_bits() { return random_values.bits(); }
uint32_t gpr_value() { return random_values.gpr(); }
uint64_t fpr_value() { return random_values.fpr(); }

/// Rows qemu-ppc models as the 750CL does. Left out: control flow, traps and sc (they leave the case), loads
/// and stores, privileged and cache instructions, mftb, the SPR moves, fres/frsqrte (qemu computes exact
/// quotients, the 750CL table estimates: tests/ppc/test_semantics_fpu.cpp checks those), and everything the
/// Gekko adds.
bool checked_by_qemu(const Encoding& row) {
  if (row.flow != Flow::none) return false;
  if (row.traits & (trait::loads | trait::stores | trait::privileged | trait::paired | trait::quantized | trait::locked_cache)) return false;
  switch (row.opcode) {
    case Opcode::mftb: case Opcode::mfspr: case Opcode::mtspr: case Opcode::sync: case Opcode::isync:
    case Opcode::eieio: case Opcode::dcbf: case Opcode::dcbst: case Opcode::dcbt: case Opcode::dcbtst: case Opcode::icbi:
    case Opcode::fres: case Opcode::frsqrte:
      return false;
    default: return true;
  }
}

/// A multiplier qemu and the Gekko round alike: a single-precision value (24 significant bits).
uint64_t as_single(uint64_t x) {
  const double v = std::bit_cast<double>(x);
  if (std::isnan(v)) return x & ~((1ull << 29) - 1);
  return std::bit_cast<uint64_t>(static_cast<double>(static_cast<float>(v)));
}

/// A random instance of `row` with operands from the allowed registers; 0 when none is a valid form.
uint32_t instance(const Encoding& row) {
  for (int attempt = 0; attempt < 50; ++attempt) {
    uint32_t w = row.match | (static_cast<uint32_t>(random_bits()) & ~row.mask);
    for (Operand op : row.operands) {
      const uint32_t g = gprs[random_bits() % gpr_count], f = fprs[random_bits() % fpr_count];
      switch (op) {
        case Operand::rd: case Operand::rs: w = (w & ~(31u << 21)) | g << 21; break;
        case Operand::ra: case Operand::ra0: case Operand::ra_w: case Operand::ra_rw: w = (w & ~(31u << 16)) | g << 16; break;
        case Operand::rb: w = (w & ~(31u << 11)) | g << 11; break;
        case Operand::frd: case Operand::frs: w = (w & ~(31u << 21)) | f << 21; break;
        case Operand::fra: w = (w & ~(31u << 16)) | f << 16; break;
        case Operand::frb: w = (w & ~(31u << 11)) | f << 11; break;
        case Operand::frc: w = (w & ~(31u << 6)) | f << 6; break;
        default: break; // immediates, CR fields and bits keep their random value
      }
    }
    if (row.matches(w) && valid_form(row, w)) return w;
  }
  return 0;
}

struct Case {
  uint32_t word;
  uint32_t gpr[gpr_count];
  uint64_t fpr[fpr_count];
  uint32_t cr, xer, fpscr;
};

/// The enables (VE OE UE ZE XE) and NI stay clear: qemu-ppc runs Linux user code with MSR[FE0/FE1] set, so an
/// enabled exception would end the program, and qemu has no non-IEEE mode.
void keep_enables_clear(Case& k, const Encoding& row) {
  switch (row.opcode) {
    case Opcode::mtfsf:
      for (size_t i = 0; i < fpr_count; ++i)
        if (fprs[i] == field::b(k.word)) k.fpr[i] &= ~uint64_t{0xFC};
      break;
    case Opcode::mtfsfi:
      if (field::crfd(k.word) == 6) k.word &= ~(15u << 12);
      if (field::crfd(k.word) == 7) k.word &= ~(12u << 12);
      break;
    case Opcode::mtfsb1:
      if (field::d(k.word) >= 24 && field::d(k.word) <= 29) k.word &= ~(31u << 21);
      break;
    default: break;
  }
}

/// Undefined results the manuals leave to the implementation (qemu and the 750CL may differ): skipped.
bool defined(const Case& k, const Encoding& row) {
  auto gpr_of = [&](unsigned r) {
    for (size_t i = 0; i < gpr_count; ++i)
      if (gprs[i] == r) return k.gpr[i];
    return 0u;
  };
  const uint32_t a = gpr_of(field::a(k.word)), b = gpr_of(field::b(k.word));
  if (row.opcode == Opcode::divw) return b != 0 && !(a == 0x80000000u && b == 0xFFFFFFFFu);
  if (row.opcode == Opcode::divwu) return b != 0;
  return true;
}

void emit_case(const Case& k, size_t index) {
  const size_t base = index * case_size;
  std::printf("\t# case %zu\n", index);
  // r31 = the case, r29 scratch
  std::printf("\tlis 31,(cases+%zu)@ha\n\taddi 31,31,(cases+%zu)@l\n", base, base);
  const size_t in = case_input_offset, out = case_output_offset;
  std::printf("\tlwz 29,%zu(31)\n\tmtcrf 255,29\n", in + state_cr_offset);
  std::printf("\tlwz 29,%zu(31)\n\tmtxer 29\n", in + state_xer_offset);
  std::printf("\tlfd 7,%zu(31)\n\tmtfsf 255,7\n", in + state_fpscr_offset - 4); // the word sits in the low half
  for (size_t i = 0; i < gpr_count; ++i) std::printf("\tlwz %u,%zu(31)\n", gprs[i], in + state_gpr_offset + 4 * i);
  for (size_t i = 0; i < fpr_count; ++i) std::printf("\tlfd %u,%zu(31)\n", fprs[i], in + state_fpr_offset + 8 * i);
  std::printf("\t.long 0x%08x\n", k.word);
  for (size_t i = 0; i < gpr_count; ++i) std::printf("\tstw %u,%zu(31)\n", gprs[i], out + state_gpr_offset + 4 * i);
  for (size_t i = 0; i < fpr_count; ++i) std::printf("\tstfd %u,%zu(31)\n", fprs[i], out + state_fpr_offset + 8 * i);
  std::printf("\tmfcr 29\n\tstw 29,%zu(31)\n", out + state_cr_offset);
  std::printf("\tmfxer 29\n\tstw 29,%zu(31)\n", out + state_xer_offset);
  std::printf("\tmffs 7\n\tstfd 7,%zu(31)\n", out + state_fpscr_offset - 4);
}

void emit_data(const Case& k) {
  std::printf("\t.long 0x%08x, 0\n", k.word);
  for (size_t i = 0; i < gpr_count; ++i) std::printf("\t.long 0x%08x\n", k.gpr[i]);
  std::printf("\t.space %zu\n", state_fpr_offset - gpr_count * 4);
  for (size_t i = 0; i < fpr_count; ++i) std::printf("\t.quad 0x%016llx\n", static_cast<unsigned long long>(k.fpr[i]));
  std::printf("\t.long 0x%08x, 0x%08x, 0, 0x%08x\n", k.cr, k.xer, k.fpscr);
  std::printf("\t.space %zu\n", state_size);
}

} // namespace

int main() {
  static_assert(state_fpscr_offset % 8 == 4, "FPSCR sits in the low word of an 8-byte slot (lfd/stfd)");
  std::vector<Case> cases;
  for (const Encoding& row : encodings()) {
    if (!checked_by_qemu(row)) continue;
    const bool single_multiply = (row.traits & trait::writes_ps1) && (row.opcode == Opcode::fmuls || row.opcode == Opcode::fmadds ||
                                 row.opcode == Opcode::fmsubs || row.opcode == Opcode::fnmadds || row.opcode == Opcode::fnmsubs);
    for (int n = 0; n < 60;) {
      Case k{};
      k.word = instance(row);
      if (!k.word) break;
      for (auto& g : k.gpr) g = gpr_value();
      for (auto& f : k.fpr) f = fpr_value();
      if (single_multiply)
        for (size_t i = 0; i < fpr_count; ++i)
          if (fprs[i] == field::c(k.word)) k.fpr[i] = as_single(k.fpr[i]);
      keep_enables_clear(k, row);
      k.cr = static_cast<uint32_t>(random_bits());
      k.xer = static_cast<uint32_t>(random_bits()) & 0xE000007Fu;
      // Rounding mode and sticky status bits random; the enables and NI clear (Linux runs with exceptions off).
      k.fpscr = static_cast<uint32_t>(random_bits()) & 0x9FFFFF03u & ~0x800u;
      if (!defined(k, row)) continue;
      cases.push_back(k);
      ++n;
    }
  }
  std::printf("# generated by tests/ppc/differential_generator.cpp: %zu cases\n", cases.size());
  std::printf("\t.section .text\n\t.globl _start\n_start:\n");
  for (size_t i = 0; i < cases.size(); ++i) emit_case(cases[i], i);
  // write(1, cases, size); exit(0)
  std::printf("\tli 0,4\n\tli 3,1\n\tlis 4,cases@ha\n\taddi 4,4,cases@l\n\tlis 5,%zu@ha\n\taddi 5,5,%zu@l\n\tsc\n",
              cases.size() * case_size, cases.size() * case_size);
  std::printf("\tli 0,1\n\tli 3,0\n\tsc\n");
  std::printf("\t.section .data\n\t.balign 8\ncases:\n");
  for (const Case& k : cases) emit_data(k);
}
