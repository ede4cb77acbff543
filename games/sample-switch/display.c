/* display.h. A parcel: a 0x10-byte header {data size, data offset, objects size, objects offset}, then 4-byte
   aligned data; a transaction's data starts with the interface token (strict-mode policy, the String16
   "android.gui.IGraphicBufferProducer"). Status codes are Android's (0 OK, negative errno). */
#include "display.h"

#include "nx_ipc.h"

void* memset(void* d, int c, size_t n);
void* memcpy(void* d, const void* s, size_t n);

enum { REQUEST_BUFFER = 1, DEQUEUE_BUFFER = 3, QUEUE_BUFFER = 7, CONNECT = 10, DISCONNECT = 11, SET_PREALLOCATED_BUFFER = 14 };
enum { NATIVE_WINDOW_API_CPU = 2, HAL_PIXEL_FORMAT_RGBA_8888 = 1, GRALLOC_USAGE = 0xb00 /* HW render | texture */ };
enum { NV_LAYOUT_BLOCK_LINEAR = 3, NV_KIND_GENERIC_16BX2 = 0xfe };
static const uint64_t NV_COLOR_A8B8G8R8 = 0x100532120ull;

typedef struct {
  uint8_t bytes[0x400];
  uint32_t size; /* data bytes written after the header */
} Parcel;

static Parcel request, reply;

static void parcel_bytes(Parcel* p, const void* data, uint32_t n) {
  memcpy(p->bytes + 0x10 + p->size, data, n);
  p->size += (n + 3) & ~3u;
}
static void parcel_i32(Parcel* p, int32_t v) { parcel_bytes(p, &v, 4); }
/* A flattenable: its size, its file-descriptor count (none), its bytes. */
static void parcel_flattened(Parcel* p, const void* data, uint32_t n) {
  parcel_i32(p, (int32_t)n);
  parcel_i32(p, 0);
  parcel_bytes(p, data, n);
}
static void parcel_begin(Parcel* p) {
  static const char token[] = "android.gui.IGraphicBufferProducer";
  memset(p, 0, sizeof *p);
  parcel_i32(p, 0x100);
  parcel_i32(p, (int32_t)(sizeof token - 1));
  uint16_t utf16[sizeof token];
  for (size_t i = 0; i < sizeof token; ++i) utf16[i] = (uint16_t)token[i]; /* with the terminator */
  parcel_bytes(p, utf16, sizeof utf16);
}

/* TransactParcel(binder id, code, flags 0) with `request` in an A buffer, the reply parcel in a B buffer. The
   reply's data words land in `out` (up to `count`); the last word is the transaction's status. */
static Result transact(Display* d, uint32_t code, int32_t* out, uint32_t count) {
  const uint32_t header[4] = {request.size, 0x10, 0, 0x10 + request.size};
  memcpy(request.bytes, header, sizeof header);
  memset(&reply, 0, sizeof reply);
  const uint32_t input[3] = {(uint32_t)d->binder_id, code, 0};
  NxRequest q = nx_request(0, input, sizeof input);
  nx_add_a(&q, request.bytes, 0x10 + request.size);
  nx_add_b(&q, reply.bytes, sizeof reply.bytes);
  Result r = nx_call(d->binder, &q, 0);
  if (r) return r;
  uint32_t size, offset;
  memcpy(&size, reply.bytes, 4);
  memcpy(&offset, reply.bytes + 4, 4);
  if (size < 4 || offset + size > sizeof reply.bytes) return 0x1a60a; /* not a parcel */
  const uint32_t words = size / 4 < count ? size / 4 : count;
  memcpy(out, reply.bytes + offset, words * 4);
  int32_t status;
  memcpy(&status, reply.bytes + offset + size - 4, 4);
  return status == 0 ? 0 : DISPLAY_STATUS_ERROR(status);
}

/* A command with raw input and output and, optionally, the moved handle of a new object. */
static Result call(Handle session, uint32_t command, const void* input, uint32_t input_size, void* output, uint32_t output_size, Handle* moved) {
  NxReply r = {output, output_size, 0, 0};
  const Result result = nx_call_plain(session, command, input, input_size, &r);
  if (moved) *moved = r.moved;
  return result;
}

Result display_open(Display* d) {
  memset(d, 0, sizeof *d);
  Result r = sm_get_service(&d->root, "vi:u");
  if (r) return r;
  const uint32_t policy = 0; /* GetDisplayService (vi:u: command 0) of an application */
  r = call(d->root.session, 0, &policy, 4, 0, 0, &d->display_service);
  if (r == 0) r = call(d->display_service, 100, 0, 0, 0, 0, &d->binder); /* GetRelayService */
  if (r == 0) r = call(d->display_service, 1011, 0, 0, &d->display, 8, 0); /* OpenDefaultDisplay */
  if (r) return r;
  /* CreateStrayLayer(u32 flags, pad, u64 display) writes the native window parcel into a B buffer: the
     binder id is its data word 2. */
  static uint8_t window[0x100];
  const struct {
    uint32_t flags, padding;
    uint64_t display;
  } stray = {1, 0, d->display};
  uint64_t created[2] = {0, 0}; /* layer id, parcel size */
  NxRequest q = nx_request(2030, &stray, sizeof stray);
  nx_add_b(&q, window, sizeof window);
  NxReply got = {created, sizeof created, 0, 0};
  r = nx_call(d->display_service, &q, &got);
  if (r) return r;
  d->layer = created[0];
  uint32_t data_offset;
  memcpy(&data_offset, window + 4, 4);
  memcpy(&d->binder_id, window + data_offset + 8, 4);
  /* CONNECT(no listener, the CPU API, not producer-controlled): QueueBufferOutput {width, height, transform
     hint, pending buffers}, status. */
  parcel_begin(&request);
  parcel_i32(&request, 0);
  parcel_i32(&request, NATIVE_WINDOW_API_CPU);
  parcel_i32(&request, 0);
  int32_t output[5];
  r = transact(d, CONNECT, output, 5);
  if (r == 0) {
    d->width = (uint32_t)output[0];
    d->height = (uint32_t)output[1];
  }
  return r;
}

Result display_set_buffers(Display* d, const struct kg_buffer* buffers, int count, uint32_t width, uint32_t height) {
  for (int slot = 0; slot < count; ++slot) {
    /* A flattened GraphicBuffer: "GBFR", width, height, stride, format, usage, pid, refcount, fd count, int
       count; then Nvidia's native handle: int 1 the nvmap id, int 3 its magic, ints 7-8 the formats, 9 the
       stride, 10 the size, 11 the plane count, the plane from int 13 {width, height, u64 colour format,
       layout, pitch, -, offset, kind, block height log2, ...; 0x58 bytes}. */
    uint32_t gb[10 + 13 + 3 * 0x58 / 4 + 2];
    memset(gb, 0, sizeof gb);
    const uint32_t header[10] = {0x47424652, width, height, width, HAL_PIXEL_FORMAT_RGBA_8888, GRALLOC_USAGE, 0, 0, 0,
                                 (uint32_t)(sizeof gb / 4 - 10)};
    memcpy(gb, header, sizeof header);
    uint32_t* ints = gb + 10;
    ints[0] = 0xffffffff;
    ints[1] = buffers[slot].handle;
    ints[3] = 0xdaffcaff;
    ints[7] = ints[8] = HAL_PIXEL_FORMAT_RGBA_8888;
    ints[9] = width;
    ints[10] = (uint32_t)buffers[slot].size;
    ints[11] = 1;
    uint32_t* plane = ints + 13;
    plane[0] = width;
    plane[1] = height;
    plane[2] = (uint32_t)NV_COLOR_A8B8G8R8;
    plane[3] = (uint32_t)(NV_COLOR_A8B8G8R8 >> 32);
    plane[4] = NV_LAYOUT_BLOCK_LINEAR;
    plane[5] = width * 4; /* pitch */
    plane[7] = 0;         /* offset in the nvmap buffer */
    plane[8] = NV_KIND_GENERIC_16BX2;
    plane[9] = 0; /* blocks one GOB high */
    parcel_begin(&request);
    parcel_i32(&request, slot);
    parcel_i32(&request, 1); /* a buffer follows */
    parcel_flattened(&request, gb, sizeof gb);
    int32_t status;
    Result r = transact(d, SET_PREALLOCATED_BUFFER, &status, 1);
    /* REQUEST_BUFFER(slot), as a producer does before its first use of a slot. */
    parcel_begin(&request);
    parcel_i32(&request, slot);
    int32_t present;
    if (r == 0) r = transact(d, REQUEST_BUFFER, &present, 1);
    if (r) return r;
  }
  return 0;
}

Result display_dequeue(Display* d, int32_t* slot) {
  parcel_begin(&request);
  const int32_t arguments[5] = {0, (int32_t)d->width, (int32_t)d->height, HAL_PIXEL_FORMAT_RGBA_8888, GRALLOC_USAGE}; /* async, size, format, usage */
  for (int i = 0; i < 5; ++i) parcel_i32(&request, arguments[i]);
  int32_t output[1];
  const Result r = transact(d, DEQUEUE_BUFFER, output, 1); /* slot, then the fence to wait for before drawing */
  *slot = output[0];
  return r;
}

Result display_queue(Display* d, int32_t slot, const struct kg_fence* fence) {
  /* QueueBufferInput: timestamp, is-auto-timestamp, crop, scaling mode, transform, sticky transform, unknown,
     swap interval at 0x2c, then the multi-fence {count, 4 x (syncpoint id, value)} at 0x30. */
  uint8_t input[0x54];
  memset(input, 0, sizeof input);
  const uint32_t swap_interval = 1, fences = 1;
  memcpy(input + 0x2c, &swap_interval, 4);
  memcpy(input + 0x30, &fences, 4);
  memcpy(input + 0x34, fence, sizeof *fence);
  parcel_begin(&request);
  parcel_i32(&request, slot);
  parcel_flattened(&request, input, sizeof input);
  int32_t output[5];
  return transact(d, QUEUE_BUFFER, output, 5);
}

void display_close(Display* d) {
  parcel_begin(&request);
  parcel_i32(&request, NATIVE_WINDOW_API_CPU);
  int32_t status;
  transact(d, DISCONNECT, &status, 1);
  call(d->display_service, 2031, &d->layer, 8, 0, 0, 0);   /* DestroyStrayLayer */
  call(d->display_service, 1020, &d->display, 8, 0, 0, 0); /* CloseDisplay */
  svc_close_handle(d->binder);
  svc_close_handle(d->display_service);
  svc_close_handle(d->root.session);
}
