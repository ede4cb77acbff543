/* What every GPU sample title does around its scene: open the GPU with one pushbuffer bound to the Maxwell or
 * Ampere classes, allocate buffers, submit and wait for fences, write frames as PNG files; and the pushbuffer pieces
 * the titles share (2D fills and pitch destinations, block-linear copies, 3D targets, viewports, programs,
 * texture pools, clears and blending) are maxwell_push.h's. Built on kiln_gpu.h (the nvgpu driver) and
 * png_writer.h. */
#ifndef KILN_GPU_SESSION_H
#define KILN_GPU_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "kiln_gpu.h"

struct gpu_session {
  const char *title;           /* prefixes what the session prints: "sample-scene: frame 0 ..." */
  const char *frame_directory; /* argv[1], or "." */
  struct kg_device device;
  struct kg_buffer commands;
  struct kg_push push; /* writes into `commands`; SET_OBJECT of the 3D, 2D, inline and copy classes done */
};

/* Opens the GPU for `title`, driving the classes of `family` (frames go to argv[1] or "."). Returns 0, or the
 * status main should exit with: 2 without a GPU (after saying so), 1 on a driver failure. */
int gpu_session_open(struct gpu_session *session, const char *title, enum kg_family family, int argc, char **argv);
void gpu_session_close(struct gpu_session *session);

struct gpu_allocation {
  struct kg_buffer *buffer;
  uint64_t size;
};
/* Allocates each buffer of the list (GPU memory mapped for the CPU). Returns 0, or -1 after printing why. */
int gpu_session_allocate(struct gpu_session *session, const struct gpu_allocation *allocations, size_t count);

/* Submits what was pushed since the last submission and waits (1 s at most) for its fence; the pushbuffer then
 * starts over. */
int gpu_session_submit_and_wait(struct gpu_session *session, struct kg_fence *fence);

/* Writes the pitch-linear RGBA8 `frame` (width * 4 bytes per row) as FRAME_DIRECTORY/frame_INDEX.png and prints
 * where, with the fence that completed it. Returns 0, or -1 after printing why. */
int gpu_session_write_frame(struct gpu_session *session, int index, const struct kg_buffer *frame, uint32_t width,
                            uint32_t height, const struct kg_fence *fence);

#endif
