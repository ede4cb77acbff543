#include "runtime/gpu/vulkan/device_report.h"

#include <fmt/format.h>

#include "runtime/gpu/vulkan/context.h"

namespace kiln::vulkan {
namespace {

std::string version_text(uint32_t version) {
  return fmt::format("{}.{}.{}", VK_API_VERSION_MAJOR(version), VK_API_VERSION_MINOR(version),
                     VK_API_VERSION_PATCH(version));
}

std::string type_text(vk::PhysicalDeviceType type) {
  switch (type) {
  case vk::PhysicalDeviceType::eDiscreteGpu: return "discrete";
  case vk::PhysicalDeviceType::eIntegratedGpu: return "integrated";
  case vk::PhysicalDeviceType::eVirtualGpu: return "virtual";
  case vk::PhysicalDeviceType::eCpu: return "cpu";
  default: return "other";
  }
}

std::string yes_no(vk::Bool32 value) { return value ? "yes" : "no"; }

DeviceReport report_device(vk::PhysicalDevice device) {
  const auto properties = device.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceVulkan11Properties,
                                                vk::PhysicalDeviceVulkan12Properties,
                                                vk::PhysicalDeviceVulkan13Properties>();
  const auto& base = properties.get<vk::PhysicalDeviceProperties2>().properties;
  const auto& core11 = properties.get<vk::PhysicalDeviceVulkan11Properties>();
  const auto& core12 = properties.get<vk::PhysicalDeviceVulkan12Properties>();
  const auto& core13 = properties.get<vk::PhysicalDeviceVulkan13Properties>();
  const auto features =
      device.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan12Features,
                          vk::PhysicalDeviceVulkan13Features, vk::PhysicalDeviceProvokingVertexFeaturesEXT,
                          vk::PhysicalDeviceCustomBorderColorFeaturesEXT,
                          vk::PhysicalDeviceDepthClipControlFeaturesEXT,
                          vk::PhysicalDeviceIndexTypeUint8FeaturesEXT>();
  const auto& f10 = features.get<vk::PhysicalDeviceFeatures2>().features;
  const auto& f12 = features.get<vk::PhysicalDeviceVulkan12Features>();
  const auto& f13 = features.get<vk::PhysicalDeviceVulkan13Features>();

  DeviceReport report;
  report.name = base.deviceName.data();
  report.type = type_text(base.deviceType);
  report.api_version = version_text(base.apiVersion);
  report.driver = fmt::format("{}: {}", core12.driverName.data(), core12.driverInfo.data());
  auto& out = report.features;
  out.emplace_back("bufferDeviceAddress", yes_no(f12.bufferDeviceAddress));
  out.emplace_back("subgroupSizeControl", yes_no(f13.subgroupSizeControl));
  out.emplace_back("subgroup size", std::to_string(core11.subgroupSize));
  out.emplace_back("subgroup size range", fmt::format("{}..{}", core13.minSubgroupSize, core13.maxSubgroupSize));
  out.emplace_back("provokingVertexLast",
                   yes_no(features.get<vk::PhysicalDeviceProvokingVertexFeaturesEXT>().provokingVertexLast));
  out.emplace_back("customBorderColors",
                   yes_no(features.get<vk::PhysicalDeviceCustomBorderColorFeaturesEXT>().customBorderColors));
  out.emplace_back("depthClipControl",
                   yes_no(features.get<vk::PhysicalDeviceDepthClipControlFeaturesEXT>().depthClipControl));
  out.emplace_back("indexTypeUint8", yes_no(features.get<vk::PhysicalDeviceIndexTypeUint8FeaturesEXT>().indexTypeUint8));
  out.emplace_back("shaderInt64", yes_no(f10.shaderInt64));
  out.emplace_back("shaderFloat64", yes_no(f10.shaderFloat64));
  out.emplace_back("shaderInt16", yes_no(f10.shaderInt16));
  out.emplace_back("vulkanMemoryModel", yes_no(f12.vulkanMemoryModel));
  out.emplace_back("geometryShader", yes_no(f10.geometryShader));
  out.emplace_back("tessellationShader", yes_no(f10.tessellationShader));
  out.emplace_back("dualSrcBlend", yes_no(f10.dualSrcBlend));
  out.emplace_back("textureCompressionBC", yes_no(f10.textureCompressionBC));
  out.emplace_back("textureCompressionASTC_LDR", yes_no(f10.textureCompressionASTC_LDR));
  out.emplace_back("shaderDenormFlushToZeroFloat32", yes_no(core12.shaderDenormFlushToZeroFloat32));
  out.emplace_back("shaderRoundingModeRTZFloat32", yes_no(core12.shaderRoundingModeRTZFloat32));
  out.emplace_back("shaderDenormPreserveFloat32", yes_no(core12.shaderDenormPreserveFloat32));
  out.emplace_back("shaderDenormPreserveFloat64", yes_no(core12.shaderDenormPreserveFloat64));
  out.emplace_back("subTexelPrecisionBits", std::to_string(base.limits.subTexelPrecisionBits));
  report.host = host_properties(device);
  return report;
}

} // namespace

HostProperties host_properties(vk::PhysicalDevice device) {
  const auto properties = device.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceVulkan11Properties,
                                                vk::PhysicalDeviceVulkan12Properties, vk::PhysicalDeviceVulkan13Properties>();
  const auto& base = properties.get<vk::PhysicalDeviceProperties2>().properties;
  const auto& core11 = properties.get<vk::PhysicalDeviceVulkan11Properties>();
  const auto& core12 = properties.get<vk::PhysicalDeviceVulkan12Properties>();
  const auto& core13 = properties.get<vk::PhysicalDeviceVulkan13Properties>();
  const auto features = device.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan13Features>();
  const auto& core13_features = features.get<vk::PhysicalDeviceVulkan13Features>();
  HostProperties host;
  host.driver_id = core12.driverID;
  host.vendor_id = base.vendorID;
  host.driver_version = base.driverVersion;
  host.device_name = base.deviceName.data();
  host.driver_name = core12.driverName.data();
  host.driver_info = core12.driverInfo.data();
  host.sub_texel_precision_bits = base.limits.subTexelPrecisionBits;
  host.shader_float64 = features.get<vk::PhysicalDeviceFeatures2>().features.shaderFloat64;
  host.subgroup_size_control = core13_features.subgroupSizeControl;
  host.compute_full_subgroups = core13_features.computeFullSubgroups;
  host.min_subgroup_size = core13.minSubgroupSize;
  host.max_subgroup_size = core13.maxSubgroupSize;
  host.required_subgroup_size_stages = core13.requiredSubgroupSizeStages;
  host.max_compute_workgroup_subgroups = core13.maxComputeWorkgroupSubgroups;
  host.subgroup_supported_stages = core11.subgroupSupportedStages;
  host.subgroup_supported_operations = core11.subgroupSupportedOperations;
  return host;
}

std::vector<DeviceReport> report_devices() {
  load_vulkan_loader();
  vk::ApplicationInfo app_info("kiln", 1, "kiln", 1, VK_API_VERSION_1_3);
  vk::UniqueInstance instance = vk::createInstanceUnique(vk::InstanceCreateInfo({}, &app_info));
  VULKAN_HPP_DEFAULT_DISPATCHER.init(*instance);
  std::vector<DeviceReport> reports;
  for (const auto& device : instance->enumeratePhysicalDevices()) reports.push_back(report_device(device));
  return reports;
}

} // namespace kiln::vulkan
