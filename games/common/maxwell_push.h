/* The freestanding part of kiln's GPU sample library: GPU buffers as CPU pointer + GPU address, pushbuffers
 * built method by method (host class clb06f.h headers), and the pushbuffer pieces the sample titles share (2D
 * fills, block-linear copies, 3D targets, viewports, programs, texture pools, clears and blending). No OS and no
 * C library beyond <stdint.h>/<stddef.h>: it builds with -ffreestanding -nostdlib for the Switch sample as well
 * as for the linux-user titles (kiln_gpu.h adds the L4T device nodes, games/sample-switch its nvdrv client). */
#ifndef KILN_MAXWELL_PUSH_H
#define KILN_MAXWELL_PUSH_H

#include <stddef.h>
#include <stdint.h>

/* Subchannels the samples bind (SET_OBJECT) to each class. */
enum { KG_SUBCH_3D = 0, KG_SUBCH_INLINE = 2, KG_SUBCH_2D = 3, KG_SUBCH_COPY = 4 };
/* The GPU family a title drives: Maxwell (the Switch's GM20B: 3D B197, copy B0B5) or Ampere (the Switch 2's
 * family: 3D C797, copy C7B5, SM86 programs after an SPH padded to 0x80 bytes). 2D (902D) and inline-to-memory
 * (A140) are the same classes on both. */
enum kg_family { KG_MAXWELL, KG_AMPERE };
enum { KG_CLASS_3D = 0xb197, KG_CLASS_COPY = 0xb0b5, KG_CLASS_INLINE = 0xa140, KG_CLASS_2D = 0x902d };
enum { KG_CLASS_3D_AMPERE = 0xc797, KG_CLASS_COPY_AMPERE = 0xc7b5 };
/* The four classes of a family in the order KG_SUBCH_3D, KG_SUBCH_2D, KG_SUBCH_INLINE, KG_SUBCH_COPY bind them. */
void kg_classes(enum kg_family family, uint32_t classes[4]);

/* GPU memory: CPU pointer and GPU address of the same bytes. `handle` is the driver's (nvmap) handle; `dma_buf`
 * the Linux dma-buf descriptor (unused on the Switch). */
struct kg_buffer {
  uint32_t handle;
  int dma_buf;
  uint64_t size;
  uint8_t *cpu;
  uint64_t gpu;
};

struct kg_fence {
  uint32_t id, value;
};

/* A pushbuffer being written into a GPU buffer. */
struct kg_push {
  struct kg_buffer *buffer;
  uint32_t start;  /* word index where the current submission starts */
  uint32_t count;  /* words written */
  int overflowed;  /* a word did not fit: the submission is refused (kg_submit says so) */
  enum kg_family family; /* the classes kg_bind_classes bound; the pushbuffer pieces below follow them */
};

/* Method headers (host class clb06f.h): incrementing (SEC_OP 1) and immediate (SEC_OP 4) forms. */
void kg_push_begin(struct kg_push *push, struct kg_buffer *buffer);
void kg_method(struct kg_push *push, uint32_t subchannel, uint32_t method, uint32_t value);
void kg_methods(struct kg_push *push, uint32_t subchannel, uint32_t method, const uint32_t *values, uint32_t count);
void kg_method_non_incrementing(struct kg_push *push, uint32_t subchannel, uint32_t method, const uint32_t *values,
                                uint32_t count);
void kg_bind(struct kg_push *push, uint32_t subchannel, uint32_t class_id);
/* SET_OBJECT of the family's 3D, 2D, inline and copy classes on their KG_SUBCH_* subchannels; the pieces below
 * then write the methods of that family (kg_push_begin keeps it). */
void kg_bind_classes(struct kg_push *push, enum kg_family family);
/* The GPFIFO entry (GP_ENTRY0, GP_ENTRY1) of the words written since the last submission, which then starts
 * after them. */
void kg_take_submission(struct kg_push *push, uint32_t entry[2]);

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
/* VERTEX_B enabled at `vertex_program` (an offset into `programs`), the pixel program slot enabled and bound to the
 * pixel stage group (its program is chosen per draw with push_pixel_program). Maxwell: `programs` is the program
 * region; Ampere: each slot gets the program's GPU address. */
void push_programs(struct kg_push *p, const struct kg_buffer *programs, uint32_t vertex_program);
/* The pixel program slot's program: the one at offset `program` of `programs`. */
void push_pixel_program(struct kg_push *p, const struct kg_buffer *programs, uint32_t program);
/* The index buffer: `count` indices of `bytes_per_index` (1, 2, 4) at GPU address `start`, first index 0. Maxwell
 * gives its end as the address of the last byte, Ampere as a size. */
void push_index_buffer(struct kg_push *p, uint64_t start, uint32_t count, uint32_t bytes_per_index);
/* Texture header pool at `pools` + 0, sampler pool at + 0x100, 16 entries each. */
void push_texture_pools(struct kg_push *p, const struct kg_buffer *pools);
/* Clears R, G, B and A of colour target 0 to `colour`. */
void push_clear_colour(struct kg_push *p, const float colour[4]);
/* The same clear limited to [x0, x1) x [y0, y1) by scissor 0 (SET_CLEAR_SURFACE_CONTROL USE_SCISSOR0); the
 * scissor is disabled again after it. */
void push_clear_colour_scissored(struct kg_push *p, const float colour[4], uint32_t x0, uint32_t y0, uint32_t x1,
                                 uint32_t y1);
/* Blending SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD, the same for alpha (SET_BLEND itself is left to the caller). */
void push_blend_source_alpha(struct kg_push *p);

/* TIC 0 and TSC 0 into `pools` (layout as push_texture_pools): a size x size A8B8G8R8 UNORM 2D texture at
 * `texture`, block-linear (clb197tex.h TEXHEAD_BL) with blocks 2^block_height_log2 GOBs high, identity swizzle;
 * clamp to edge, nearest filtering, no mipmaps. */
void write_rgba8_texture_pools(const struct kg_buffer *pools, const struct kg_buffer *texture, uint32_t size,
                               uint32_t block_height_log2);

#endif
