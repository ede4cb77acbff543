#pragma once
// What each Vulkan device offers of the features kiln's GPU layers care about (`kiln gpu info`).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/gpu/vulkan/vulkan.h"

namespace kiln::vulkan {

/// What the table matches on and the host facts the options depend on: read from a physical device
/// (host_properties), or written by hand in tests.
struct HostProperties {
  vk::DriverId driver_id{};
  uint32_t vendor_id = 0;
  uint32_t driver_version = 0;
  std::string device_name;
  std::string driver_name; ///< VkPhysicalDeviceDriverProperties::driverName and driverInfo
  std::string driver_info;
  uint32_t sub_texel_precision_bits = 0;
  bool shader_float64 = false;
  bool subgroup_size_control = false;
  bool compute_full_subgroups = false;
  uint32_t min_subgroup_size = 0, max_subgroup_size = 0;
  vk::ShaderStageFlags required_subgroup_size_stages;
  vk::ShaderStageFlags subgroup_supported_stages;           ///< VkPhysicalDeviceVulkan11Properties
  vk::SubgroupFeatureFlags subgroup_supported_operations;
  uint32_t max_compute_workgroup_subgroups = 0;
};

HostProperties host_properties(vk::PhysicalDevice device);


struct DeviceReport {
  std::string name;
  std::string type;    ///< "discrete", "integrated", "virtual", "cpu", "other"
  std::string api_version;
  std::string driver;  ///< driver name and info, e.g. "llvmpipe: Mesa 22.3.6"
  /// (feature, value) in a fixed order: "yes"/"no" or a number.
  std::vector<std::pair<std::string, std::string>> features;
  HostProperties host; ///< what the host profile is chosen from (host_profile.h)
};

/// Every physical device the loader offers, queried through a temporary instance.
std::vector<DeviceReport> report_devices();

} // namespace kiln::vulkan
