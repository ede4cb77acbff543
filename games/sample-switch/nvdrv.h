/* A freestanding nvdrv client (switchbrew "NV services"): Initialize with a transfer memory, Open of the GPU's
   device nodes, nvmap memory in our own heap mapped into the GPU, a channel with the Maxwell classes, GPFIFO
   submissions with fences and syncpoint waits. Pushbuffers are built with games/common/maxwell_push.h, as the
   linux-user samples build theirs; only the transport differs (docs/nvgpu.md). */
#ifndef SAMPLE_SWITCH_NVDRV_H
#define SAMPLE_SWITCH_NVDRV_H
#include "maxwell_push.h"
#include "nx.h"

/* A failed ioctl's NvResult comes back as a Result with bit 31 set (Horizon's own results never have it). */
#define NV_ERROR(nv_result) (0x80000000u | (nv_result))

typedef struct {
  Service service;
  Handle transfer_memory;
  uint32_t nvmap, address_space, channel, ctrl, ctrl_gpu; /* descriptors */
  char gpu_name[16];                                         /* GET_CHARACTERISTICS' chip name */
} NvGpu;

/* Opens nvdrv with `transfer_size` bytes at `transfer` (page-aligned heap memory the driver holds until
   nv_close), the device nodes, an address space bound to a channel with its GPFIFO and the 3D, 2D, inline and
   copy classes. */
Result nv_open(NvGpu* gpu, void* transfer, uint64_t transfer_size);
void nv_close(NvGpu* gpu);
/* nvmap memory of `size` bytes at `memory` (page-aligned, ours), mapped into the GPU: buffer->cpu is `memory`,
   buffer->gpu its GPU address, buffer->handle the nvmap id (what vi's GraphicBuffer names). */
Result nv_buffer(NvGpu* gpu, void* memory, uint64_t size, struct kg_buffer* buffer);
/* Submits what was pushed since the last submission as one GPFIFO entry; `fence` receives its fence. */
Result nv_submit(NvGpu* gpu, struct kg_push* push, struct kg_fence* fence);
/* Waits (at most timeout_ms) until the fence's syncpoint reaches its value. */
Result nv_fence_wait(NvGpu* gpu, const struct kg_fence* fence, int32_t timeout_ms);
#endif
