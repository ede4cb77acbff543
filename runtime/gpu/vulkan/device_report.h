#pragma once
// What each Vulkan device offers of the features kiln's GPU layers care about (`kiln gpu info`).
#include <string>
#include <utility>
#include <vector>

namespace kiln::vulkan {

struct DeviceReport {
  std::string name;
  std::string type;    ///< "discrete", "integrated", "virtual", "cpu", "other"
  std::string api_version;
  std::string driver;  ///< driver name and info, e.g. "llvmpipe: Mesa 22.3.6"
  /// (feature, value) in a fixed order: "yes"/"no" or a number.
  std::vector<std::pair<std::string, std::string>> features;
};

/// Every physical device the loader offers, queried through a temporary instance.
std::vector<DeviceReport> report_devices();

} // namespace kiln::vulkan
