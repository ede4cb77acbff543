/* nx_ipc.h: the request is written into the thread's TLS word by word. */
#include "nx_ipc.h"

void* memcpy(void* d, const void* s, size_t n);
void* memset(void* d, int c, size_t n);

__asm__(".text\n"
        ".global svc_wait_synchronization\nsvc_wait_synchronization:\n"
        "  mov x3, x2\n  mov x2, x1\n  mov x1, x0\n  svc #0x18\n  ret\n"
        ".global svc_reset_signal\nsvc_reset_signal:\n  svc #0x17\n  ret\n"
        ".global svc_create_transfer_memory\nsvc_create_transfer_memory:\n"
        "  str x0, [sp, #-16]!\n  svc #0x15\n  ldr x2, [sp], #16\n  str w1, [x2]\n  ret\n"
        ".global svc_map_shared_memory\nsvc_map_shared_memory:\n  svc #0x13\n  ret\n"
        ".global svc_unmap_shared_memory\nsvc_unmap_shared_memory:\n  svc #0x14\n  ret\n");

static uint32_t* message_buffer(void) {
  uint32_t* p;
  __asm__ volatile("mrs %0, tpidrro_el0" : "=r"(p));
  return p;
}

/* A and B descriptors: size bits 0-31, address bits 0-31, then address bits 36-38 at bit 2, size bits 32-35 at
   bit 24 and address bits 32-35 at bit 28. */
static uint32_t put_mapped(uint32_t* m, uint32_t at, const NxBuffer* b) {
  const uint64_t address = (uint64_t)b->address;
  m[at] = (uint32_t)b->size;
  m[at + 1] = (uint32_t)address;
  m[at + 2] = (uint32_t)(((address >> 36) & 7) << 2 | ((b->size >> 32) & 15) << 24 | ((address >> 32) & 15) << 28);
  return at + 3;
}

Result nx_call(Handle session, const NxRequest* q, NxReply* r) {
  uint32_t* m = message_buffer();
  for (int i = 0; i < 64; ++i) m[i] = 0;
  m[0] = 4u | (uint32_t)q->x_count << 16 | (uint32_t)q->a_count << 20 | (uint32_t)q->b_count << 24;
  uint32_t at = 2;
  const int handles = q->send_pid || q->copy_count;
  if (handles) {
    m[at++] = (q->send_pid ? 1u : 0u) | (uint32_t)q->copy_count << 1;
    if (q->send_pid) at += 2; /* the kernel fills the PID */
    for (int i = 0; i < q->copy_count; ++i) m[at++] = q->copy_handles[i];
  }
  for (int i = 0; i < q->x_count; ++i) {
    /* X: index bits 0-5, address bits 36-38 at 6, bits 32-35 at 12, size at 16; then address bits 0-31. */
    const uint64_t address = (uint64_t)q->x[i].address;
    m[at++] = (uint32_t)i | (uint32_t)(((address >> 36) & 7) << 6 | ((address >> 32) & 15) << 12 | (q->x[i].size & 0xffff) << 16);
    m[at++] = (uint32_t)address;
  }
  for (int i = 0; i < q->a_count; ++i) at = put_mapped(m, at, &q->a[i]);
  for (int i = 0; i < q->b_count; ++i) at = put_mapped(m, at, &q->b[i]);
  const uint32_t raw_start = at, data = (at + 3) & ~3u;
  m[data] = 0x49434653; /* "SFCI" */
  m[data + 2] = q->command;
  if (q->input_size) memcpy(&m[data + 4], q->input, q->input_size);
  m[1] = (data - raw_start + 4 + (q->input_size + 3) / 4 + 4) | (handles ? 1u << 31 : 0u);

  Result result = svc_send_sync_request(session);
  if (result) return result;
  at = 2;
  if (m[1] >> 31) {
    const uint32_t descriptor = m[at++];
    const uint32_t copies = (descriptor >> 1) & 15, moves = (descriptor >> 5) & 15;
    if (descriptor & 1) at += 2;
    if (r && copies) r->copied = m[at];
    if (r && moves) r->moved = m[at + copies];
    at += copies + moves;
  }
  const uint32_t reply = (at + 3) & ~3u;
  if (m[reply] != 0x4f434653) return 0x1a60a; /* no "SFCO" */
  result = m[reply + 2];
  if (result == 0 && r && r->output) memcpy(r->output, &m[reply + 4], r->output_size);
  return result;
}

NxRequest nx_request(uint32_t command, const void* input, uint32_t input_size) {
  NxRequest q;
  memset(&q, 0, sizeof q);
  q.command = command;
  q.input = input;
  q.input_size = input_size;
  return q;
}

void nx_add_x(NxRequest* q, const void* address, uint64_t size) {
  q->x[q->x_count].address = address;
  q->x[q->x_count++].size = size;
}
void nx_add_a(NxRequest* q, const void* address, uint64_t size) {
  q->a[q->a_count].address = address;
  q->a[q->a_count++].size = size;
}
void nx_add_b(NxRequest* q, void* address, uint64_t size) {
  q->b[q->b_count].address = address;
  q->b[q->b_count++].size = size;
}

Result nx_call_plain(Handle session, uint32_t command, const void* input, uint32_t input_size, NxReply* reply) {
  const NxRequest q = nx_request(command, input, input_size);
  return nx_call(session, &q, reply);
}
