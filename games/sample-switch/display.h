/* A freestanding vi client (switchbrew "Display services", "Nvnflinger services"): vi:u's
   IApplicationDisplayService, the default display, a stray layer and its IGraphicBufferProducer buffer queue
   through IHOSBinderDriver parcels (Android's Parcel layout): CONNECT, SET_PREALLOCATED_BUFFER of block-linear
   RGBA8 nvmap surfaces, DEQUEUE_BUFFER, QUEUE_BUFFER with the frame's fence, DISCONNECT. */
#ifndef SAMPLE_SWITCH_DISPLAY_H
#define SAMPLE_SWITCH_DISPLAY_H
#include "maxwell_push.h"
#include "nx.h"

enum { DISPLAY_BUFFERS = 2 };
/* A transaction's Android status (0 OK, else a negative errno) comes back as a Result with bit 30 set and the
   errno below it (Horizon's own results stay under 2^22). */
#define DISPLAY_STATUS_ERROR(status) (0x40000000u | (uint32_t)-(status))

typedef struct {
  Service root;               /* vi:u */
  Handle display_service;     /* IApplicationDisplayService */
  Handle binder;              /* IHOSBinderDriver (the relay service) */
  uint64_t display, layer;
  int32_t binder_id;          /* the layer's IGraphicBufferProducer */
  uint32_t width, height;     /* CONNECT's answer: the display's size */
} Display;

Result display_open(Display* display);
/* Gives the queue `count` surfaces: width x height RGBA8 (A8B8G8R8), block-linear with blocks one GOB high (as
   maxwell_push.h's colour target renders them), each in its own nvmap buffer. */
Result display_set_buffers(Display* display, const struct kg_buffer* buffers, int count, uint32_t width, uint32_t height);
/* The slot of the next buffer to draw into. */
Result display_dequeue(Display* display, int32_t* slot);
/* Presents `slot` once `fence` (the GPU work that drew it) is reached. */
Result display_queue(Display* display, int32_t slot, const struct kg_fence* fence);
void display_close(Display* display);
#endif
