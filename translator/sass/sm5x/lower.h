#pragma once
// Maxwell/Pascal graphics programs -> kiln IR (issue 5, point 3). The program's SSY/SYNC, PBK/BRK and
// PCNT/CONT stacks are resolved statically into a control-flow graph that the IR structurizer turns into
// structured constructs; each instruction's meaning is lowered once, in lower_*.cpp.
//
// Hardware behaviours kept (seed 002 §3): FMNMX and .SAT drop NaN operands (the IR's FMin/FMax/FSaturate),
// .FMZ makes 0 x anything = 0, .FTZ flushes denormal inputs and results in code, BFE/BFI follow PTX for fields
// past bit 31, SHF by 0 returns the unshifted word, KIL demotes (derivatives stay valid).
// .RZ/.RM/.RP of FADD/FMUL/FFMA are exact (translator/ir/rounding.h). Not modelled: condition codes (an error).
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "translator/ir/ir.h"
#include "translator/sass/sm5x/program.h"
#include "translator/sass/sm86/cubin.h"

namespace kiln::sass::sm5x {

struct LowerOptions {
  /// Constant bank holding the handles of bound (non-bindless) textures: handle of texture n at c[bank][4n]
  /// (the 3D class's bound-texture constant buffer slot, provided by the runtime).
  uint32_t bound_texture_bank = 2;
  /// What the runtime knows of the constant banks (Ryujinx's accessor model): the 32-bit word at a byte offset of
  /// a bank, or nullopt when unknown. Optional: a BRX's jump table lies in a constant bank (c[1], which the driver
  /// uploads beside the code, and which an offline shader cache does not have); BRX is lowered over every block
  /// start it can reach either way, and a known table only puts its targets first in the dispatch.
  std::function<std::optional<uint32_t>(uint32_t bank, uint32_t byte_offset)> constant_bank_word;
  /// S2R SR_Y_DIRECTION: +1.0 when window y grows downwards as in Vulkan (upper-left origin), -1.0 for a
  /// lower-left origin (NVN's default). The runtime knows the window origin state.
  float y_direction = 1.0f;
};

/// Lowers a decoded graphics program (vertex or pixel stage). Throws kiln::Error naming the program, the code
/// address and the instruction for anything it cannot express.
ir::Function lower_graphics(const Program& program, const LowerOptions& options = {});

/// Decodes and lowers a compute kernel of a Maxwell/Pascal cubin (sm_50-62) on the execution model of the SM86
/// kernels: constant banks packed in one buffer (translator/sass/sm86/constant_buffer.h), global memory through
/// 64-bit addresses, shared and local memory, warps of 32 on any host subgroup size (translator/ir/warp_schedule.h).
/// Errors name `file`, the kernel, the code address and the instruction.
ir::Function lower_kernel(const sm86::Kernel& kernel, const std::string& file);

} // namespace kiln::sass::sm5x
