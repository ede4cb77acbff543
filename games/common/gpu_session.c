#include "gpu_session.h"

#include <stdio.h>

#include "png_writer.h"

int gpu_session_open(struct gpu_session *s, const char *title, enum kg_family family, int argc, char **argv) {
  s->title = title;
  s->frame_directory = argc > 1 ? argv[1] : ".";
  if (kg_open(&s->device, family) != 0) {
    fprintf(stderr, "%s: no GPU; nothing rendered\n", title);
    return 2;
  }
  if (kg_buffer_alloc(&s->device, 0x10000, &s->commands) != 0) return 1;
  kg_push_begin(&s->push, &s->commands);
  kg_bind_classes(&s->push, family);
  return 0;
}

void gpu_session_close(struct gpu_session *s) { kg_close(&s->device); }

int gpu_session_allocate(struct gpu_session *s, const struct gpu_allocation *allocations, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (kg_buffer_alloc(&s->device, allocations[i].size, allocations[i].buffer) != 0) return -1;
  return 0;
}

int gpu_session_submit_and_wait(struct gpu_session *s, struct kg_fence *fence) {
  if (kg_submit(&s->device, &s->push, fence) != 0 || kg_fence_wait(&s->device, fence, 1000) != 0) return -1;
  /* The GPU has read every word: the next submission starts at the top again (a title in a window runs for
   * as many frames as it is left open). */
  kg_push_begin(&s->push, &s->commands);
  return 0;
}

int gpu_session_write_frame(struct gpu_session *s, int index, const struct kg_buffer *frame, uint32_t width,
                            uint32_t height, const struct kg_fence *fence) {
  char path[4096];
  snprintf(path, sizeof path, "%s/frame_%d.png", s->frame_directory, index);
  if (png_write_rgb(path, frame->cpu, width, height, width * 4) != 0) {
    perror(path);
    return -1;
  }
  printf("%s: frame %d (fence %u:%u) -> %s\n", s->title, index, fence->id, fence->value, path);
  return 0;
}
