#pragma once
// kiln's nvgpu devices: the state behind nvmap, nvhost-as-gpu, nvhost-gpu, nvhost-ctrl and nvhost-ctrl-gpu,
// shared by both ways a guest reaches them: the L4T device nodes of a linux-user program
// (runtime/platform/linux-user/nvgpu_driver.*) and Horizon's nvdrv service (runtime/platform/switch/services/
// nvdrv.cpp). Each transport decodes its own ioctl layouts and calls these operations; docs/nvgpu.md has the
// table of how the two ABIs differ.
//
// nvmap buffers are guest memory (a region the driver maps, or memory the guest gives on Horizon), so a CPU
// mapping of a buffer and the GPU's view of it are the same bytes; every address space maps into the one
// kiln::maxwell::Gpu; a channel is a Gpu channel with a syncpoint for its fences. Submissions run the command
// processor at once (work completes in order), so a fence is reached when its submit returns unless a channel
// waits on an acquire; syncpoint waits run the processor again until the threshold is reached or the guest's
// timeout passes, then let the backend write GPU results back to memory. The backend is kiln's Vulkan renderer
// unless a test sets one (KILN_GPU_BACKEND=record: draws are recorded only; KILN_VULKAN_VALIDATION=1 turns the
// validation layers on and prints their messages at each flush). Every operation takes the devices' lock, so
// guest threads may call them at once.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>

#include "recompiler/config/title_config.h"
#include "runtime/gpu/maxwell/gpu.h"

namespace kiln::vulkan {
class Context;
class MaxwellRenderer;
} // namespace kiln::vulkan

namespace kiln::nvgpu_devices {

/// What an operation ended with; each transport turns it into its own error numbers (-errno, NvResult).
enum class Status {
  ok,
  bad_value,          ///< an argument out of range or in the wrong state for the request
  bad_handle,         ///< no such nvmap handle, channel, mapping or syncpoint
  fault,              ///< an argument names guest memory that is not mapped
  already_allocated,  ///< nvmap ALLOC of a handle that has memory
  no_memory,          ///< buffer region or GPU address space exhausted
  timeout,            ///< a syncpoint wait ended before its threshold
  not_supported,      ///< a request kiln does not implement (reported by the caller)
  failed,             ///< the command processor or renderer raised an error (printed)
};
const char* status_name(Status status);

/// A syncpoint fence: id and threshold.
struct Fence {
  uint32_t id = 0;
  uint32_t value = 0;
};

/// The Tegra X1's GPU (GM20B) as nvhost-ctrl-gpu's GET_CHARACTERISTICS reports it: struct
/// nvgpu_gpu_characteristics (0xa0 bytes), with the values switchbrew's "NV services" page lists for the Switch.
struct GpuCharacteristics {
  uint32_t arch = 0x120, impl = 0xb, rev = 0xa1, num_gpc = 1;
  uint64_t l2_cache_size = 0x40000, on_board_video_memory_size = 0;
  uint32_t num_tpc_per_gpc = 2, bus_type = 0x20, big_page_size = 0x20000, compression_page_size = 0x20000;
  uint32_t pde_coverage_bit_count = 27, available_big_page_sizes = 0x30000, gpc_mask = 1;
  uint32_t sm_arch_sm_version = 0x503, sm_arch_spa_version = 0x503, sm_arch_warp_count = 0x80;
  uint32_t gpu_va_bit_count = 0x28, reserved = 0;
  uint64_t flags = 0x55;
  uint32_t twod_class = 0x902d, threed_class = 0xb197, compute_class = 0xb1c0, gpfifo_class = 0xb06f;
  uint32_t inline_to_memory_class = 0xa140, dma_copy_class = 0xb0b5;
  uint32_t max_fbps_count = 1, fbp_en_mask = 0, max_ltc_per_fbp = 2, max_lts_per_ltc = 1, max_tex_per_tpc = 0;
  uint32_t max_gpc_count = 1, rop_l2_en_mask_0 = 0x21d70, rop_l2_en_mask_1 = 0;
  char chipname[8] = {'g', 'm', '2', '0', 'b', 0, 0, 0};
  uint64_t gr_compbit_store_base_hw = 0;
};
static_assert(sizeof(GpuCharacteristics) == 0xa0);

/// ZCULL_GET_INFO's answer (struct nvgpu_gpu_zcull_get_info_args, 0x28 bytes) for the Tegra X1's one GPC.
struct ZcullInfo {
  uint32_t width_align_pixels = 0x20, height_align_pixels = 0x20, pixel_squares_by_aliquots = 0x400;
  uint32_t aliquot_total = 0x800, region_byte_multiplier = 0x20, region_header_size = 0x20;
  uint32_t subregion_header_size = 0xc0, subregion_width_align_pixels = 0x20, subregion_height_align_pixels = 0x40;
  uint32_t subregion_count = 0x10;
};
static_assert(sizeof(ZcullInfo) == 0x28);
/// ZCULL_GET_CTX_SIZE: bytes of a zcull context buffer.
constexpr uint32_t zcull_context_size = 0x20000;

class Devices {
public:
  /// `buffer_region`: guest addresses the devices map nvmap buffers at when the guest gives no memory (the
  /// linux-user nodes); empty when every allocation brings its own (Horizon).
  Devices(uint64_t buffer_region_base = 0, uint64_t buffer_region_end = 0);
  ~Devices();

  std::recursive_mutex& lock() { return lock_; }
  maxwell::Gpu& gpu() { return gpu_; }
  /// The renderer: `flush` writes its results back into guest memory (called before a fence wait returns).
  void set_backend(maxwell::Backend* backend, std::function<void()> flush = {});
  /// The title's kiln.toml [gpu] overrides of the Vulkan renderer's host profile; used when the renderer is
  /// created (the first channel), so set them before.
  void set_gpu_settings(config::GpuSettings settings);
  /// The Vulkan renderer and its context when the devices created them (nullptr otherwise).
  vulkan::MaxwellRenderer* renderer() { return renderer_.get(); }
  const vulkan::Context* vulkan_context() const { return context_.get(); }

  // ---- nvmap ----
  struct Buffer {
    uint64_t size = 0;
    uint64_t align = 0x1000;
    uint64_t guest_address = 0; ///< 0 until allocated
    uint8_t kind = 0;
    bool driver_memory = false; ///< mapped by the devices (released with the buffer)
    uint32_t gpu_mappings = 0;
    bool freed = false;
  };
  Status create_buffer(uint64_t size, uint32_t& handle);
  /// Gives the handle memory: at `guest_address` (memory the guest owns) or, when 0, in the buffer region.
  Status allocate_buffer(uint32_t handle, uint64_t align, uint8_t kind, uint64_t guest_address);
  /// Frees the handle; its memory goes once no GPU mapping remains. `freed` receives what it was.
  Status free_buffer(uint32_t handle, Buffer* freed = nullptr);
  /// The live buffer with this handle, or nullptr.
  const Buffer* buffer(uint32_t handle) const;
  bool in_buffer_region(uint64_t address, uint64_t size) const;

  // ---- the GPU address space (nvhost-as-gpu) ----
  Status reserve_gpu_space(uint64_t size, uint64_t align, bool fixed, uint64_t& offset);
  /// Maps [buffer_offset, buffer_offset + size) of the buffer (size 0: the rest) at `gpu_address` (in when
  /// `fixed`, out always).
  Status map_buffer(uint32_t handle, uint64_t buffer_offset, uint64_t size, bool fixed, uint64_t& gpu_address);
  Status unmap_buffer(uint64_t gpu_address);

  // ---- channels (nvhost-gpu) ----
  uint32_t create_channel();
  void destroy_channel(uint32_t channel);
  bool channel_exists(uint32_t channel) const { return channels_.count(channel) != 0; }
  Status bind_channel(uint32_t channel);
  /// Creates the channel's GPFIFO (after bind_channel, as nvgpu requires); `fence` receives its syncpoint.
  Status allocate_gpfifo(uint32_t channel, uint32_t entries, Fence& fence);
  /// Accepts the Maxwell and Ampere engine classes kiln implements; others are refused with a message. The first
  /// Maxwell- or Ampere-only class sets the channel's host class (B06F or C56F); the other family is refused then.
  Status allocate_object_context(uint32_t channel, uint32_t class_id);
  struct SubmitOptions {
    bool wait_for_fence = false; ///< put a syncpoint wait for `fence` in front of the entries
    bool get_fence = false;      ///< append WFI and an increment of the channel's syncpoint; `fence` receives it
  };
  Status submit(uint32_t channel, std::span<const maxwell::GpfifoEntry> entries, SubmitOptions options, Fence& fence);
  /// Where the guest wants errors written (SET_ERROR_NOTIFIER): kept; kiln's channels raise no errors to notify.
  Status set_error_notifier(uint32_t channel, uint32_t handle, uint64_t offset, uint64_t size);
  std::optional<uint32_t> channel_syncpoint(uint32_t channel) const;

  // ---- syncpoints (nvhost-ctrl) ----
  Status read_syncpoint(uint32_t id, uint32_t& value);
  Status increment_syncpoint(uint32_t id);
  /// Waits until the syncpoint reaches `threshold` or `timeout_ms` passes (negative: no timeout, capped with
  /// a message since only this process's GPU work can advance it); `value` receives the value reached.
  Status wait_syncpoint(uint32_t id, uint32_t threshold, int32_t timeout_ms, uint32_t& value);
  /// Whether the syncpoint has reached `threshold` (wrap-around compare, as host1x does), running queued work.
  bool syncpoint_reached(uint32_t id, uint32_t threshold);

  /// Statistics for reports and tests.
  uint64_t submits = 0, waits = 0;

private:
  struct GpuMapping {
    uint32_t handle;
    uint64_t size;
  };
  struct Channel {
    bool bound = false;                   ///< to an address space
    std::optional<uint32_t> gpu_channel;  ///< created at GPFIFO allocation
    uint32_t syncpoint = 0;
    uint32_t syncpoint_max = 0;           ///< the value its last fence asked for
    uint32_t ring_offset = 0;             ///< next free word of its driver page
    bool has_family = false;              ///< an object context of a Maxwell- or Ampere-only class was allocated
    uint32_t error_notifier_handle = 0;
    uint64_t error_notifier_offset = 0, error_notifier_size = 0;
  };

  /// Runs the command processor and prints the diagnostics it produced.
  void run_gpu(std::chrono::milliseconds timeout);
  uint64_t allocate_gpu_range(uint64_t size, uint64_t align);
  void release_buffer_memory(uint32_t handle);
  /// Creates the Vulkan renderer at the first channel unless a backend was set.
  void choose_backend();
  void flush_renderer();

  std::recursive_mutex lock_;
  maxwell::Gpu gpu_;
  std::function<void()> flush_;
  bool backend_chosen_ = false;
  config::GpuSettings gpu_settings_;
  // Declared after gpu_: destroyed first, while the address space they use still exists.
  std::unique_ptr<vulkan::Context> context_;
  std::unique_ptr<vulkan::MaxwellRenderer> renderer_;
  size_t validation_messages_printed_ = 0, renderer_diagnostics_printed_ = 0, diagnostics_printed_ = 0;
  std::map<uint32_t, Buffer> buffers_;
  std::map<uint64_t, GpuMapping> gpu_mappings_; ///< by GPU address
  std::map<uint32_t, Channel> channels_;
  uint32_t next_handle_ = 1, next_channel_ = 0;
  uint64_t buffer_region_base_, buffer_region_end_, next_buffer_address_;
  uint64_t next_gpu_address_ = 0x100000000;
};

/// GPU addresses the devices keep for their own pushbuffers (fence increments and waits), one page per channel.
constexpr uint64_t driver_gpu_base = 0xfff0000000;

} // namespace kiln::nvgpu_devices
