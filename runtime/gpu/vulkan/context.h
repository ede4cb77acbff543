#pragma once
// Vulkan instance, device and queue on whatever the loader offers (lavapipe in CI), with the validation
// layers' messages collected so tests can require that there are none.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/gpu/vulkan/vulkan.h"

namespace kiln::vulkan {

struct ContextOptions {
  bool validation = false;              ///< enable VK_LAYER_KHRONOS_validation and collect its messages
  bool synchronization_validation = false;
  std::string device_filter;            ///< substring of the device name to pick; empty: best available
  std::vector<const char*> instance_extensions; ///< added to the instance (presentation: the surface's)
  std::vector<const char*> device_extensions;   ///< added to the device (presentation: VK_KHR_swapchain)
};

/// Messages the validation layers (or the loader) reported at warning or error severity.
class ValidationLog {
public:
  void add(std::string message);
  std::vector<std::string> messages() const;
  size_t count() const;

private:
  mutable std::mutex mutex_;
  std::vector<std::string> messages_;
};

/// Loads the Vulkan loader and fills the default dispatcher with global entry points. Idempotent.
void load_vulkan_loader();

class Context {
public:
  explicit Context(const ContextOptions& options = {});
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  vk::Instance instance() const { return *instance_; }
  vk::PhysicalDevice physical_device() const { return physical_device_; }
  vk::Device device() const { return *device_; }
  vk::Queue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  const ValidationLog& validation_log() const { return *validation_log_; }
  std::string device_name() const;

  /// Records commands through `record` into a one-time command buffer, submits it and waits for it.
  template <typename Record>
  void submit_and_wait(Record&& record) {
    vk::CommandBuffer commands = begin_one_time_commands();
    record(commands);
    end_and_wait(commands);
  }

private:
  vk::CommandBuffer begin_one_time_commands();
  void end_and_wait(vk::CommandBuffer commands);

  std::unique_ptr<ValidationLog> validation_log_;
  vk::UniqueInstance instance_;
  vk::UniqueDebugUtilsMessengerEXT messenger_;
  vk::PhysicalDevice physical_device_;
  vk::UniqueDevice device_;
  vk::Queue queue_;
  uint32_t queue_family_ = 0;
  vk::UniqueCommandPool command_pool_;
};

} // namespace kiln::vulkan
