/* pad.h. hid's commands take the applet resource user id with the PID; this program has no applet, so its
   aruid is 0. */
#include "pad.h"

#include "nx_ipc.h"

void* memset(void* d, int c, size_t n);

enum { SHARED_SIZE = 0x40000, NPAD_AT = 0x9a00, NPAD_ENTRY = 0x5000, NPAD_HANDHELD_INDEX = 8 };
enum { FULL_KEY_LIFO = 0x28, HANDHELD_LIFO = 0x378 }; /* in an npad entry */
enum { STYLE_FULL_KEY = 1, STYLE_HANDHELD = 2, NPAD_NO1 = 0, NPAD_HANDHELD = 0x20 };

/* A hid command with the aruid (and the PID descriptor) after `input`, and optionally an X buffer. */
static Result hid_call(Handle session, uint32_t command, const uint32_t* input, uint32_t input_words, const void* x,
                       uint32_t x_size, Handle* moved) {
  uint32_t arguments[4] = {0, 0, 0, 0};
  for (uint32_t i = 0; i < input_words; ++i) arguments[i] = input[i];
  /* the u64 aruid (0) follows at the next 8-byte boundary */
  const uint32_t size = ((input_words + 1) & ~1u) * 4 + 8;
  NxRequest q = nx_request(command, arguments, size);
  q.send_pid = 1;
  if (x) nx_add_x(&q, x, x_size);
  NxReply reply = {0, 0, 0, 0};
  const Result r = nx_call(session, &q, &reply);
  if (moved) *moved = reply.moved;
  return r;
}

Result pad_open(Pad* pad, void* where) {
  memset(pad, 0, sizeof *pad);
  Result r = sm_get_service(&pad->hid, "hid");
  if (r) return r;
  r = hid_call(pad->hid.session, 0, 0, 0, 0, 0, &pad->resource); /* CreateAppletResource: its session moved */
  if (r) return r;
  NxReply shared = {0, 0, 0, 0};
  r = nx_call_plain(pad->resource, 0, 0, 0, &shared); /* IAppletResource GetSharedMemoryHandle: a copy handle */
  if (r) return r;
  pad->memory = shared.copied;
  r = svc_map_shared_memory(pad->memory, where, SHARED_SIZE, 1 /* read */);
  if (r) return r;
  pad->shared = where;
  const uint32_t styles = STYLE_FULL_KEY | STYLE_HANDHELD;
  static const uint32_t ids[2] = {NPAD_NO1, NPAD_HANDHELD};
  r = hid_call(pad->hid.session, 100, &styles, 1, 0, 0, 0); /* SetSupportedNpadStyleSet */
  if (r == 0) r = hid_call(pad->hid.session, 102, 0, 0, ids, sizeof ids, 0); /* SetSupportedNpadIdType */
  if (r == 0) r = hid_call(pad->hid.session, 103, 0, 0, 0, 0, 0);             /* ActivateNpad */
  return r;
}

/* A lifo: {u64 unused, u64 entry count (17), u64 tail, u64 count}, then entries of {u64 sampling number, the
   state: u64 sampling number, u64 buttons, s32 left x, left y, right x, right y, u32 attributes, pad}. */
static int latest_left_stick(const volatile uint8_t* lifo, int32_t* x, int32_t* y) {
  const uint64_t entries = *(const volatile uint64_t*)(lifo + 8), tail = *(const volatile uint64_t*)(lifo + 0x10);
  const uint64_t count = *(const volatile uint64_t*)(lifo + 0x18);
  if (count == 0 || tail >= entries) return 0;
  const volatile uint8_t* state = lifo + 0x20 + tail * 0x30 + 8;
  *x = *(const volatile int32_t*)(state + 0x10);
  *y = *(const volatile int32_t*)(state + 0x14);
  return 1;
}

void pad_left_stick(const Pad* pad, int32_t* x, int32_t* y) {
  *x = *y = 0;
  if (!pad->shared) return;
  const volatile uint8_t* npads = pad->shared + NPAD_AT;
  if (latest_left_stick(npads + FULL_KEY_LIFO, x, y) && (*x || *y)) return;
  latest_left_stick(npads + NPAD_HANDHELD_INDEX * NPAD_ENTRY + HANDHELD_LIFO, x, y);
}

void pad_close(Pad* pad) {
  if (pad->shared) svc_unmap_shared_memory(pad->memory, (void*)pad->shared, SHARED_SIZE);
  if (pad->memory) svc_close_handle(pad->memory);
  if (pad->resource) svc_close_handle(pad->resource);
  svc_close_handle(pad->hid.session);
}
