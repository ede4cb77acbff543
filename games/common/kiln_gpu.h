/* The Linux device part of kiln's GPU sample library: the GPU through L4T's nvgpu device nodes (nvmap buffers,
 * an address space, a channel with its Maxwell or Ampere classes) and syncpoint fences; the pushbuffers it submits are
 * built with maxwell_push.h.
 * The ioctl numbers and argument layouts are those of the public L4T headers nvgpu.h and nvmap.h. */
#ifndef KILN_GPU_H
#define KILN_GPU_H

#include "maxwell_push.h"

struct kg_device {
  int nvmap, address_space, channel, ctrl;
};

/* Opens the device nodes, binds a channel to a new address space, allocates its GPFIFO and the classes of
 * `family`. Returns 0, or -1 after printing why (no /dev/nvhost-gpu outside L4T or kiln). */
int kg_open(struct kg_device *device, enum kg_family family);
void kg_close(struct kg_device *device);
/* Allocates `size` bytes of GPU memory mapped for the CPU and in the GPU address space. */
int kg_buffer_alloc(struct kg_device *device, uint64_t size, struct kg_buffer *buffer);

/* Submits the words written since the last submission as one GPFIFO entry; `fence` receives the fence. */
int kg_submit(struct kg_device *device, struct kg_push *push, struct kg_fence *fence);
/* Waits until the fence's syncpoint reaches its value. */
int kg_fence_wait(struct kg_device *device, const struct kg_fence *fence, int timeout_ms);

#endif
