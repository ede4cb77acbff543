#pragma once
// Host profiles: the translation options chosen for the Vulkan driver a renderer runs on, from one table of
// driver entries (host_profile.cpp). The renderer reads the profile at device creation, translates every program
// with it, and keys its shader caches by it; `kiln gpu info` prints it; a title's kiln.toml [gpu] table overrides
// single options. docs/renderer.md "Host profiles" lists the entries and the reasons.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "recompiler/config/title_config.h"
#include "runtime/gpu/vulkan/device_report.h"
#include "translator/spirv/emit_compute.h"

namespace kiln::vulkan {

/// PCI vendor id of NVIDIA's GPUs (VkPhysicalDeviceProperties::vendorID).
constexpr uint32_t nvidia_vendor_id = 0x10de;
/// The guest's warp width: subgroups must have this many lanes for the subgroup warp model.
constexpr uint32_t warp_lanes = 32;

/// One line of the profile as `kiln gpu info` prints it: an option and its value, or a workaround that applies
/// to this driver, with why.
struct ProfileLine {
  std::string name;
  std::string value;
  std::string reason;
};

struct HostProfile {
  std::string entry; ///< the table entry that matched, e.g. "Mesa llvmpipe (lavapipe)"
  /// Registers read before any write start at 0 (graphics::TranslateOptions::zero_registers).
  bool zero_registers = false;
  /// spirv::GraphicsOptions::gather_bias_bits: the host's subTexelPrecisionBits, or 0 for no gather bias.
  uint32_t gather_bias_bits = 0;
  spirv::FloatOptions floats; ///< FMA lowering and FP64 availability, for graphics and compute programs
  /// Compute pipelines may require subgroups of 32 lanes (VK_EXT_subgroup_size_control / Vulkan 1.3) and use
  /// the subgroup warp model; otherwise warps are emulated through workgroup memory.
  bool subgroup_size_32 = false;
  uint32_t max_compute_workgroup_subgroups = 0; ///< bounds the workgroups the subgroup warp model can run
  /// The options above, then the driver's workarounds, each with its reason.
  std::vector<ProfileLine> lines;

  /// A stable text of every option that changes translated code; equal texts give equal programs.
  std::string key_text() const;
  /// hash64 of key_text(): part of every shader cache key.
  uint64_t key() const;
};

/// Picks the profile for `host` from the table, then applies the title's overrides. An override the host cannot
/// honour (subgroup_size_32 = true without a 32-lane subgroup size for compute, float64 or fma = "f64" without
/// shaderFloat64) is an Error naming the kiln.toml line.
HostProfile choose_host_profile(const HostProperties& host, const config::GpuSettings& overrides = {});

/// The warp model of a compute workgroup of `block` threads: subgroups of 32 when the profile allows them and the
/// workgroup splits into full ones (its width a multiple of 32, at most maxComputeWorkgroupSubgroups of them);
/// emulated otherwise.
spirv::WarpModel compute_warp_model(const HostProfile& profile, const std::array<uint32_t, 3>& block);

/// "NvidiaProprietary (4)", "MesaLlvmpipe (13)": the VkDriverId name and number.
std::string driver_id_text(vk::DriverId id);
/// The driver id, vendor id, driver version (decoded and raw), driver name and info on one line.
std::string host_identity_text(const HostProperties& host);

} // namespace kiln::vulkan
