#include "kiln_gpu.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- the driver ABI (L4T include/uapi/linux/nvmap.h and nvgpu.h) ---------------------------------------- */
struct nvmap_create { uint32_t size; uint32_t handle; };
struct nvmap_alloc { uint32_t handle, heap_mask, flags, align; };
struct as_bind_channel { uint32_t channel_fd; };
struct as_map_buffer_ex {
  uint32_t flags; int32_t kind; uint32_t dmabuf_fd; uint32_t page_size;
  uint64_t buffer_offset, mapping_size, offset;
};
struct channel_alloc_gpfifo_ex { uint32_t num_entries, num_inflight_jobs, flags, reserved[5]; };
struct channel_alloc_obj_ctx { uint32_t class_num, flags; uint64_t obj_id; };
struct channel_submit_gpfifo { uint64_t gpfifo; uint32_t num_entries, flags; struct kg_fence fence; };
struct syncpt_waitex { uint32_t id, thresh; int32_t timeout; uint32_t value; };

#define NVMAP_IOC_CREATE _IOWR('N', 0, struct nvmap_create)
#define NVMAP_IOC_ALLOC _IOW('N', 3, struct nvmap_alloc)
#define NVMAP_IOC_GET_FD _IOWR('N', 15, struct nvmap_create)
#define NVGPU_AS_IOCTL_BIND_CHANNEL _IOWR('A', 1, struct as_bind_channel)
#define NVGPU_AS_IOCTL_MAP_BUFFER_EX _IOWR('A', 7, struct as_map_buffer_ex)
#define NVGPU_IOCTL_CHANNEL_ALLOC_GPFIFO_EX _IOW('H', 123, struct channel_alloc_gpfifo_ex)
#define NVGPU_IOCTL_CHANNEL_ALLOC_OBJ_CTX _IOWR('H', 108, struct channel_alloc_obj_ctx)
#define NVGPU_IOCTL_CHANNEL_SUBMIT_GPFIFO _IOWR('H', 107, struct channel_submit_gpfifo)
#define NVHOST_IOCTL_CTRL_SYNCPT_WAITEX _IOWR('H', 6, struct syncpt_waitex)
#define SUBMIT_FLAGS_FENCE_GET (1u << 1)
#define NVMAP_HEAP_IOVMM (1u << 30)

static int fail(const char *what) {
  fprintf(stderr, "kiln_gpu: %s: %s\n", what, strerror(errno));
  return -1;
}

int kg_open(struct kg_device *d, enum kg_family family) {
  static const char *const nodes[] = {"/dev/nvmap", "/dev/nvhost-as-gpu", "/dev/nvhost-gpu", "/dev/nvhost-ctrl"};
  int *fds[] = {&d->nvmap, &d->address_space, &d->channel, &d->ctrl};
  for (int i = 0; i < 4; ++i) {
    *fds[i] = open(nodes[i], O_RDWR | O_CLOEXEC);
    if (*fds[i] < 0) {
      fprintf(stderr, "kiln_gpu: cannot open %s (%s): this program drives an NVIDIA Tegra GPU through L4T's nvgpu "
                      "driver; run it on L4T or recompiled with kiln\n", nodes[i], strerror(errno));
      return -1;
    }
  }
  struct as_bind_channel bind = {(uint32_t)d->channel};
  if (ioctl(d->address_space, NVGPU_AS_IOCTL_BIND_CHANNEL, &bind) < 0) return fail("bind channel");
  struct channel_alloc_gpfifo_ex gpfifo = {.num_entries = 1024};
  if (ioctl(d->channel, NVGPU_IOCTL_CHANNEL_ALLOC_GPFIFO_EX, &gpfifo) < 0) return fail("allocate GPFIFO");
  uint32_t classes[4];
  kg_classes(family, classes);
  for (int i = 0; i < 4; ++i) {
    struct channel_alloc_obj_ctx object = {.class_num = classes[i]};
    if (ioctl(d->channel, NVGPU_IOCTL_CHANNEL_ALLOC_OBJ_CTX, &object) < 0) return fail("allocate object context");
  }
  return 0;
}

void kg_close(struct kg_device *d) {
  close(d->channel);
  close(d->address_space);
  close(d->ctrl);
  close(d->nvmap);
}

int kg_buffer_alloc(struct kg_device *d, uint64_t size, struct kg_buffer *b) {
  size = (size + 0xfff) & ~(uint64_t)0xfff;
  struct nvmap_create create = {.size = (uint32_t)size};
  if (ioctl(d->nvmap, NVMAP_IOC_CREATE, &create) < 0) return fail("nvmap create");
  struct nvmap_alloc alloc = {create.handle, NVMAP_HEAP_IOVMM, 0, 0x1000};
  if (ioctl(d->nvmap, NVMAP_IOC_ALLOC, &alloc) < 0) return fail("nvmap alloc");
  struct nvmap_create share = {.handle = create.handle};
  if (ioctl(d->nvmap, NVMAP_IOC_GET_FD, &share) < 0) return fail("nvmap get fd");
  void *cpu = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, (int)share.size, 0);
  if (cpu == MAP_FAILED) return fail("mmap of an nvmap buffer");
  struct as_map_buffer_ex map = {.kind = -1, .dmabuf_fd = share.size};
  if (ioctl(d->address_space, NVGPU_AS_IOCTL_MAP_BUFFER_EX, &map) < 0) return fail("map buffer into the GPU");
  b->handle = create.handle;
  b->dma_buf = (int)share.size;
  b->size = size;
  b->cpu = cpu;
  b->gpu = map.offset;
  return 0;
}

int kg_submit(struct kg_device *d, struct kg_push *p, struct kg_fence *fence) {
  if (p->overflowed) {
    fprintf(stderr, "kiln_gpu: pushbuffer full (%llu bytes): submission refused\n", (unsigned long long)p->buffer->size);
    return -1;
  }
  uint32_t entry[2];
  kg_take_submission(p, entry);
  struct channel_submit_gpfifo submit = {(uint64_t)(uintptr_t)entry, 1, SUBMIT_FLAGS_FENCE_GET, {0, 0}};
  if (ioctl(d->channel, NVGPU_IOCTL_CHANNEL_SUBMIT_GPFIFO, &submit) < 0) return fail("submit GPFIFO");
  *fence = submit.fence;
  return 0;
}

int kg_fence_wait(struct kg_device *d, const struct kg_fence *fence, int timeout_ms) {
  struct syncpt_waitex wait = {fence->id, fence->value, timeout_ms, 0};
  if (ioctl(d->ctrl, NVHOST_IOCTL_CTRL_SYNCPT_WAITEX, &wait) < 0) return fail("syncpoint wait");
  return 0;
}
