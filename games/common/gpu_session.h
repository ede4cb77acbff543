/* What every GPU sample title does around its scene: open the GPU with one pushbuffer bound to the Maxwell
 * classes, allocate buffers, submit and wait for fences, write frames as PNG files; and the pushbuffer pieces
 * the titles share (2D fills and pitch destinations, block-linear copies, 3D targets, viewports, programs,
 * texture pools, clears and blending). Built on kiln_gpu.h (the nvgpu driver) and png_writer.h. */
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

/* Opens the GPU for `title` (frames go to argv[1] or "."). Returns 0, or the status main should exit with:
 * 2 without a GPU (after saying so), 1 on a driver failure. */
int gpu_session_open(struct gpu_session *session, const char *title, int argc, char **argv);
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

/* ---- pushbuffer pieces ----------------------------------------------------------------------------------- */
uint32_t float_bits(float value);
/* A GPU address as the (upper, lower) method pair starting at `method`. */
void push_address(struct kg_push *p, uint32_t subchannel, uint32_t method, uint64_t gpu);

/* 2D engine: destination `frame`, pitch-linear A8B8G8R8, and solid rectangles [x0, x1) x [y0, y1) in it. */
void push_2d_destination(struct kg_push *p, const struct kg_buffer *frame, uint32_t width, uint32_t height);
void push_2d_fill(struct kg_push *p, uint32_t rgba, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1);

/* Copy engine: a block-linear RGBA8 surface (GOBs 8 rows high, blocks 2^block_height_log2 GOBs) into a pitch
 * surface of `pitch_out` bytes per row at GPU address `destination`. */
void push_copy_block_linear_to_pitch(struct kg_push *p, const struct kg_buffer *source, uint32_t width_bytes,
                                     uint32_t height, uint32_t block_height_log2, uint64_t destination,
                                     uint32_t pitch_out);

/* 3D engine. Colour target 0: RGBA8 block-linear, blocks one GOB high, the only target selected. */
void push_colour_target(struct kg_push *p, const struct kg_buffer *target, uint32_t width, uint32_t height);
/* Viewport 0 mapping NDC onto the whole width x height target, z_window = z_ndc (0..1 clip range), and its clip. */
void push_viewport(struct kg_push *p, uint32_t width, uint32_t height);
/* A ZF32 depth target, block-linear with blocks one GOB high, selected. */
void push_depth_target(struct kg_push *p, const struct kg_buffer *depth, uint32_t width, uint32_t height);
/* The program region, VERTEX_B enabled at `vertex_program`, the pixel program slot enabled and bound to the
 * pixel stage group (its program is chosen per draw with SET_PIPELINE_PROGRAM). */
void push_programs(struct kg_push *p, const struct kg_buffer *programs, uint32_t vertex_program);
/* Texture header pool at `pools` + 0, sampler pool at + 0x100, 16 entries each. */
void push_texture_pools(struct kg_push *p, const struct kg_buffer *pools);
/* Clears R, G, B and A of colour target 0 to `colour`. */
void push_clear_colour(struct kg_push *p, const float colour[4]);
/* Blending SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD, the same for alpha (SET_BLEND itself is left to the caller). */
void push_blend_source_alpha(struct kg_push *p);

/* TIC 0 and TSC 0 into `pools` (layout as push_texture_pools): a size x size A8B8G8R8 UNORM 2D texture at
 * `texture`, block-linear (clb197tex.h TEXHEAD_BL) with blocks 2^block_height_log2 GOBs high, identity swizzle;
 * clamp to edge, nearest filtering, no mipmaps. */
void write_rgba8_texture_pools(const struct kg_buffer *pools, const struct kg_buffer *texture, uint32_t size,
                               uint32_t block_height_log2);

#endif
