/* CMIF requests with buffers and handles, for the services whose commands take them (fsp-srv, audout:u, nvdrv,
   vi, hid):
   X (pointer), A (send) and B (receive) descriptors, the PID, copy handles in; the first moved and copied
   handle out. Layout: switchbrew "IPC_Marshalling". */
#ifndef SAMPLE_SWITCH_NX_IPC_H
#define SAMPLE_SWITCH_NX_IPC_H
#include "nx.h"

typedef struct {
  const void* address;
  uint64_t size;
} NxBuffer;

typedef struct {
  uint32_t command;
  const void* input;
  uint32_t input_size;
  int send_pid;
  int copy_count; /* up to 2 */
  Handle copy_handles[2];
  int x_count, a_count, b_count; /* up to 2 each */
  NxBuffer x[2], a[2], b[2];
} NxRequest;

typedef struct {
  void* output;
  uint32_t output_size;
  Handle moved;  /* the first move handle (a new object's session) */
  Handle copied; /* the first copy handle (an event) */
} NxReply;

/* Sends the request on `session`; the command's result (or the kernel's). `reply` may be 0. */
Result nx_call(Handle session, const NxRequest* request, NxReply* reply);
/* A request for `command` with `input` and no buffers or handles yet; the nx_add_* add buffers to it. */
NxRequest nx_request(uint32_t command, const void* input, uint32_t input_size);
void nx_add_x(NxRequest* request, const void* address, uint64_t size);
void nx_add_a(NxRequest* request, const void* address, uint64_t size);
void nx_add_b(NxRequest* request, void* address, uint64_t size);
/* nx_call of a request with only `input`. */
Result nx_call_plain(Handle session, uint32_t command, const void* input, uint32_t input_size, NxReply* reply);

Result svc_wait_synchronization(const Handle* handles, int32_t count, uint64_t timeout_ns);
Result svc_reset_signal(Handle handle);
/* CreateTransferMemory (0x15) of [address, address + size) with `permission` left to this process. */
Result svc_create_transfer_memory(Handle* out, void* address, uint64_t size, uint32_t permission);
/* MapSharedMemory (0x13) / UnmapSharedMemory (0x14). */
Result svc_map_shared_memory(Handle memory, void* address, uint64_t size, uint32_t permission);
Result svc_unmap_shared_memory(Handle memory, void* address, uint64_t size);

/* The pseudo handle of the current process. */
#define NX_CURRENT_PROCESS 0xffff8001u
#endif
