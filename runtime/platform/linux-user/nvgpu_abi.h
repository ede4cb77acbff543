#pragma once
// The user-space ABI of L4T's GPU drivers as an AArch64 program sees it: ioctl request numbers and argument
// layouts of /dev/nvmap (nvmap.h, magic 'N'), /dev/nvhost-as-gpu ('A'), /dev/nvhost-gpu ('H', channels),
// /dev/nvhost-ctrl-gpu ('G') and /dev/nvhost-ctrl ('H', host1x syncpoints), from the public L4T kernel headers
// include/uapi/linux/nvgpu.h and nvmap.h (Linux for Tegra 4.9). Only the facts are taken: the numbers, sizes and
// field offsets, written down here as kiln's own structures (AArch64 is LP64 little-endian like the host).
#include <cstdint>

namespace kiln::linux_user::nvgpu_abi {

/// asm-generic _IOC: nr in bits 0-7, type in 8-15, size in 16-29, direction in 30-31 (1 write, 2 read).
constexpr uint32_t ioc(uint32_t direction, char type, uint32_t nr, uint32_t size) {
  return (direction << 30) | (size << 16) | (static_cast<uint32_t>(static_cast<uint8_t>(type)) << 8) | nr;
}
constexpr uint32_t io(char type, uint32_t nr) { return ioc(0, type, nr, 0); }
constexpr uint32_t iow(char type, uint32_t nr, uint32_t size) { return ioc(1, type, nr, size); }
constexpr uint32_t ior(char type, uint32_t nr, uint32_t size) { return ioc(2, type, nr, size); }
constexpr uint32_t iowr(char type, uint32_t nr, uint32_t size) { return ioc(3, type, nr, size); }
constexpr uint32_t ioc_size(uint64_t request) { return static_cast<uint32_t>(request >> 16) & 0x3fff; }
constexpr uint32_t ioc_direction(uint64_t request) { return static_cast<uint32_t>(request >> 30) & 3; }
constexpr char ioc_type(uint64_t request) { return static_cast<char>((request >> 8) & 0xff); }
constexpr uint32_t ioc_nr(uint64_t request) { return static_cast<uint32_t>(request) & 0xff; }

// ---- /dev/nvmap -------------------------------------------------------------------------------------------
struct NvmapCreate {      // struct nvmap_create_handle (8 bytes: size in, handle out; FROM_ID: id in)
  uint32_t size_or_id;
  uint32_t handle;
};
struct NvmapAlloc {       // struct nvmap_alloc_handle
  uint32_t handle;
  uint32_t heap_mask;
  uint32_t flags;
  uint32_t align;
};
struct NvmapParam {       // struct nvmap_handle_param
  uint32_t handle;
  uint32_t param;         // 1 SIZE, 2 ALIGNMENT, 3 BASE, 4 HEAP, 5 KIND
  uint64_t result;
};
constexpr uint32_t nvmap_create = iowr('N', 0, sizeof(NvmapCreate));
constexpr uint32_t nvmap_from_id = iowr('N', 2, sizeof(NvmapCreate));
constexpr uint32_t nvmap_alloc = iow('N', 3, sizeof(NvmapAlloc));
constexpr uint32_t nvmap_free = io('N', 4); // the argument is the handle itself
constexpr uint32_t nvmap_param = iowr('N', 8, sizeof(NvmapParam));
constexpr uint32_t nvmap_get_id = iowr('N', 13, sizeof(NvmapCreate));
constexpr uint32_t nvmap_get_fd = iowr('N', 15, sizeof(NvmapCreate)); // handle in, dma-buf fd out (size_or_id)

// ---- /dev/nvhost-as-gpu -----------------------------------------------------------------------------------
struct AsBindChannel {    // struct nvgpu_as_bind_channel_args
  uint32_t channel_fd;
};
struct AsAllocSpace {     // struct nvgpu_as_alloc_space_args
  uint32_t pages;
  uint32_t page_size;
  uint32_t flags;         // 1 FIXED_OFFSET, 2 SPARSE
  uint32_t padding;
  uint64_t offset_or_align;
};
struct AsFreeSpace {      // struct nvgpu_as_free_space_args
  uint64_t offset;
  uint32_t pages;
  uint32_t page_size;
};
struct AsMapBufferEx {    // struct nvgpu_as_map_buffer_ex_args
  uint32_t flags;         // 1 FIXED_OFFSET, 4 CACHEABLE
  int32_t kind;           // -1 default
  uint32_t dmabuf_fd;
  uint32_t page_size;
  uint64_t buffer_offset;
  uint64_t mapping_size;  // 0: the rest of the buffer
  uint64_t offset;        // GPU address: in with FIXED_OFFSET, out always
};
struct AsUnmapBuffer {    // struct nvgpu_as_unmap_buffer_args
  uint64_t offset;
};
constexpr uint32_t as_flag_fixed_offset = 1;
constexpr uint32_t as_bind_channel = iowr('A', 1, sizeof(AsBindChannel));
constexpr uint32_t as_free_space = iowr('A', 3, sizeof(AsFreeSpace));
constexpr uint32_t as_unmap_buffer = iowr('A', 5, sizeof(AsUnmapBuffer));
constexpr uint32_t as_alloc_space = iowr('A', 6, sizeof(AsAllocSpace));
constexpr uint32_t as_map_buffer_ex = iowr('A', 7, sizeof(AsMapBufferEx));

// ---- /dev/nvhost-gpu (one channel per open) ---------------------------------------------------------------
struct ChannelSetNvmapFd { // struct nvgpu_set_nvmap_fd_args
  uint32_t fd;
};
struct ChannelAllocGpfifo { // struct nvgpu_alloc_gpfifo_args
  uint32_t num_entries;
  uint32_t flags;
};
struct ChannelAllocGpfifoEx { // struct nvgpu_alloc_gpfifo_ex_args
  uint32_t num_entries;
  uint32_t num_inflight_jobs;
  uint32_t flags;
  uint32_t reserved[5];
};
struct Fence {            // struct nvgpu_fence: syncpoint id and threshold
  uint32_t id;
  uint32_t value;
};
struct ChannelSubmitGpfifo { // struct nvgpu_submit_gpfifo_args
  uint64_t gpfifo;        // guest pointer to num_entries {entry0, entry1} words
  uint32_t num_entries;
  uint32_t flags;
  Fence fence;            // in with FENCE_WAIT, out with FENCE_GET
};
constexpr uint32_t submit_flag_fence_wait = 1 << 0;
constexpr uint32_t submit_flag_fence_get = 1 << 1;
constexpr uint32_t submit_flag_hw_format = 1 << 2;
constexpr uint32_t submit_flag_sync_fence = 1 << 3;
struct ChannelAllocObjCtx { // struct nvgpu_alloc_obj_ctx_args
  uint32_t class_num;
  uint32_t flags;
  uint64_t obj_id;
};
struct ChannelSetTimeoutEx { // struct nvgpu_set_timeout_ex_args
  uint32_t timeout;
  uint32_t flags;
};
constexpr uint32_t channel_set_nvmap_fd = iow('H', 5, sizeof(ChannelSetNvmapFd));
constexpr uint32_t channel_set_timeout = iow('H', 11, 4);
constexpr uint32_t channel_set_priority = iow('H', 13, 4);
constexpr uint32_t channel_set_timeout_ex = iowr('H', 18, sizeof(ChannelSetTimeoutEx));
constexpr uint32_t channel_alloc_gpfifo = iow('H', 100, sizeof(ChannelAllocGpfifo));
constexpr uint32_t channel_submit_gpfifo = iowr('H', 107, sizeof(ChannelSubmitGpfifo));
constexpr uint32_t channel_alloc_obj_ctx = iowr('H', 108, sizeof(ChannelAllocObjCtx));
constexpr uint32_t channel_alloc_gpfifo_ex = iow('H', 123, sizeof(ChannelAllocGpfifoEx));

// ---- /dev/nvhost-ctrl (host1x syncpoints) -----------------------------------------------------------------
struct SyncptRead {       // struct nvhost_ctrl_syncpt_read_args
  uint32_t id;
  uint32_t value;
};
struct SyncptIncr {       // struct nvhost_ctrl_syncpt_incr_args
  uint32_t id;
};
struct SyncptWaitex {     // struct nvhost_ctrl_syncpt_waitex_args
  uint32_t id;
  uint32_t thresh;
  int32_t timeout;        // milliseconds; -1 (NVHOST_NO_TIMEOUT) waits forever
  uint32_t value;         // out: the value reached
};
constexpr uint32_t ctrl_syncpt_read = iowr('H', 1, sizeof(SyncptRead));
constexpr uint32_t ctrl_syncpt_incr = iow('H', 2, sizeof(SyncptIncr));
constexpr uint32_t ctrl_syncpt_waitex = iowr('H', 6, sizeof(SyncptWaitex));

static_assert(sizeof(NvmapCreate) == 8 && sizeof(NvmapAlloc) == 16 && sizeof(NvmapParam) == 16);
static_assert(sizeof(AsAllocSpace) == 24 && sizeof(AsFreeSpace) == 16 && sizeof(AsMapBufferEx) == 40);
static_assert(sizeof(ChannelAllocGpfifoEx) == 32 && sizeof(ChannelSubmitGpfifo) == 24 && sizeof(ChannelAllocObjCtx) == 16);
static_assert(sizeof(SyncptWaitex) == 16);

} // namespace kiln::linux_user::nvgpu_abi
