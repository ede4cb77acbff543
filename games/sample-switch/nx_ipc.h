/* CMIF requests with buffers and handles, for the services whose commands take them (fsp-srv, audout:u):
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
  int copy_count; /* 0 or 1 */
  Handle copy_handle;
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

Result svc_wait_synchronization(const Handle* handles, int32_t count, uint64_t timeout_ns);
Result svc_reset_signal(Handle handle);
#endif
