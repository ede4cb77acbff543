/* nvdrv.h: commands 0 Open, 1 Ioctl, 2 Close, 3 Initialize; the ioctl numbers encode direction, size and
   number, their arguments are switchbrew's "NV services" structures. */
#include "nvdrv.h"

#include "nx_ipc.h"

void* memset(void* d, int c, size_t n);
void* memcpy(void* d, const void* s, size_t n);

enum {
  NVMAP_CREATE = 0xc0080101, NVMAP_ALLOC = 0xc0200104, NVMAP_GET_ID = 0xc008010e,
  AS_BIND_CHANNEL = 0x40044101, AS_MAP_BUFFER_EX = 0xc0284106, AS_INITIALIZE_EX = 0x40284109,
  CHANNEL_SUBMIT_GPFIFO = 0xc0004808, /* | the argument's size (header + entries) << 16 */
  CHANNEL_ALLOC_OBJ_CTX = 0xc0104809, CHANNEL_ALLOC_GPFIFO_EX2 = 0xc020481a,
  CTRL_SYNCPT_WAITEX = 0xc0100019, GPU_GET_CHARACTERISTICS = 0xc0b04705,
  SUBMIT_FENCE_GET = 2,
};

static uint8_t argument[0x200] __attribute__((aligned(16))); /* every ioctl's in/out bytes */

/* Ioctl(fd, code): the argument's bytes in the A buffer and back through the B buffer. */
static Result ioctl(NvGpu* gpu, uint32_t fd, uint32_t code) {
  const uint32_t input[2] = {fd, code};
  const uint32_t size = (code >> 16) & 0x3fff;
  uint32_t nv_result = 0;
  NxRequest q = nx_request(1, input, sizeof input);
  nx_add_a(&q, argument, size);
  nx_add_b(&q, argument, size);
  NxReply reply = {&nv_result, 4, 0, 0};
  const Result r = nx_call(gpu->service.session, &q, &reply);
  return r ? r : nv_result ? NV_ERROR(nv_result) : 0;
}

static Result ioctl_with(NvGpu* gpu, uint32_t fd, uint32_t code, const void* in, uint32_t in_size) {
  memset(argument, 0, sizeof argument);
  memcpy(argument, in, in_size);
  return ioctl(gpu, fd, code);
}

static Result open_device(NvGpu* gpu, const char* path, uint32_t* fd) {
  struct {
    uint32_t fd, nv_result;
  } opened = {0, 0};
  NxRequest q = nx_request(0, 0, 0);
  nx_add_a(&q, path, nx_strlen(path));
  NxReply reply = {&opened, sizeof opened, 0, 0};
  const Result r = nx_call(gpu->service.session, &q, &reply);
  *fd = opened.fd;
  return r ? r : opened.nv_result ? NV_ERROR(opened.nv_result) : 0;
}

Result nv_open(NvGpu* gpu, void* transfer, uint64_t transfer_size) {
  memset(gpu, 0, sizeof *gpu);
  Result r = sm_get_service(&gpu->service, "nvdrv");
  if (r) return r;
  /* The driver's working memory: ours, without permission for us while it holds it. */
  r = svc_create_transfer_memory(&gpu->transfer_memory, transfer, transfer_size, 0);
  if (r) return r;
  const uint32_t size = (uint32_t)transfer_size;
  uint32_t nv_result = 0;
  NxRequest q = nx_request(3, &size, 4); /* Initialize(size) + the process and the transfer memory */
  q.copy_count = 2;
  q.copy_handles[0] = NX_CURRENT_PROCESS;
  q.copy_handles[1] = gpu->transfer_memory;
  NxReply reply = {&nv_result, 4, 0, 0};
  r = nx_call(gpu->service.session, &q, &reply);
  if (r == 0 && nv_result) r = NV_ERROR(nv_result);
  if (r == 0) r = open_device(gpu, "/dev/nvmap", &gpu->nvmap);
  if (r == 0) r = open_device(gpu, "/dev/nvhost-ctrl", &gpu->ctrl);
  if (r == 0) r = open_device(gpu, "/dev/nvhost-ctrl-gpu", &gpu->ctrl_gpu);
  if (r == 0) r = open_device(gpu, "/dev/nvhost-as-gpu", &gpu->address_space);
  if (r == 0) r = open_device(gpu, "/dev/nvhost-gpu", &gpu->channel);
  if (r) return r;
  /* GET_CHARACTERISTICS {u64 buffer size 0xa0, u64 buffer address, the characteristics}: the chip's name at
     0x90 of them. */
  const uint64_t characteristics[2] = {0xa0, 0};
  r = ioctl_with(gpu, gpu->ctrl_gpu, GPU_GET_CHARACTERISTICS, characteristics, sizeof characteristics);
  if (r) return r;
  memcpy(gpu->gpu_name, argument + 0x10 + 0x90, sizeof gpu->gpu_name - 1);
  /* INITIALIZE_EX {big page size 64 KiB, as fd, flags, reserved, VA range start, end, split}: 0 range = default. */
  const uint32_t initialize[4] = {0x10000, 0, 0, 0};
  r = ioctl_with(gpu, gpu->address_space, AS_INITIALIZE_EX, initialize, sizeof initialize);
  const uint32_t bind = gpu->channel;
  if (r == 0) r = ioctl_with(gpu, gpu->address_space, AS_BIND_CHANNEL, &bind, 4);
  /* ALLOC_GPFIFO_EX2 {entries, flags, unknown, fence out, unknown[3]}. */
  const uint32_t gpfifo[3] = {0x800, 0, 0};
  if (r == 0) r = ioctl_with(gpu, gpu->channel, CHANNEL_ALLOC_GPFIFO_EX2, gpfifo, sizeof gpfifo);
  static const uint32_t classes[] = {KG_CLASS_3D, KG_CLASS_2D, KG_CLASS_INLINE, KG_CLASS_COPY};
  for (int i = 0; r == 0 && i < 4; ++i) {
    const uint32_t object[4] = {classes[i], 0, 0, 0}; /* ALLOC_OBJ_CTX {class, flags, u64 object id out} */
    r = ioctl_with(gpu, gpu->channel, CHANNEL_ALLOC_OBJ_CTX, object, sizeof object);
  }
  return r;
}

void nv_close(NvGpu* gpu) {
  const uint32_t fds[] = {gpu->channel, gpu->address_space, gpu->ctrl_gpu, gpu->ctrl, gpu->nvmap};
  for (int i = 0; i < 5; ++i) {
    if (!fds[i]) continue;
    uint32_t nv_result = 0;
    NxReply reply = {&nv_result, 4, 0, 0};
    nx_call_plain(gpu->service.session, 2, &fds[i], 4, &reply); /* Close(fd) */
  }
  svc_close_handle(gpu->service.session);
  if (gpu->transfer_memory) svc_close_handle(gpu->transfer_memory); /* gives the memory back to us */
}

Result nv_buffer(NvGpu* gpu, void* memory, uint64_t size, struct kg_buffer* buffer) {
  size = (size + 0xfff) & ~(uint64_t)0xfff;
  const uint32_t create[2] = {(uint32_t)size, 0}; /* CREATE {size, handle out} */
  Result r = ioctl_with(gpu, gpu->nvmap, NVMAP_CREATE, create, sizeof create);
  if (r) return r;
  uint32_t handle;
  memcpy(&handle, argument + 4, 4);
  /* ALLOC {handle, heap mask, flags, align, u8 kind, pad, u64 address}. */
  struct {
    uint32_t handle, heap_mask, flags, align;
    uint8_t kind, padding[7];
    uint64_t address;
  } alloc = {handle, 0, 0, 0x1000, 0, {0}, (uint64_t)memory};
  r = ioctl_with(gpu, gpu->nvmap, NVMAP_ALLOC, &alloc, sizeof alloc);
  const uint32_t get_id[2] = {0, handle}; /* GET_ID {id out, handle} */
  if (r == 0) r = ioctl_with(gpu, gpu->nvmap, NVMAP_GET_ID, get_id, sizeof get_id);
  if (r) return r;
  memcpy(&buffer->handle, argument, 4);
  /* MAP_BUFFER_EX {flags, kind (-1: the buffer's), nvmap handle, page size, u64 buffer offset, mapping size,
     GPU offset out}. */
  struct {
    uint32_t flags;
    int32_t kind;
    uint32_t handle, page_size;
    uint64_t buffer_offset, mapping_size, offset;
  } map = {0, -1, handle, 0, 0, 0, 0};
  r = ioctl_with(gpu, gpu->address_space, AS_MAP_BUFFER_EX, &map, sizeof map);
  if (r) return r;
  memcpy(&buffer->gpu, argument + 0x20, 8);
  buffer->dma_buf = -1;
  buffer->size = size;
  buffer->cpu = memory;
  return 0;
}

Result nv_submit(NvGpu* gpu, struct kg_push* push, struct kg_fence* fence) {
  if (push->overflowed) return NV_ERROR(0xa); /* the pushbuffer was too small: InvalidSize */
  /* SUBMIT_GPFIFO {u64 unused, u32 entries, u32 flags, fence}, then the entries (GP_ENTRY0, GP_ENTRY1). */
  uint32_t submit[8] = {0, 0, 1, SUBMIT_FENCE_GET, 0, 0, 0, 0};
  kg_take_submission(push, &submit[6]);
  const Result r = ioctl_with(gpu, gpu->channel, CHANNEL_SUBMIT_GPFIFO | (uint32_t)sizeof submit << 16, submit, sizeof submit);
  if (r == 0) memcpy(fence, argument + 0x10, sizeof *fence);
  return r;
}

Result nv_fence_wait(NvGpu* gpu, const struct kg_fence* fence, int32_t timeout_ms) {
  const uint32_t wait[4] = {fence->id, fence->value, (uint32_t)timeout_ms, 0}; /* SYNCPT_WAITEX {id, threshold, timeout, value out} */
  return ioctl_with(gpu, gpu->ctrl, CTRL_SYNCPT_WAITEX, wait, sizeof wait);
}
