#include "runtime/gpu/vulkan/context.h"

#include <algorithm>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "runtime/base/log.h"

namespace kiln::vulkan {
namespace {

constexpr const char* validation_layer_name = "VK_LAYER_KHRONOS_validation";

VKAPI_ATTR VkBool32 VKAPI_CALL on_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                VkDebugUtilsMessageTypeFlagsEXT,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    static_cast<ValidationLog*>(user)->add(data->pMessage ? data->pMessage : "(no message)");
  }
  return VK_FALSE;
}

int device_type_rank(vk::PhysicalDeviceType type) {
  switch (type) {
  case vk::PhysicalDeviceType::eDiscreteGpu: return 0;
  case vk::PhysicalDeviceType::eIntegratedGpu: return 1;
  case vk::PhysicalDeviceType::eVirtualGpu: return 2;
  case vk::PhysicalDeviceType::eCpu: return 3;
  default: return 4;
  }
}

std::optional<uint32_t> graphics_compute_family(vk::PhysicalDevice device) {
  const auto families = device.getQueueFamilyProperties();
  for (uint32_t i = 0; i < families.size(); ++i) {
    const auto flags = families[i].queueFlags;
    if ((flags & vk::QueueFlagBits::eGraphics) && (flags & vk::QueueFlagBits::eCompute)) return i;
  }
  return std::nullopt;
}

} // namespace

void ValidationLog::add(std::string message) {
  std::lock_guard lock(mutex_);
  log::warning("vulkan: {}", message);
  messages_.push_back(std::move(message));
}

std::vector<std::string> ValidationLog::messages() const {
  std::lock_guard lock(mutex_);
  return messages_;
}

size_t ValidationLog::count() const {
  std::lock_guard lock(mutex_);
  return messages_.size();
}

void load_vulkan_loader() {
  static vk::DynamicLoader* loader = nullptr;
  if (loader) return;
  try {
    loader = new vk::DynamicLoader(); // kept for the process lifetime: entry points point into it
  } catch (const std::exception& e) {
    throw Error(std::string("cannot load the Vulkan loader (libvulkan.so.1, Debian package libvulkan1): ") +
                e.what());
  }
  VULKAN_HPP_DEFAULT_DISPATCHER.init(loader->getProcAddress<PFN_vkGetInstanceProcAddr>("vkGetInstanceProcAddr"));
}

Context::Context(const ContextOptions& options) : validation_log_(std::make_unique<ValidationLog>()) {
  load_vulkan_loader();
  if (VULKAN_HPP_DEFAULT_DISPATCHER.vkEnumerateInstanceVersion == nullptr ||
      vk::enumerateInstanceVersion() < VK_API_VERSION_1_3) {
    throw Error("the Vulkan loader is older than Vulkan 1.3; kiln needs 1.3");
  }

  std::vector<const char*> layers;
  std::vector<const char*> extensions{VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  extensions.insert(extensions.end(), options.instance_extensions.begin(), options.instance_extensions.end());
  if (options.validation) {
    const auto available = vk::enumerateInstanceLayerProperties();
    const bool found = std::any_of(available.begin(), available.end(), [](const vk::LayerProperties& layer) {
      return std::string_view(layer.layerName) == validation_layer_name;
    });
    if (!found) {
      throw Error(fmt::format("Vulkan layer {} not found: install the Debian package vulkan-validationlayers",
                              validation_layer_name));
    }
    layers.push_back(validation_layer_name);
  }

  vk::ApplicationInfo app_info("kiln", 1, "kiln", 1, VK_API_VERSION_1_3);
  const vk::DebugUtilsMessengerCreateInfoEXT messenger_info(
      {},
      vk::DebugUtilsMessageSeverityFlagBitsEXT::eWarning | vk::DebugUtilsMessageSeverityFlagBitsEXT::eError,
      vk::DebugUtilsMessageTypeFlagBitsEXT::eGeneral | vk::DebugUtilsMessageTypeFlagBitsEXT::eValidation |
          vk::DebugUtilsMessageTypeFlagBitsEXT::ePerformance,
      &on_debug_message, validation_log_.get());
  // A copy of the messenger in the instance's chain also reports problems during instance creation.
  vk::DebugUtilsMessengerCreateInfoEXT creation_messenger_info = messenger_info;
  std::vector<vk::ValidationFeatureEnableEXT> enabled_features;
  if (options.synchronization_validation) {
    enabled_features.push_back(vk::ValidationFeatureEnableEXT::eSynchronizationValidation);
  }
  vk::ValidationFeaturesEXT validation_features(enabled_features, {}, &creation_messenger_info);
  vk::InstanceCreateInfo instance_info({}, &app_info, layers, extensions);
  instance_info.pNext = options.validation ? static_cast<const void*>(&validation_features)
                                           : static_cast<const void*>(&creation_messenger_info);
  instance_ = vk::createInstanceUnique(instance_info);
  VULKAN_HPP_DEFAULT_DISPATCHER.init(*instance_);
  messenger_ = instance_->createDebugUtilsMessengerEXTUnique(messenger_info);

  auto devices = instance_->enumeratePhysicalDevices();
  std::vector<vk::PhysicalDevice> candidates;
  for (const auto& device : devices) {
    const auto properties = device.getProperties();
    if (properties.apiVersion < VK_API_VERSION_1_3 || !graphics_compute_family(device)) continue;
    if (!options.device_filter.empty() &&
        std::string_view(properties.deviceName).find(options.device_filter) == std::string_view::npos) {
      continue;
    }
    candidates.push_back(device);
  }
  if (candidates.empty()) {
    throw Error(fmt::format("no Vulkan 1.3 device with a graphics+compute queue{} (install mesa-vulkan-drivers "
                            "for lavapipe)",
                            options.device_filter.empty() ? "" : " matching '" + options.device_filter + "'"));
  }
  std::stable_sort(candidates.begin(), candidates.end(), [](vk::PhysicalDevice a, vk::PhysicalDevice b) {
    return device_type_rank(a.getProperties().deviceType) < device_type_rank(b.getProperties().deviceType);
  });
  physical_device_ = candidates.front();
  queue_family_ = *graphics_compute_family(physical_device_);

  // Enable the features later layers build on wherever the device has them.
  auto supported = physical_device_.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan12Features,
                                                 vk::PhysicalDeviceVulkan13Features>();
  const auto& core12 = supported.get<vk::PhysicalDeviceVulkan12Features>();
  const auto& core13 = supported.get<vk::PhysicalDeviceVulkan13Features>();
  if (!core13.dynamicRendering || !core13.synchronization2) {
    throw Error("the Vulkan device lacks dynamicRendering or synchronization2");
  }
  vk::StructureChain<vk::DeviceCreateInfo, vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan12Features,
                     vk::PhysicalDeviceVulkan13Features>
      chain;
  auto& features = chain.get<vk::PhysicalDeviceFeatures2>().features;
  const auto& have = supported.get<vk::PhysicalDeviceFeatures2>().features;
  features.shaderInt64 = have.shaderInt64;
  features.shaderInt16 = have.shaderInt16;
  features.shaderFloat64 = have.shaderFloat64;
  features.fragmentStoresAndAtomics = have.fragmentStoresAndAtomics;
  features.vertexPipelineStoresAndAtomics = have.vertexPipelineStoresAndAtomics;
  // Fixed-function state of the Maxwell 3D class (runtime/gpu/vulkan/maxwell).
  features.independentBlend = have.independentBlend;
  features.dualSrcBlend = have.dualSrcBlend;
  features.logicOp = have.logicOp;
  features.depthClamp = have.depthClamp;
  features.depthBiasClamp = have.depthBiasClamp;
  features.fillModeNonSolid = have.fillModeNonSolid;
  features.imageCubeArray = have.imageCubeArray;
  features.samplerAnisotropy = have.samplerAnisotropy;
  features.geometryShader = have.geometryShader; // translated SM5x geometry programs
  features.tessellationShader = have.tessellationShader; // translated SM5x tessellation programs
  features.occlusionQueryPrecise = have.occlusionQueryPrecise; // exact ZPASS_PIXEL_COUNT reports
  features.multiViewport = have.multiViewport; // Maxwell's 16 viewports, selected by a program's viewport index
  auto& enable12 = chain.get<vk::PhysicalDeviceVulkan12Features>();
  enable12.bufferDeviceAddress = core12.bufferDeviceAddress;
  enable12.timelineSemaphore = core12.timelineSemaphore;
  enable12.vulkanMemoryModel = core12.vulkanMemoryModel;
  enable12.vulkanMemoryModelDeviceScope = core12.vulkanMemoryModelDeviceScope;
  enable12.storageBuffer8BitAccess = core12.storageBuffer8BitAccess;
  enable12.shaderInt8 = core12.shaderInt8;
  enable12.shaderBufferInt64Atomics = core12.shaderBufferInt64Atomics; // translated 64-bit ATOMG/RED
  enable12.shaderSharedInt64Atomics = core12.shaderSharedInt64Atomics;
  enable12.scalarBlockLayout = core12.scalarBlockLayout;
  // Viewport index and layer written by vertex programs (with VK_EXT_shader_viewport_index_layer below).
  enable12.shaderOutputViewportIndex = core12.shaderOutputViewportIndex;
  enable12.shaderOutputLayer = core12.shaderOutputLayer;
  auto& enable13 = chain.get<vk::PhysicalDeviceVulkan13Features>();
  enable13.dynamicRendering = VK_TRUE;
  enable13.synchronization2 = VK_TRUE;
  enable13.subgroupSizeControl = core13.subgroupSizeControl;
  enable13.computeFullSubgroups = core13.computeFullSubgroups;
  enable13.maintenance4 = core13.maintenance4;
  enable13.shaderDemoteToHelperInvocation = core13.shaderDemoteToHelperInvocation; // translated KIL demotes

  const float priority = 1.0f;
  vk::DeviceQueueCreateInfo queue_info({}, queue_family_, 1, &priority);
  auto& device_info = chain.get<vk::DeviceCreateInfo>();
  device_info.setQueueCreateInfos(queue_info);
  // VK_EXT_depth_clip_control: Maxwell's -w..w depth clip range (SET_VIEWPORT_Z_CLIP), enabled where offered.
  std::vector<const char*> device_extensions = options.device_extensions;
  vk::PhysicalDeviceDepthClipControlFeaturesEXT depth_clip_control;
  vk::PhysicalDeviceProvokingVertexFeaturesEXT provoking_vertex;
  vk::PhysicalDeviceCustomBorderColorFeaturesEXT custom_border_color;
  for (const vk::ExtensionProperties& extension : physical_device_.enumerateDeviceExtensionProperties()) {
    if (std::string_view(extension.extensionName) == VK_EXT_DEPTH_CLIP_CONTROL_EXTENSION_NAME &&
        physical_device_.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceDepthClipControlFeaturesEXT>()
            .get<vk::PhysicalDeviceDepthClipControlFeaturesEXT>()
            .depthClipControl) {
      device_extensions.push_back(VK_EXT_DEPTH_CLIP_CONTROL_EXTENSION_NAME);
      depth_clip_control.depthClipControl = VK_TRUE;
      depth_clip_control.pNext = const_cast<void*>(device_info.pNext);
      device_info.pNext = &depth_clip_control;
    }
    // VK_EXT_custom_border_color: TSC border colours (seed 002 §2, the grass map's 0.5 border).
    if (std::string_view(extension.extensionName) == VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME) {
      const auto offered = physical_device_.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceCustomBorderColorFeaturesEXT>()
                               .get<vk::PhysicalDeviceCustomBorderColorFeaturesEXT>();
      if (offered.customBorderColors && offered.customBorderColorWithoutFormat) {
        device_extensions.push_back(VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME);
        custom_border_color.customBorderColors = VK_TRUE;
        custom_border_color.customBorderColorWithoutFormat = VK_TRUE;
        custom_border_color.pNext = const_cast<void*>(device_info.pNext);
        device_info.pNext = &custom_border_color;
      }
    }
    if (std::string_view(extension.extensionName) == VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME && core12.shaderOutputViewportIndex &&
        core12.shaderOutputLayer) {
      device_extensions.push_back(VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME);
    }
    // VK_EXT_provoking_vertex: flat outputs from the last vertex, NVN's default (SET_PROVOKING_VERTEX).
    if (std::string_view(extension.extensionName) == VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME &&
        physical_device_.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceProvokingVertexFeaturesEXT>()
            .get<vk::PhysicalDeviceProvokingVertexFeaturesEXT>()
            .provokingVertexLast) {
      device_extensions.push_back(VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME);
      provoking_vertex.provokingVertexLast = VK_TRUE;
      provoking_vertex.pNext = const_cast<void*>(device_info.pNext);
      device_info.pNext = &provoking_vertex;
    }
  }
  device_info.setPEnabledExtensionNames(device_extensions);
  device_ = physical_device_.createDeviceUnique(device_info);
  // As volk does: device-level entry points straight from the driver, skipping the loader trampoline.
  VULKAN_HPP_DEFAULT_DISPATCHER.init(*device_);
  queue_ = device_->getQueue(queue_family_, 0);
  command_pool_ = device_->createCommandPoolUnique({vk::CommandPoolCreateFlagBits::eTransient, queue_family_});
  log::verbose("vulkan: using {}", device_name());
}

Context::~Context() {
  if (device_) device_->waitIdle();
}

std::string Context::device_name() const { return physical_device_.getProperties().deviceName; }

vk::CommandBuffer Context::begin_one_time_commands() {
  vk::CommandBuffer commands =
      device_->allocateCommandBuffers({*command_pool_, vk::CommandBufferLevel::ePrimary, 1}).front();
  commands.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
  return commands;
}

void Context::end_and_wait(vk::CommandBuffer commands) {
  commands.end();
  vk::UniqueFence fence = device_->createFenceUnique({});
  vk::CommandBufferSubmitInfo command_info(commands);
  queue_.submit2(vk::SubmitInfo2({}, {}, command_info, {}), *fence);
  if (device_->waitForFences(*fence, VK_TRUE, UINT64_MAX) != vk::Result::eSuccess) {
    throw Error("vulkan: waiting for a submission failed");
  }
  device_->freeCommandBuffers(*command_pool_, commands);
}

} // namespace kiln::vulkan
