/* Our own small Horizon layer for the sample (no libnx): SVC stubs, the homebrew loader's configuration,
   HIPC/CMIF/TIPC requests written into the thread's TLS, sm, lm and set. Field layouts: switchbrew's
   "SVC", "Homebrew ABI", "IPC_Marshalling", "Services API", "Log services", "Settings services". */
#ifndef SAMPLE_SWITCH_NX_H
#define SAMPLE_SWITCH_NX_H
#include <stddef.h>
#include <stdint.h>

typedef uint32_t Result;
typedef uint32_t Handle;

typedef struct {
  uint32_t key, flags;
  uint64_t value[2];
} ConfigEntry;

/* What crt0 learned from the loader's entries. */
typedef struct {
  Handle main_thread;
  void* heap;
  uint64_t heap_size;
  const char* argv;
  uint32_t hos_version;
} LoaderInfo;
extern LoaderInfo nx_loader;

Result svc_connect_to_named_port(Handle* out, const char* name);
Result svc_send_sync_request(Handle session);
Result svc_close_handle(Handle handle);
Result svc_output_debug_string(const char* text, uint64_t size);

/* One service session (libnx's Service, reduced). */
typedef struct {
  Handle session;
  uint16_t pointer_buffer_size;
} Service;

Result sm_initialize(void);
Result sm_get_service(Service* out, const char* name);
Result lm_open_logger(Service* logger);
Result lm_log(Service* logger, const char* text);
Result set_get_language_code(uint64_t* code);

size_t nx_strlen(const char* s);
#endif
