#pragma once
// The compiler's constant bank c[1] of the nvidia-headsurface customSampling programs, rebuilt from each
// program's own code. NVIDIA's driver uploads it beside the code; the corpus does not carry it.
//
// What the bank holds: each `switch (resamplingMethod)` compiles to
//     IADD32I Ri, Rm, -k ; IMNMX.U32 Ri, Ri, N, PT ; SHL Ri, Ri, 2 ; LDC Rt, c[0x1][Ri + table] ; BRX Rt, imm
// and BRX jumps to Rt + (address after BRX) + imm, so table entry e holds target - next - imm. The N + 1 targets
// follow the compiler's layout: case 0 starts right after the BRX; each further case starts right after the
// unconditional BRA that ends the case before it; the last entry (every clamped index >= N) is the join, the
// target of those BRAs. Besides the tables, the programs read one non-indexed word of c[1]: 0.75, the centre
// value 3/4 - x² of the quadratic "bell-shaped" kernel (NVIDIA_HEADSURFACE_RESAMPLING_METHOD_BICUBIC_BELL_SHAPED).
#include <cstdint>
#include <vector>

#include "translator/sass/sm5x/program.h"

namespace kiln::test {

/// Words of c[1] for `program` (empty when it has no BRX and no c[1] operand). Throws kiln::Error when the
/// code does not have the shape above.
std::vector<uint32_t> derive_compiler_constants(const sass::sm5x::Program& program);

} // namespace kiln::test
