// Host profiles without a GPU: the table looked up with hand-written device properties of other drivers (the
// values their VkPhysicalDevice*Properties report), kiln.toml overrides applied and refused, and the profile in
// the shader cache keys.
#include <catch2/catch.hpp>

#include <string>

#include "runtime/base/error.h"
#include "runtime/gpu/vulkan/host_profile.h"
#include "runtime/gpu/vulkan/maxwell/pipelines.h"

namespace {

using namespace kiln::vulkan;
using kiln::spirv::FmaMode;

/// A host that can require 32-lane compute subgroups (NVIDIA's driver reports 32..32 with compute among the
/// stages, RADV 32..64).
HostProperties host(vk::DriverId driver, uint32_t vendor, uint32_t min_subgroup = 32, uint32_t max_subgroup = 32) {
  HostProperties h;
  h.driver_id = driver;
  h.vendor_id = vendor;
  h.sub_texel_precision_bits = 8;
  h.shader_float64 = true;
  h.subgroup_size_control = true;
  h.compute_full_subgroups = true;
  h.min_subgroup_size = min_subgroup;
  h.max_subgroup_size = max_subgroup;
  h.required_subgroup_size_stages = vk::ShaderStageFlagBits::eCompute;
  h.subgroup_supported_stages = vk::ShaderStageFlagBits::eCompute | vk::ShaderStageFlagBits::eFragment;
  h.subgroup_supported_operations = vk::SubgroupFeatureFlagBits::eBasic | vk::SubgroupFeatureFlagBits::eVote |
                                    vk::SubgroupFeatureFlagBits::eBallot | vk::SubgroupFeatureFlagBits::eShuffle;
  h.max_compute_workgroup_subgroups = 32;
  return h;
}

constexpr uint32_t amd = 0x1002, intel = 0x8086, mesa_cpu = 0x10005;

const ProfileLine& line(const HostProfile& profile, const std::string& name) {
  for (const ProfileLine& l : profile.lines)
    if (l.name == name) return l;
  FAIL("no line " << name);
  throw;
}

kiln::config::Origin at_line(int line) { return {"games/t/kiln.toml", line, ""}; }

} // namespace

TEST_CASE("host profile: NVIDIA's driver keeps undefined registers, no gather bias, exact FMA, 32-lane subgroups") {
  const HostProfile p = choose_host_profile(host(vk::DriverId::eNvidiaProprietary, nvidia_vendor_id));
  CHECK(p.entry == "NVIDIA proprietary");
  CHECK_FALSE(p.zero_registers);
  CHECK(p.gather_bias_bits == 0);
  CHECK(p.floats.fma == FmaMode::exact_f32); // fused measured not single-rounding there
  CHECK(p.floats.host_float64);
  CHECK(p.subgroup_size_32);
  CHECK(line(p, "fma").reason.find("46,615 of 2,254,656") != std::string::npos);
  CHECK(line(p, "denorm_preserve").value == "not requested");
  CHECK(p.key_text() == "zero_registers=off gather_bias_bits=0 fma=exact float64=on subgroup_size_32=on");
}

TEST_CASE("host profile: Mesa drivers start registers at zero, non-NVIDIA hardware biases gathers") {
  const HostProfile radv = choose_host_profile(host(vk::DriverId::eMesaRadv, amd, 32, 64));
  CHECK(radv.entry == "Mesa RADV");
  CHECK(radv.zero_registers);
  CHECK(radv.gather_bias_bits == 8);
  CHECK(radv.subgroup_size_32);
  CHECK(line(radv, "depth_clamp").reason.find("PR 10262") != std::string::npos);

  const HostProfile anv = choose_host_profile(host(vk::DriverId::eIntelOpenSourceMESA, intel, 8, 32));
  CHECK(anv.entry == "Mesa ANV");
  CHECK(anv.zero_registers);
  CHECK(anv.gather_bias_bits == 8);

  // NVK is Mesa on NVIDIA hardware: zero start, and the hardware's own gather footprint.
  const HostProfile nvk = choose_host_profile(host(vk::DriverId::eMesaNvk, nvidia_vendor_id));
  CHECK(nvk.entry == "Mesa NVK");
  CHECK(nvk.zero_registers);
  CHECK(nvk.gather_bias_bits == 0);

  HostProperties turnip = host(vk::DriverId::eMesaTurnip, 0x5143, 64, 128);
  const HostProfile other_mesa = choose_host_profile(turnip);
  CHECK(other_mesa.entry == "other Mesa driver");
  CHECK(other_mesa.zero_registers);
  CHECK_FALSE(other_mesa.subgroup_size_32); // 32 is outside 64..128
  CHECK(line(other_mesa, "subgroup_size_32").reason == "warps emulated: 32 is outside the host's subgroup size range 64..128");
}

TEST_CASE("host profile: drivers outside the table fall back by vendor") {
  const HostProfile amd_proprietary = choose_host_profile(host(vk::DriverId::eAmdProprietary, amd, 32, 64));
  CHECK(amd_proprietary.entry == "other driver");
  CHECK_FALSE(amd_proprietary.zero_registers);
  CHECK(amd_proprietary.gather_bias_bits == 8);
  const HostProfile unknown_on_nvidia = choose_host_profile(host(static_cast<vk::DriverId>(99), nvidia_vendor_id));
  CHECK(unknown_on_nvidia.entry == "other driver on NVIDIA hardware");
  CHECK(unknown_on_nvidia.gather_bias_bits == 0);
  CHECK(driver_id_text(static_cast<vk::DriverId>(99)) == "unknown (99)");
  CHECK(driver_id_text(vk::DriverId::eMesaLlvmpipe) == "MesaLlvmpipe (13)");
}

TEST_CASE("host profile: lavapipe's 8-lane subgroups and a host without FP64") {
  HostProperties lavapipe = host(vk::DriverId::eMesaLlvmpipe, mesa_cpu, 8, 8);
  lavapipe.required_subgroup_size_stages = vk::ShaderStageFlagBits::eFragment | vk::ShaderStageFlagBits::eCompute;
  const HostProfile p = choose_host_profile(lavapipe);
  CHECK(p.entry == "Mesa llvmpipe (lavapipe)");
  CHECK(p.zero_registers);
  CHECK(p.gather_bias_bits == 8);
  CHECK_FALSE(p.subgroup_size_32);
  CHECK(line(p, "subgroup_size_32").reason == "warps emulated: 32 is outside the host's subgroup size range 8..8");

  HostProperties no_control = host(vk::DriverId::eMesaRadv, amd, 32, 64);
  no_control.required_subgroup_size_stages = vk::ShaderStageFlagBits::eFragment;
  CHECK(line(choose_host_profile(no_control), "subgroup_size_32").reason ==
        "warps emulated: requiredSubgroupSizeStages does not include compute");
  HostProperties no_shuffle = host(vk::DriverId::eMesaRadv, amd, 32, 64);
  no_shuffle.subgroup_supported_operations = vk::SubgroupFeatureFlagBits::eBasic | vk::SubgroupFeatureFlagBits::eBallot;
  CHECK(line(choose_host_profile(no_shuffle), "subgroup_size_32").reason ==
        "warps emulated: compute subgroups lack basic, ballot or shuffle operations");
  no_control.subgroup_size_control = false;
  CHECK(line(choose_host_profile(no_control), "subgroup_size_32").reason == "warps emulated: the host has no subgroupSizeControl");

  HostProperties no_fp64 = host(vk::DriverId::eMesaTurnip, 0x5143);
  no_fp64.shader_float64 = false;
  const HostProfile q = choose_host_profile(no_fp64);
  CHECK_FALSE(q.floats.host_float64);
  CHECK(q.floats.fma == FmaMode::exact_f32);
}

TEST_CASE("host profile: kiln.toml overrides replace an entry's choice and name their line") {
  kiln::config::GpuSettings settings;
  settings.fma = kiln::config::Setting<FmaMode>{FmaMode::exact_f64, at_line(3)};
  settings.subgroup_size_32 = kiln::config::Setting<bool>{false, at_line(4)};
  settings.zero_registers = kiln::config::Setting<bool>{true, at_line(5)};
  settings.gather_bias = kiln::config::Setting<bool>{true, at_line(6)};
  const HostProfile p = choose_host_profile(host(vk::DriverId::eNvidiaProprietary, nvidia_vendor_id), settings);
  CHECK(p.entry == "NVIDIA proprietary");
  CHECK(p.floats.fma == FmaMode::exact_f64);
  CHECK_FALSE(p.subgroup_size_32);
  CHECK(p.zero_registers);
  CHECK(p.gather_bias_bits == 8);
  CHECK(line(p, "fma").reason == "set by games/t/kiln.toml:3 ([gpu] fma)");
  CHECK(line(p, "subgroup_size_32").reason == "set by games/t/kiln.toml:4 ([gpu] subgroup_size_32)");
  CHECK(p.key_text() == "zero_registers=on gather_bias_bits=8 fma=f64 float64=on subgroup_size_32=off");
}

TEST_CASE("host profile: an override the host cannot honour is an error at its kiln.toml line") {
  HostProperties lavapipe = host(vk::DriverId::eMesaLlvmpipe, mesa_cpu, 8, 8);
  kiln::config::GpuSettings wants_32;
  wants_32.subgroup_size_32 = kiln::config::Setting<bool>{true, at_line(7)};
  CHECK_THROWS_WITH(choose_host_profile(lavapipe, wants_32),
                    "games/t/kiln.toml:7: [gpu] subgroup_size_32 = true, but 32 is outside the host's subgroup size range 8..8");

  lavapipe.shader_float64 = false;
  kiln::config::GpuSettings wants_f64;
  wants_f64.fma = kiln::config::Setting<FmaMode>{FmaMode::exact_f64, at_line(2)};
  CHECK_THROWS_WITH(choose_host_profile(lavapipe, wants_f64),
                    "games/t/kiln.toml:2: [gpu] fma = \"f64\" needs shaderFloat64, which this host (or [gpu] float64) does not give");
  kiln::config::GpuSettings wants_float64;
  wants_float64.float64 = kiln::config::Setting<bool>{true, at_line(9)};
  CHECK_THROWS_WITH(choose_host_profile(lavapipe, wants_float64), "games/t/kiln.toml:9: [gpu] float64 = true, but this host has no shaderFloat64");

  // float64 = false turns f64 off on a host that has it; fma = "f64" then has nothing to run on.
  HostProperties nvidia = host(vk::DriverId::eNvidiaProprietary, nvidia_vendor_id);
  kiln::config::GpuSettings no_float64;
  no_float64.float64 = kiln::config::Setting<bool>{false, at_line(4)};
  CHECK_FALSE(choose_host_profile(nvidia, no_float64).floats.host_float64);
  no_float64.fma = kiln::config::Setting<FmaMode>{FmaMode::exact_f64, at_line(5)};
  CHECK_THROWS_WITH(choose_host_profile(nvidia, no_float64), Catch::Contains("games/t/kiln.toml:5: [gpu] fma = \"f64\" needs shaderFloat64"));
}

TEST_CASE("host profile: compute warps use subgroups only for blocks of full 32-lane subgroups") {
  const HostProfile nvidia = choose_host_profile(host(vk::DriverId::eNvidiaProprietary, nvidia_vendor_id));
  CHECK(compute_warp_model(nvidia, {256, 1, 1}) == kiln::spirv::WarpModel::Subgroup);
  CHECK(compute_warp_model(nvidia, {32, 32, 1}) == kiln::spirv::WarpModel::Subgroup);   // 32 subgroups: the limit
  CHECK(compute_warp_model(nvidia, {16, 16, 1}) == kiln::spirv::WarpModel::Emulated);   // a warp spans two rows
  CHECK(compute_warp_model(nvidia, {32, 33, 1}) == kiln::spirv::WarpModel::Emulated);   // 33 subgroups
  const HostProfile lavapipe = choose_host_profile(host(vk::DriverId::eMesaLlvmpipe, mesa_cpu, 8, 8));
  CHECK(compute_warp_model(lavapipe, {256, 1, 1}) == kiln::spirv::WarpModel::Emulated);
}

TEST_CASE("host profile: the profile is part of every shader cache key") {
  const HostProfile nvidia = choose_host_profile(host(vk::DriverId::eNvidiaProprietary, nvidia_vendor_id));
  const HostProfile radv = choose_host_profile(host(vk::DriverId::eMesaRadv, amd, 32, 64));
  const HostProfile radv_again = choose_host_profile(host(vk::DriverId::eMesaRadv, amd, 32, 64));
  CHECK(nvidia.key() != radv.key());
  CHECK(radv.key() == radv_again.key());
  // A driver whose entry differs but whose options are the same translates the same programs.
  CHECK(choose_host_profile(host(vk::DriverId::eMesaTurnip, amd, 32, 64)).key() == radv.key());

  const std::vector<uint8_t> program(0x60, 0xab);
  const auto sm53 = kiln::graphics::Arch::sm53;
  CHECK(graphics_shader_key(program, sm53, nvidia, 0, false) != graphics_shader_key(program, sm53, radv, 0, false));
  CHECK(graphics_shader_key(program, sm53, radv, 0, false) == graphics_shader_key(program, sm53, radv_again, 0, false));
  CHECK(graphics_shader_key(program, sm53, radv, 0, false) != graphics_shader_key(program, sm53, radv, 1, false));
  CHECK(graphics_shader_key(program, sm53, radv, 1, false) != graphics_shader_key(program, sm53, radv, 1, true));
  // The same bytes decoded for another architecture are another program.
  CHECK(graphics_shader_key(program, sm53, radv, 0, false) != graphics_shader_key(program, kiln::graphics::Arch::sm86, radv, 0, false));

  kiln::maxwell::DispatchSnapshot dispatch;
  dispatch.shared_memory_size = 1024;
  const auto emulated = kiln::spirv::WarpModel::Emulated;
  CHECK(compute_program_key(program, dispatch, nvidia, emulated) != compute_program_key(program, dispatch, radv, emulated));
  CHECK(compute_program_key(program, dispatch, radv, emulated) == compute_program_key(program, dispatch, radv_again, emulated));
  CHECK(compute_program_key(program, dispatch, nvidia, emulated) !=
        compute_program_key(program, dispatch, nvidia, kiln::spirv::WarpModel::Subgroup));
  kiln::maxwell::DispatchSnapshot more_shared = dispatch;
  more_shared.shared_memory_size = 2048;
  CHECK(compute_program_key(program, dispatch, radv, emulated) != compute_program_key(program, more_shared, radv, emulated));
}
