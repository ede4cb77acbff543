#include "runtime/gpu/vulkan/host_profile.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "recompiler/config/toml_fields.h"
#include "runtime/base/error.h"
#include "runtime/base/hash.h"

namespace kiln::vulkan {
namespace {

using spirv::FmaMode;

template <typename T>
struct Choice {
  T value;
  std::string_view reason;
};

struct Workaround {
  std::string_view name;
  std::string_view value;
  std::string_view reason;
};

/// One driver family and what kiln translates for it. An entry matches by driver id, or (with no ids) by vendor
/// id, or (with neither) always; the first match wins.
struct Entry {
  std::string_view name;
  std::span<const vk::DriverId> drivers;
  std::optional<uint32_t> vendor;
  Choice<bool> zero_registers;
  Choice<bool> gather_bias;
  Choice<FmaMode> fma;
  /// Subgroup warps are wanted; whether the host can require 32 lanes for compute decides the profile's value.
  Choice<bool> subgroup_size_32;
  std::span<const Workaround> workarounds;
};

constexpr std::string_view mesa_zero =
    "Mesa folds a register read before any write (an undefined SPIR-V value) freely, and guest code may rely on "
    "the 0 NVIDIA hardware gives (seed 002 §3.12)";
constexpr std::string_view not_mesa_zero = "not a Mesa driver: undefined register reads are left to the driver (seed 002 §3.12)";
constexpr std::string_view nvidia_gather =
    "NVIDIA hardware picks the guest's gather footprint itself (seed 002 §2.10)";
constexpr std::string_view other_gather =
    "sub-texel precision differs from Maxwell's: coordinates move by half a step of subTexelPrecisionBits so TLD4 "
    "picks the texels NVIDIA's gather picks (seed 002 §2.10)";
constexpr std::string_view unmeasured_fma =
    "correctly rounded on every host; no measurement shows that this driver's Fma rounds once (docs/translator.md)";
constexpr std::string_view subgroup_wanted =
    "SHFL, VOTE and ballots are 32 lanes wide: host subgroups are pinned to 32 where the host allows it (seed 002 §3.4)";

constexpr vk::DriverId nvidia_drivers[] = {vk::DriverId::eNvidiaProprietary};
constexpr Workaround nvidia_workarounds[] = {
    {"denorm_preserve", "not requested",
     "the driver flushes f32 and f64 subnormals unless a program declares DenormPreserve "
     "(shaderDenormPreserveFloat32/64); the translator has no option to declare it yet, so results with subnormal "
     "inputs or results differ from the guest's (docs/renderer.md, the second Vulkan implementation)"},
};
constexpr vk::DriverId nvk_drivers[] = {vk::DriverId::eMesaNvk};
constexpr vk::DriverId llvmpipe_drivers[] = {vk::DriverId::eMesaLlvmpipe};
constexpr vk::DriverId radv_drivers[] = {vk::DriverId::eMesaRadv};
constexpr Workaround radv_workarounds[] = {
    {"depth_clamp", "pipeline state",
     "RADV's dynamic depth clamp scattered TotK's vertices (yuzu PR 10262, seed 002 §1.6): depth clamp must stay "
     "pipeline state here (the renderer never makes it dynamic; SET_VIEWPORT_CLIP_CONTROL is not drawn yet)"},
};
constexpr vk::DriverId anv_drivers[] = {vk::DriverId::eIntelOpenSourceMESA};
constexpr vk::DriverId other_mesa_drivers[] = {vk::DriverId::eMesaTurnip, vk::DriverId::eMesaV3Dv,  vk::DriverId::eMesaPanvk,
                                               vk::DriverId::eMesaVenus,  vk::DriverId::eMesaDozen, vk::DriverId::eImaginationOpenSourceMESA};

/// The table. Each reason says why the value is right for the entry's drivers.
constexpr Entry entries[] = {
    {"NVIDIA proprietary", nvidia_drivers, std::nullopt,
     {false, "NVIDIA's driver reads such registers as 0 already, and a zero start on it made the picture shake with "
             "DLSS (seed 002 §3.12)"},
     {false, nvidia_gather},
     {FmaMode::exact_f32, "measured on this driver: `fused` is not single-rounding (46,615 of 2,254,656 results differ "
                          "from the correctly rounded fma) and `f64` flushes subnormals (45,830 wrong); exact: 0 wrong "
                          "(docs/renderer.md)"},
     {true, subgroup_wanted},
     nvidia_workarounds},
    {"Mesa NVK", nvk_drivers, std::nullopt, {true, mesa_zero}, {false, nvidia_gather}, {FmaMode::exact_f32, unmeasured_fma},
     {true, subgroup_wanted}, {}},
    {"Mesa llvmpipe (lavapipe)", llvmpipe_drivers, std::nullopt, {true, mesa_zero}, {true, other_gather},
     {FmaMode::exact_f32, "lavapipe's Fma does not round once: `fused` fails the FMA test, exact passes "
                          "(docs/translator.md)"},
     {true, subgroup_wanted}, {}},
    {"Mesa RADV", radv_drivers, std::nullopt, {true, mesa_zero}, {true, other_gather}, {FmaMode::exact_f32, unmeasured_fma},
     {true, "RDNA runs programs in wave32 or wave64 as the driver chooses (fragment programs default to wave64); "
            "compute is pinned to 32 lanes (seed 002 §3.4)"},
     radv_workarounds},
    {"Mesa ANV", anv_drivers, std::nullopt, {true, mesa_zero}, {true, other_gather}, {FmaMode::exact_f32, unmeasured_fma},
     {true, subgroup_wanted}, {}},
    {"other Mesa driver", other_mesa_drivers, std::nullopt, {true, mesa_zero}, {true, other_gather},
     {FmaMode::exact_f32, unmeasured_fma}, {true, subgroup_wanted}, {}},
    {"other driver on NVIDIA hardware", {}, nvidia_vendor_id, {false, not_mesa_zero}, {false, nvidia_gather},
     {FmaMode::exact_f32, unmeasured_fma}, {true, subgroup_wanted}, {}},
    {"other driver", {}, std::nullopt, {false, not_mesa_zero}, {true, other_gather}, {FmaMode::exact_f32, unmeasured_fma},
     {true, subgroup_wanted}, {}},
};

const Entry& matching_entry(const HostProperties& host) {
  for (const Entry& entry : entries) {
    if (!entry.drivers.empty()) {
      if (std::find(entry.drivers.begin(), entry.drivers.end(), host.driver_id) != entry.drivers.end()) return entry;
    } else if (!entry.vendor || *entry.vendor == host.vendor_id) {
      return entry;
    }
  }
  return entries[std::size(entries) - 1]; // the last entry matches every host
}

/// Why the host cannot require 32-lane compute subgroups, or empty when it can.
std::string subgroup_32_obstacle(const HostProperties& host) {
  if (!host.subgroup_size_control) return "the host has no subgroupSizeControl";
  if (!host.compute_full_subgroups) return "the host has no computeFullSubgroups";
  if (!(host.required_subgroup_size_stages & vk::ShaderStageFlagBits::eCompute))
    return "requiredSubgroupSizeStages does not include compute";
  // What the subgroup warp model emits: OpGroupNonUniformShuffle and OpGroupNonUniformBallot.
  const vk::SubgroupFeatureFlags used = vk::SubgroupFeatureFlagBits::eBasic | vk::SubgroupFeatureFlagBits::eBallot |
                                        vk::SubgroupFeatureFlagBits::eShuffle;
  if (!(host.subgroup_supported_stages & vk::ShaderStageFlagBits::eCompute) || (host.subgroup_supported_operations & used) != used)
    return "compute subgroups lack basic, ballot or shuffle operations";
  if (warp_lanes < host.min_subgroup_size || warp_lanes > host.max_subgroup_size)
    return fmt::format("32 is outside the host's subgroup size range {}..{}", host.min_subgroup_size, host.max_subgroup_size);
  return {};
}

std::string on_off(bool value) { return value ? "on" : "off"; }

std::string overridden(const config::Origin& origin, std::string_view key) {
  return fmt::format("set by {} ([gpu] {})", origin.describe(), key);
}

[[noreturn]] void refuse(const config::Origin& origin, const std::string& message) {
  throw config::error_at(origin.file, origin.line, message);
}

std::string driver_version_text(const HostProperties& host) {
  const uint32_t v = host.driver_version;
  // NVIDIA packs 10.8.8.6 bits; the other drivers use VK_MAKE_API_VERSION's layout.
  if (host.driver_id == vk::DriverId::eNvidiaProprietary)
    return fmt::format("{}.{}.{}.{}", v >> 22, (v >> 14) & 0xff, (v >> 6) & 0xff, v & 0x3f);
  return fmt::format("{}.{}.{}", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}

} // namespace

std::string driver_id_text(vk::DriverId id) {
  std::string name = vk::to_string(id);
  if (name.starts_with("invalid")) name = "unknown";
  return fmt::format("{} ({})", name, static_cast<uint32_t>(id));
}

std::string host_identity_text(const HostProperties& host) {
  return fmt::format("driver {}, vendor {:#x}, driver version {} ({:#x}), {}: {}", driver_id_text(host.driver_id), host.vendor_id,
                     driver_version_text(host), host.driver_version, host.driver_name, host.driver_info);
}

HostProfile choose_host_profile(const HostProperties& host, const config::GpuSettings& overrides) {
  const Entry& entry = matching_entry(host);
  HostProfile profile;
  profile.entry = std::string(entry.name);
  profile.max_compute_workgroup_subgroups = host.max_compute_workgroup_subgroups;
  auto line = [&](std::string name, std::string value, std::string reason) {
    profile.lines.push_back({std::move(name), std::move(value), std::move(reason)});
  };

  profile.zero_registers = entry.zero_registers.value;
  std::string reason(entry.zero_registers.reason);
  if (overrides.zero_registers) {
    profile.zero_registers = overrides.zero_registers->value;
    reason = overridden(overrides.zero_registers->origin, "zero_registers");
  }
  line("zero_registers", on_off(profile.zero_registers), reason);

  bool gather_bias = entry.gather_bias.value;
  reason = std::string(entry.gather_bias.reason);
  if (overrides.gather_bias) {
    gather_bias = overrides.gather_bias->value;
    reason = overridden(overrides.gather_bias->origin, "gather_bias");
  }
  profile.gather_bias_bits = gather_bias ? host.sub_texel_precision_bits : 0;
  line("gather_bias", gather_bias ? fmt::format("on, {} sub-texel bits", host.sub_texel_precision_bits) : "off", reason);

  profile.floats.host_float64 = host.shader_float64;
  reason = host.shader_float64 ? "the host has shaderFloat64"
                               : "the host has no shaderFloat64: a double-precision guest instruction is an error naming its "
                                 "address (f64 is not emulated)";
  if (overrides.float64) {
    if (overrides.float64->value && !host.shader_float64)
      refuse(overrides.float64->origin, "[gpu] float64 = true, but this host has no shaderFloat64");
    profile.floats.host_float64 = overrides.float64->value;
    reason = overridden(overrides.float64->origin, "float64");
  }
  line("float64", on_off(profile.floats.host_float64), reason);

  profile.floats.fma = entry.fma.value;
  reason = std::string(entry.fma.reason);
  if (overrides.fma) {
    if (overrides.fma->value == FmaMode::exact_f64 && !profile.floats.host_float64)
      refuse(overrides.fma->origin, "[gpu] fma = \"f64\" needs shaderFloat64, which this host (or [gpu] float64) does not give");
    profile.floats.fma = overrides.fma->value;
    reason = overridden(overrides.fma->origin, "fma");
  }
  line("fma", std::string(spirv::fma_mode_name(profile.floats.fma)), reason);

  const std::string obstacle = subgroup_32_obstacle(host);
  profile.subgroup_size_32 = entry.subgroup_size_32.value && obstacle.empty();
  reason = std::string(entry.subgroup_size_32.reason);
  if (entry.subgroup_size_32.value && !obstacle.empty()) reason = fmt::format("warps emulated: {}", obstacle);
  if (overrides.subgroup_size_32) {
    if (overrides.subgroup_size_32->value && !obstacle.empty())
      refuse(overrides.subgroup_size_32->origin, fmt::format("[gpu] subgroup_size_32 = true, but {}", obstacle));
    profile.subgroup_size_32 = overrides.subgroup_size_32->value;
    reason = overridden(overrides.subgroup_size_32->origin, "subgroup_size_32");
  }
  line("subgroup_size_32", on_off(profile.subgroup_size_32), reason);

  for (const Workaround& workaround : entry.workarounds)
    line(std::string(workaround.name), std::string(workaround.value), std::string(workaround.reason));
  return profile;
}

std::string HostProfile::key_text() const {
  return fmt::format("zero_registers={} gather_bias_bits={} fma={} float64={} subgroup_size_32={}", on_off(zero_registers),
                     gather_bias_bits, spirv::fma_mode_name(floats.fma), on_off(floats.host_float64), on_off(subgroup_size_32));
}

uint64_t HostProfile::key() const { return hash64(key_text()); }

spirv::WarpModel compute_warp_model(const HostProfile& profile, const std::array<uint32_t, 3>& block) {
  if (!profile.subgroup_size_32 || block[0] % warp_lanes != 0) return spirv::WarpModel::Emulated;
  const uint64_t invocations = uint64_t{block[0]} * block[1] * block[2];
  if (invocations > uint64_t{profile.max_compute_workgroup_subgroups} * warp_lanes) return spirv::WarpModel::Emulated;
  return spirv::WarpModel::Subgroup;
}

} // namespace kiln::vulkan
