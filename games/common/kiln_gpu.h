/* A small C library for kiln's sample titles: the GPU through L4T's nvgpu device nodes (nvmap buffers, an
 * address space, a channel with its Maxwell classes), pushbuffers built method by method, and syncpoint fences.
 * The ioctl numbers and argument layouts are those of the public L4T headers nvgpu.h and nvmap.h. */
#ifndef KILN_GPU_H
#define KILN_GPU_H

#include <stddef.h>
#include <stdint.h>

/* Subchannels the samples bind (SET_OBJECT) to each class. */
enum { KG_SUBCH_3D = 0, KG_SUBCH_INLINE = 2, KG_SUBCH_2D = 3, KG_SUBCH_COPY = 4 };
enum { KG_CLASS_3D = 0xb197, KG_CLASS_COPY = 0xb0b5, KG_CLASS_INLINE = 0xa140, KG_CLASS_2D = 0x902d };

struct kg_device {
  int nvmap, address_space, channel, ctrl;
};

/* GPU memory: CPU pointer and GPU address of the same bytes. */
struct kg_buffer {
  uint32_t handle;
  int dma_buf;
  uint64_t size;
  uint8_t *cpu;
  uint64_t gpu;
};

struct kg_fence {
  uint32_t id, value;
};

/* A pushbuffer being written into a GPU buffer. */
struct kg_push {
  struct kg_buffer *buffer;
  uint32_t start; /* word index where the current submission starts */
  uint32_t count; /* words written */
};

/* Opens the device nodes, binds a channel to a new address space, allocates its GPFIFO and the Maxwell
 * classes. Returns 0, or -1 after printing why (no /dev/nvhost-gpu outside L4T or kiln). */
int kg_open(struct kg_device *device);
void kg_close(struct kg_device *device);
/* Allocates `size` bytes of GPU memory mapped for the CPU and in the GPU address space. */
int kg_buffer_alloc(struct kg_device *device, uint64_t size, struct kg_buffer *buffer);

/* Method headers (host class clb06f.h): incrementing (SEC_OP 1) and immediate (SEC_OP 4) forms. */
void kg_push_begin(struct kg_push *push, struct kg_buffer *buffer);
void kg_method(struct kg_push *push, uint32_t subchannel, uint32_t method, uint32_t value);
void kg_methods(struct kg_push *push, uint32_t subchannel, uint32_t method, const uint32_t *values, uint32_t count);
void kg_method_non_incrementing(struct kg_push *push, uint32_t subchannel, uint32_t method, const uint32_t *values,
                                uint32_t count);
void kg_bind(struct kg_push *push, uint32_t subchannel, uint32_t class_id);
/* Submits the words written since the last submission as one GPFIFO entry; `fence` receives the fence. */
int kg_submit(struct kg_device *device, struct kg_push *push, struct kg_fence *fence);
/* Waits until the fence's syncpoint reaches its value. */
int kg_fence_wait(struct kg_device *device, const struct kg_fence *fence, int timeout_ms);

#endif
