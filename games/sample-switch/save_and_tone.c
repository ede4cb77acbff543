/* fsp-srv and audout:u as libnx calls them (switchbrew "Filesystem services", "Audio services"). */
#include "save_and_tone.h"

#include "nx.h"
#include "nx_ipc.h"
#include "tone.h"

void* memset(void* d, int c, size_t n);
void* memcpy(void* d, const void* s, size_t n);

static char path_buffer[0x301];
/* A command whose one X buffer is a path (FS_MAX_PATH bytes). */
static Result call_with_path(Handle fs, uint32_t command, const char* path, const void* input, uint32_t input_size, NxReply* reply) {
  memset(path_buffer, 0, sizeof path_buffer);
  memcpy(path_buffer, path, nx_strlen(path));
  NxRequest q = nx_request(command, input, input_size);
  nx_add_x(&q, path_buffer, sizeof path_buffer);
  return nx_call(fs, &q, reply);
}

static Result open_save(Handle fsp, Handle* fs) {
  /* FsSaveDataAttribute: application id 0 (this title), user id 0, system save id 0, type 3 (Device). */
  uint8_t attribute[0x40];
  memset(attribute, 0, sizeof attribute);
  attribute[0x20] = 3;
  uint8_t create[0x90]; /* the attribute, then SaveDataCreationInfo and SaveDataMetaInfo left zero */
  memset(create, 0, sizeof create);
  memcpy(create, attribute, sizeof attribute);
  const Result created = nx_call_plain(fsp, 22, create, sizeof create, 0);
  if (created != 0 && created != 0x402) return created; /* PathAlreadyExists: made by an earlier run */
  uint8_t open[0x48]; /* u8 space id 1 (User), 7 padding, the attribute */
  memset(open, 0, sizeof open);
  open[0] = 1;
  memcpy(open + 8, attribute, sizeof attribute);
  NxReply reply = {0, 0, 0, 0};
  const Result r = nx_call_plain(fsp, 51, open, sizeof open, &reply);
  *fs = reply.moved;
  return r;
}

static Result file_transfer(Handle file, uint32_t command, uint64_t offset, void* data, uint64_t size, uint64_t* done) {
  /* Read and Write: {u32 option, u32 padding, s64 offset, s64 size}; Read's B, Write's A buffer. */
  const struct {
    uint32_t option, padding;
    uint64_t offset, size;
  } input = {0, 0, offset, size};
  NxRequest q = nx_request(command, &input, sizeof input);
  if (command == 0) nx_add_b(&q, data, size);
  else nx_add_a(&q, data, size);
  NxReply reply = {done, done ? 8 : 0, 0, 0};
  return nx_call(file, &q, &reply);
}

void sample_save_score(EmitLine emit, EmitNumber emit_number) {
  Service fsp;
  if (sm_get_service(&fsp, "fsp-srv")) {
    emit("save: no fsp-srv");
    return;
  }
  const uint64_t placeholder = 0;
  NxRequest set_process = nx_request(1, &placeholder, 8); /* SetCurrentProcess(pid) */
  set_process.send_pid = 1;
  Result r = nx_call(fsp.session, &set_process, 0);
  Handle fs = 0;
  if (r == 0) r = open_save(fsp.session, &fs);
  if (r) {
    emit_number("save: cannot open the save data: ", r, 1);
    svc_close_handle(fsp.session);
    return;
  }
  uint64_t score = 0, done = 0;
  const uint32_t read_mode = 1;
  NxReply opened = {0, 0, 0, 0};
  r = call_with_path(fs, 8, "/score.bin", &read_mode, 4, &opened);
  if (r == 0) {
    r = file_transfer(opened.moved, 0, 0, &score, 8, &done);
    svc_close_handle(opened.moved);
    if (r == 0 && done == 8) emit_number("save: read score ", score, 0);
    else emit_number("save: cannot read the score: ", r, 1);
  } else {
    emit("save: no score yet");
    const struct {
      uint32_t option, padding;
      uint64_t size;
    } create = {0, 0, 0};
    r = call_with_path(fs, 0, "/score.bin", &create, sizeof create, 0);
  }
  score += SCORE_STEP;
  const uint32_t write_mode = 2 | 4; /* write, append */
  if (r == 0) r = call_with_path(fs, 8, "/score.bin", &write_mode, 4, &opened);
  if (r == 0) {
    r = file_transfer(opened.moved, 1, 0, &score, 8, 0);
    svc_close_handle(opened.moved);
  }
  if (r == 0) r = nx_call_plain(fs, 10, 0, 0, 0); /* Commit: the score becomes the save's */
  if (r == 0) emit_number("save: wrote score ", score, 0);
  else emit_number("save: cannot write the score: ", r, 1);
  svc_close_handle(fs);
  svc_close_handle(fsp.session);
}

/* AudioOutBuffer: next, sample buffer, its size, data size, data offset. */
typedef struct {
  uint64_t next, buffer, buffer_size, data_size, data_offset;
} AudioOutBuffer;

static AudioOutBuffer tone_buffers[TONE_BUFFERS];
static int16_t tone_samples[TONE_FRAMES * 2] __attribute__((aligned(0x1000)));

void sample_play_tone(EmitLine emit, EmitNumber emit_number) {
  const uint32_t frames_per_buffer = TONE_FRAMES / TONE_BUFFERS;
  for (uint32_t n = 0; n < TONE_FRAMES; ++n) {
    const int16_t v = ((uint64_t)n * 2 * TONE_HZ / TONE_RATE) % 2 == 0 ? TONE_AMPLITUDE : -TONE_AMPLITUDE;
    tone_samples[2 * n] = tone_samples[2 * n + 1] = v;
  }
  Service audout;
  if (sm_get_service(&audout, "audout:u")) {
    emit("audio: no audout:u");
    return;
  }
  /* OpenAudioOut {u32 rate, u16 channels (0, 0: the defaults), u16 padding, u64 aruid} + pid + the process
     handle, the device name in (A, empty: the default) and out (B). */
  static char name_in[8], name_out[0x100];
  const struct {
    uint32_t rate;
    uint16_t channels, padding;
    uint64_t aruid;
  } open = {0, 0, 0, 0};
  struct {
    uint32_t rate, channels, format, state;
  } opened;
  NxRequest q = nx_request(1, &open, sizeof open);
  q.send_pid = 1;
  q.copy_count = 1;
  q.copy_handles[0] = NX_CURRENT_PROCESS;
  nx_add_a(&q, name_in, 0);
  nx_add_b(&q, name_out, sizeof name_out);
  NxReply reply = {&opened, sizeof opened, 0, 0};
  Result r = nx_call(audout.session, &q, &reply);
  const Handle out = reply.moved;
  Handle event = 0;
  if (r == 0) {
    NxReply registered = {0, 0, 0, 0};
    r = nx_call_plain(out, 4, 0, 0, &registered); /* RegisterBufferEvent */
    event = registered.copied;
  }
  for (uint32_t i = 0; r == 0 && i < TONE_BUFFERS; ++i) {
    AudioOutBuffer* b = &tone_buffers[i];
    b->next = 0;
    b->buffer = (uint64_t)&tone_samples[2 * frames_per_buffer * i];
    b->buffer_size = b->data_size = frames_per_buffer * 4;
    b->data_offset = 0;
    const uint64_t tag = (uint64_t)b;
    q = nx_request(3, &tag, 8); /* AppendAudioOutBuffer(tag) + the AudioOutBuffer in an A buffer */
    nx_add_a(&q, b, sizeof *b);
    r = nx_call(out, &q, 0);
  }
  if (r == 0) r = nx_call_plain(out, 1, 0, 0, 0); /* Start */
  uint32_t released = 0;
  static uint64_t tags[TONE_BUFFERS];
  while (r == 0 && released < TONE_BUFFERS) {
    r = svc_wait_synchronization(&event, 1, 2000000000ull);
    if (r == 0) r = svc_reset_signal(event);
    uint32_t count = 0;
    q = nx_request(5, 0, 0); /* GetReleasedAudioOutBuffer into a B buffer */
    nx_add_b(&q, tags, sizeof tags);
    NxReply got = {&count, 4, 0, 0};
    if (r == 0) r = nx_call(out, &q, &got);
    released += count;
  }
  if (r == 0) r = nx_call_plain(out, 2, 0, 0, 0); /* Stop */
  if (r == 0) emit_number("audio: played frames: ", (uint64_t)released * frames_per_buffer, 0);
  else emit_number("audio: failed: ", r, 1);
  if (event) svc_close_handle(event);
  if (out) svc_close_handle(out);
  svc_close_handle(audout.session);
}
