// The host profile the renderer picks on this machine's driver (lavapipe in CI), programs drawn with it, and a
// kiln.toml override lavapipe cannot honour refused at construction with its line.
#include <catch2/catch.hpp>

#include "renderer_scene.h"
#include "runtime/gpu/vulkan/host_profile.h"

using namespace kiln;
using namespace kiln::test;

TEST_CASE_METHOD(PassThroughScene, "on lavapipe the renderer picks the llvmpipe profile and draws with it", "[gpu][renderer]") {
  const vulkan::HostProperties host = vulkan::host_properties(context.physical_device());
  const vulkan::HostProfile& profile = scene.renderer->host_profile();
  CHECK(profile.key_text() == vulkan::choose_host_profile(host).key_text());
  if (host.driver_id == vk::DriverId::eMesaLlvmpipe) { // VK_DRIVER_ID_MESA_LLVMPIPE = 13
    CHECK(profile.entry == "Mesa llvmpipe (lavapipe)");
    CHECK(profile.zero_registers);
    CHECK(profile.gather_bias_bits == host.sub_texel_precision_bits);
    CHECK(profile.gather_bias_bits > 0);
    CHECK(profile.floats.fma == spirv::FmaMode::exact_f32);
    CHECK(profile.floats.host_float64 == host.shader_float64);
    CHECK_FALSE(profile.subgroup_size_32); // lavapipe's subgroups are 8 lanes (or 4/16 with other vector widths)
  } else {
    WARN("not lavapipe (" << vulkan::host_identity_text(host) << "): only the renderer's use of the table is checked");
  }

  // Programs translated with the profile (zero start, gather bias) draw as before.
  scene.write_floats(kVertices, fullscreen(0.5f, {1.0f, 0.25f, 0.0f, 1.0f}));
  maxwell::StreamBuilder s;
  scene.setup(s, kRgba8, 16, 16);
  draw_arrays(s, 0, 3);
  scene.run(s);
  CHECK(count_wrong_texels(scene.read_target(kColorTarget, 16, 16, 4), 16, 16, std::array<uint8_t, 4>{255, 64, 0, 255}) == 0);
  check_no_validation_messages(context);
}

TEST_CASE("a kiln.toml override the host cannot honour stops the renderer with its line", "[gpu][renderer]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  const vulkan::HostProperties host = vulkan::host_properties(context.physical_device());
  maxwell::Gpu gpu;
  vulkan::MaxwellRendererOptions options;
  options.gpu_settings.subgroup_size_32 = config::Setting<bool>{true, {"games/t/kiln.toml", 12, ""}};
  if (vulkan::choose_host_profile(host).subgroup_size_32) {
    WARN("this host can require 32-lane subgroups: subgroup_size_32 = true is honoured, not refused");
  } else {
    CHECK_THROWS_WITH(vulkan::MaxwellRenderer(context, gpu.memory(), options),
                      Catch::StartsWith("games/t/kiln.toml:12: [gpu] subgroup_size_32 = true, but "));
  }
  options.gpu_settings.subgroup_size_32 = config::Setting<bool>{false, {"games/t/kiln.toml", 12, ""}};
  options.gpu_settings.zero_registers = config::Setting<bool>{false, {"games/t/kiln.toml", 13, ""}};
  const vulkan::MaxwellRenderer renderer(context, gpu.memory(), options);
  CHECK_FALSE(renderer.host_profile().zero_registers);
  CHECK(renderer.host_profile().key() != vulkan::choose_host_profile(host).key());
  check_no_validation_messages(context);
}
