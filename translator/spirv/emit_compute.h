#pragma once
// IR compute kernel -> SPIR-V 1.5 compute shader for Vulkan 1.2 with CUDA's execution model:
//   set 0 binding 0   uniform buffer: constant bank 0 in CUDA's layout (driver area, then kernel parameters)
//   global memory     64-bit addresses through PhysicalStorageBuffer64 (buffer device address)
//   shared memory     one workgroup array of 32-bit words
//   workgroup size    specialization constants 0, 1, 2 (CUDA's blockDim), default 32 x 1 x 1
//   warps             32 lanes = 32 consecutive LocalInvocationIndex values. Emulated through workgroup memory and
//                     barriers (hosts whose subgroup size is not 32, such as lavapipe's 8), or subgroup operations
//                     when the pipeline runs with a required subgroup size of 32.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "translator/ir/ir.h"

namespace kiln::spirv {

enum class WarpModel { Emulated, Subgroup };

/// How FFma (one rounding) is lowered; the runtime picks it from the host's profile, `--fma` on the command line.
enum class FmaMode : uint8_t {
  exact_f32, ///< default: correctly rounded with f32 and 32-bit integer code (translator/ir/integer_fma.h), no FP64
  fused,     ///< GLSL.std.450 Fma: for hosts whose profile says their Fma rounds once
  exact_f64, ///< correctly rounded through f64 and round-to-odd: needs shaderFloat64 (1/32-1/64 rate on consumer GPUs)
};
/// "exact" | "fused" | "f64", as `--fma` takes them; nullopt otherwise.
std::optional<FmaMode> parse_fma_mode(std::string_view text);
std::string_view fma_mode_name(FmaMode mode);

/// What the float lowering may use on the host; shared by the compute and graphics backends.
struct FloatOptions {
  FmaMode fma = FmaMode::exact_f32;
  /// false on hosts without shaderFloat64: a double-precision guest instruction is then an error naming its
  /// guest address (there is no f64 emulation), and FmaMode::exact_f64 is refused.
  bool host_float64 = true;
};

struct ComputeOptions {
  WarpModel warp_model = WarpModel::Emulated;
  bool debug_names = true;
  FloatOptions floats;
  /// Global addresses are the guest's GPU virtual addresses: every global access adds the 64-bit push constant
  /// at offset 0 (global_address_bias_bytes) to its address before using it as a device address, so a runtime
  /// can back the guest's address range with one Vulkan buffer (the renderer's compute dispatches).
  bool global_address_bias = false;
};

constexpr uint32_t global_address_bias_bytes = 8; ///< the push-constant range global_address_bias uses

constexpr uint32_t const_bank_binding = 0;
constexpr uint32_t max_workgroup_invocations = 1024; ///< CUDA's limit; sizes the warp emulation scratch

/// The module's words; throws kiln::Error for IR the backend cannot express.
std::vector<uint32_t> emit_compute(const ir::Function& function, const ComputeOptions& options = {});

} // namespace kiln::spirv
