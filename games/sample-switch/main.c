/* The Switch sample: asks sm for lm and set the way libnx does (sm over TIPC, QueryPointerBufferSize after
   each GetService), logs its lines through lm and OutputDebugString, draws its scene through nvdrv and vi
   (moved by hid's left stick), keeps a score in save data, plays a tone, and returns to the loader. */
#include "lines.h"
#include "nx.h"
#include "save_and_tone.h"
#include "scene.h"

static Service logger;

static void emit(const char* line) {
  lm_log(&logger, line);
  svc_output_debug_string(line, nx_strlen(line));
}

static void emit_with_number(const char* prefix, uint64_t value, int hex) {
  char text[96];
  size_t n = 0;
  while (prefix[n] && n < 60) {
    text[n] = prefix[n];
    ++n;
  }
  char digits[24];
  int d = 0;
  const unsigned base = hex ? 16 : 10;
  do digits[d++] = "0123456789abcdef"[value % base]; while ((value /= base) != 0);
  if (hex) {
    text[n++] = '0';
    text[n++] = 'x';
  }
  while (d) text[n++] = digits[--d];
  text[n] = 0;
  emit(text);
}

int main(void) {
  if (sm_initialize() != 0) return 3;
  const Result opened = lm_open_logger(&logger);
  if (opened) return (int)opened;
  emit("sample-switch: started");
  emit_with_number("heap bytes: ", nx_loader.heap_size, 1);
  volatile uint64_t* heap = nx_loader.heap;
  heap[0] = 0x1234;
  heap[nx_loader.heap_size / 8 - 1] = heap[0] + 1;
  emit_with_number("heap last word: ", heap[nx_loader.heap_size / 8 - 1], 1);
  uint64_t language = 0;
  if (set_get_language_code(&language) == 0) {
    char text[32] = "language: ";
    for (int i = 0; i < 8 && (language >> (8 * i)) & 0xff; ++i) text[10 + i] = (char)(language >> (8 * i));
    emit(text);
  }
  sample_draw_scene(emit, emit_with_number);
  sample_save_score(emit, emit_with_number);
  sample_play_tone(emit, emit_with_number);
  sample_lines(emit);
  emit("sample-switch: done");
  return 0;
}
