#pragma once
// The one include for Vulkan in kiln: Vulkan-Hpp with the dynamic dispatcher (see CMakeLists.txt).
#include <vulkan/vulkan.hpp>
