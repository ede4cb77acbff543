// Storage for Vulkan-Hpp's default dynamic dispatcher; exactly one translation unit defines it.
#include "runtime/gpu/vulkan/vulkan.h"

VULKAN_HPP_DEFAULT_DISPATCH_LOADER_DYNAMIC_STORAGE
