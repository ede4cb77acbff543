#pragma once
// The layout shared by the differential generator (differential_generator.cpp), the freestanding ppc32 program
// it writes, and the test that replays the cases (test_differential.cpp): per case, the instruction word, the
// input state and the state qemu-ppc left after running that one instruction. Big-endian, as the program
// writes it to stdout.
#include <cstddef>
#include <cstdint>

namespace kiln::ppc::differential {

/// The registers a case may use as operands: r0 and r3..r12 (r29-r31 are the program's), f1..f6.
constexpr unsigned gprs[] = {0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
constexpr unsigned fprs[] = {1, 2, 3, 4, 5, 6};
constexpr size_t gpr_count = std::size(gprs), fpr_count = std::size(fprs);

/// One state block: GPRs in `gprs` order (one padding word after them), FPRs (double bits, 8-aligned), CR,
/// XER, and FPSCR in the low word of an 8-byte slot (lfd/mtfsf and mffs/stfd move it).
constexpr size_t state_gpr_offset = 0, state_fpr_offset = 48, state_cr_offset = state_fpr_offset + fpr_count * 8;
constexpr size_t state_xer_offset = state_cr_offset + 4, state_fpscr_offset = state_xer_offset + 8;
constexpr size_t state_size = state_fpscr_offset + 4;
static_assert(gpr_count * 4 <= state_fpr_offset && state_size % 8 == 0);

/// One case: word, padding, input state, output state.
constexpr size_t case_input_offset = 8, case_output_offset = case_input_offset + state_size;
constexpr size_t case_size = case_output_offset + state_size;

} // namespace kiln::ppc::differential
