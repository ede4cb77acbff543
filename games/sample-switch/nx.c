/* crt0, SVC stubs and the IPC layer of nx.h. */
#include "nx.h"

LoaderInfo nx_loader;
int main(void);

/* The module starts with a branch to the entry, the MOD0 offset and room for the NRO header (0x10..0x80). */
__asm__(".pushsection .text.crt0, \"ax\"\n"
        ".global _start\n"
        "_start:\n"
        "  b nx_entry\n"
        "  .word module_header - _start\n"
        "  .space 0x78\n"
        ".popsection\n.pushsection .rodata.mod0, \"a\"\n"
        ".balign 4\n"
        "module_header:\n"
        "  .ascii \"MOD0\"\n"
        "  .word module_dynamic_end - module_header\n"
        "  .word __bss_start - module_header\n"
        "  .word __bss_end - module_header\n"
        "  .word 0, 0\n"
        "  .word 0\n"
        ".popsection\n");

/* SVC stubs: arguments in x0.., result in w0, outputs in x1.. (switchbrew "SVC"). */
__asm__(".text\n"
        ".global svc_connect_to_named_port\nsvc_connect_to_named_port:\n"
        "  str x0, [sp, #-16]!\n  svc #0x1f\n  ldr x2, [sp], #16\n  str w1, [x2]\n  ret\n"
        ".global svc_send_sync_request\nsvc_send_sync_request:\n  svc #0x21\n  ret\n"
        ".global svc_close_handle\nsvc_close_handle:\n  svc #0x16\n  ret\n"
        ".global svc_output_debug_string\nsvc_output_debug_string:\n  svc #0x27\n  ret\n");

void* memset(void* d, int c, size_t n) {
  unsigned char* p = d;
  while (n--) *p++ = (unsigned char)c;
  return d;
}
void* memcpy(void* d, const void* s, size_t n) {
  unsigned char* p = d;
  const unsigned char* q = s;
  while (n--) *p++ = *q++;
  return d;
}
size_t nx_strlen(const char* s) {
  size_t n = 0;
  while (s[n]) ++n;
  return n;
}

/* Homebrew ABI: x0 points at the configuration entries, x1 is -1 for an NRO; returning ends the program. */
int nx_entry(const ConfigEntry* entries, uint64_t loaded_as_nro) {
  for (unsigned char* p = (unsigned char*)&nx_loader; p < (unsigned char*)(&nx_loader + 1); ++p) *p = 0;
  if (loaded_as_nro != ~(uint64_t)0) return 1;
  for (const ConfigEntry* e = entries; e->key != 0; ++e) {
    switch (e->key) {
    case 1: nx_loader.main_thread = (Handle)e->value[0]; break;                               /* MainThreadHandle */
    case 3: nx_loader.heap = (void*)e->value[0]; nx_loader.heap_size = e->value[1]; break; /* OverrideHeap */
    case 5: nx_loader.argv = (const char*)e->value[1]; break;                               /* Argv */
    case 14: nx_loader.hos_version = (uint32_t)e->value[0]; break;                          /* HosVersion */
    default:
      if (e->flags & 1) return 2; /* a mandatory entry this crt0 does not know */
    }
  }
  return main();
}

static uint32_t* tls(void) {
  uint32_t* p;
  __asm__ volatile("mrs %0, tpidrro_el0" : "=r"(p));
  return p;
}

static const uint32_t sfci = 0x49434653; /* "SFCI" */

/* A CMIF request: header words, then (if any) the handle descriptor with only the PID flag and the PID
   placeholder, one optional X descriptor, the raw section with SFCI at the next 16-byte boundary, the input. */
static void cmif_request(uint16_t type, uint32_t command, const void* input, uint32_t input_size, int send_pid, const void* x_buffer,
                         uint32_t x_size) {
  uint32_t* m = tls();
  for (int i = 0; i < 64; ++i) m[i] = 0;
  uint32_t at = 2;
  m[0] = type | (x_buffer ? 1u << 16 : 0);
  if (send_pid) {
    m[at++] = 1;
    at += 2;
  }
  if (x_buffer) {
    const uint64_t address = (uint64_t)x_buffer;
    m[at++] = (uint32_t)(((address >> 36) & 7) << 6 | ((address >> 32) & 15) << 12 | x_size << 16);
    m[at++] = (uint32_t)address;
  }
  const uint32_t raw_start = at, data = (at + 3) & ~3u; /* 16-byte boundary in words */
  m[data] = sfci;
  m[data + 2] = command;
  memcpy(&m[data + 4], input, input_size);
  m[1] = (data - raw_start + 4 + (input_size + 3) / 4 + 4) | (send_pid ? 1u << 31 : 0); /* + 16 bytes of slack */
}

/* The reply: its result and data (after SFCO at the first 16-byte boundary past the handles), and the first
   move handle. */
static Result cmif_reply(void* output, uint32_t output_size, Handle* moved) {
  const uint32_t* m = tls();
  uint32_t at = 2;
  if (m[1] >> 31) {
    const uint32_t descriptor = m[at++];
    const uint32_t copies = (descriptor >> 1) & 15, moves = (descriptor >> 5) & 15;
    if (descriptor & 1) at += 2;
    if (moved && moves) *moved = m[at + copies];
    at += copies + moves;
  }
  const uint32_t data = (at + 3) & ~3u;
  if (m[data] != 0x4f434653) return 0x1a60a; /* no "SFCO" */
  if (m[data + 2] == 0 && output) memcpy(output, &m[data + 4], output_size);
  return m[data + 2];
}

static Result query_pointer_buffer_size(Service* s) {
  cmif_request(5, 3, 0, 0, 0, 0, 0); /* Control: QueryPointerBufferSize */
  Result r = svc_send_sync_request(s->session);
  if (r == 0) r = cmif_reply(&s->pointer_buffer_size, 2, 0);
  return r;
}

static Handle sm_session;

/* sm over TIPC, as libnx uses it from 12.0.0: header type 16 + command, raw data right after the header. */
static Result tipc_sm(uint32_t command, uint64_t argument, int send_pid, Handle* moved) {
  uint32_t* m = tls();
  for (int i = 0; i < 16; ++i) m[i] = 0;
  m[0] = 16 + command;
  m[1] = 2 | (send_pid ? 1u << 31 : 0);
  uint32_t at = 2;
  if (send_pid) {
    m[at++] = 1;
    at += 2;
  }
  memcpy(&m[at], &argument, 8);
  Result r = svc_send_sync_request(sm_session);
  if (r) return r;
  at = 2;
  if (m[1] >> 31) {
    const uint32_t descriptor = m[at++];
    if (moved && ((descriptor >> 5) & 15)) *moved = m[at + ((descriptor >> 1) & 15)];
    at += ((descriptor >> 1) & 15) + ((descriptor >> 5) & 15);
  }
  return m[at];
}

Result sm_initialize(void) {
  Result r = svc_connect_to_named_port(&sm_session, "sm:");
  if (r) return r;
  return tipc_sm(0, 0, 1, 0); /* RegisterClient with the PID */
}

Result sm_get_service(Service* out, const char* name) {
  uint64_t encoded = 0;
  for (int i = 0; i < 8 && name[i]; ++i) encoded |= (uint64_t)(unsigned char)name[i] << (8 * i);
  out->session = 0;
  Result r = tipc_sm(1, encoded, 0, &out->session);
  if (r) return r;
  return query_pointer_buffer_size(out); /* as libnx's serviceCreate does */
}

Result lm_open_logger(Service* logger) {
  Service lm;
  Result r = sm_get_service(&lm, "lm");
  if (r) return r;
  const uint64_t placeholder = 0;
  cmif_request(4, 0, &placeholder, 8, 1, 0, 0); /* OpenLogger(pid) */
  r = svc_send_sync_request(lm.session);
  if (r == 0) r = cmif_reply(0, 0, &logger->session);
  svc_close_handle(lm.session);
  return r;
}

Result lm_log(Service* logger, const char* text) {
  /* One packet, head and tail: the 0x18-byte header, then a TextLog chunk (key 2, one-byte ULEB128 size). */
  static uint8_t packet[0x18 + 2 + 120];
  size_t n = nx_strlen(text);
  if (n > 120) n = 120;
  memset(packet, 0, 0x18);
  packet[16] = 3; /* head | tail */
  packet[18] = 1; /* Info */
  const uint32_t payload = (uint32_t)(2 + n);
  memcpy(packet + 20, &payload, 4);
  packet[0x18] = 2;
  packet[0x19] = (uint8_t)n;
  memcpy(packet + 0x1a, text, n);
  cmif_request(4, 0, 0, 0, 0, packet, 0x18 + payload);
  Result r = svc_send_sync_request(logger->session);
  if (r == 0) r = cmif_reply(0, 0, 0);
  return r;
}

Result set_get_language_code(uint64_t* code) {
  Service set;
  Result r = sm_get_service(&set, "set");
  if (r) return r;
  cmif_request(4, 0, 0, 0, 0, 0, 0);
  r = svc_send_sync_request(set.session);
  if (r == 0) r = cmif_reply(code, 8, 0);
  svc_close_handle(set.session);
  return r;
}
