/* kiln's GPU sample title: an AArch64 Linux program of our own that drives a Maxwell GPU through L4T's nvgpu
 * device nodes, as a Switch title does through nvdrv. Each frame it clears a 128x64 RGBA8 frame with the 2D
 * engine, fills a rectangle that moves 16 pixels per frame, places a 16x16 checkerboard texture (uploaded once
 * in block-linear layout by the inline-to-memory engine) into the frame with the copy engine, and copies in a
 * 32x16 block-linear panel that the 3D engine cleared in an earlier submission (rendered by kiln's Vulkan
 * renderer, whose pixels reach guest memory when the program waits for that submission's fence). After each
 * frame's fence it writes the frame as a PNG file itself and hands it to kiln's host device when there is one
 * (kiln_host.h). In a window (--window) it runs until the window is closed with scene s = frame % 3 below, and
 * the d-pad, the arrow keys or the left stick move the rectangle sideways by `player` pixels (4 per frame
 * held, |player| <= 64): its left edge is then clamp(8 + 16 * s + player, 0, 64).
 * Scene (the test derives its expected pixels from these numbers):
 *   background   RGBA (0x10, 0x20, 0x40 + 0x20 * frame, 0xff)
 *   rectangle    x in [8 + 16 * frame, 40 + 16 * frame), y in [8, 24), RGBA (0xff, 0xc0, 0x00, 0xff)
 *   texture      at x in [96, 112), y in [8, 24): texel (u, v) red (0xff, 0, 0, 0xff) when (u / 4 + v / 4) is
 *                even, white otherwise
 *   panel        at x in [16, 48), y in [40, 56): cleared by the 3D engine to (R, G, B, A) = PANEL_COLOURS[frame]
 *                (0 or 1 per component, so RGBA8 bytes are 0 or 0xff)
 *   3D scene     at x in [64, 128), y in [32, 64): a 64x32 block-linear target the 3D engine draws with the Maxwell
 *                programs in shaders/ (SASS text, assembled at build time by `kiln shaders assemble`), depth test
 *                LESS against a ZF32 target cleared to 1. In the scene's window coordinates (pixel (x, y) has its
 *                centre at (x + 0.5, y + 0.5)), drawn in this order:
 *     clear      colour (0, 0, 0, 1), depth 1
 *     A textured z 0.5, corners (2, 2), (34, 2), (2, 34) with (u, v) (0, 0), (1, 0), (0, 1): the checkerboard,
 *                nearest filtering, two pixels per texel
 *     B green    z 0.75, corners (16, 6), (60, 6), (60, 28), colour (0, 1, 0, 1): behind A where they overlap
 *     C blended  z 0.25, corners (4 + 12 * frame, 14), (28 + 12 * frame, 14), (16 + 12 * frame, 30), colour
 *                (0, 0, 1, 0.25), blended SRC_ALPHA, ONE_MINUS_SRC_ALPHA (alpha too) over what is below */
#include <stdio.h>
#include <string.h>

#include "gpu_session.h"
#include "kiln_host.h"
#include "maxwell_methods.h"
#include "shaders/colour.frag.h"        /* generated from shaders/NAME.sass by `kiln shaders assemble` */
#include "shaders/pass_through.vert.h"
#include "shaders/textured.frag.h"

enum { WIDTH = 128, HEIGHT = 64, PITCH = WIDTH * 4, FRAMES = 3, TEXTURE = 16, TEXTURE_X = 96, TEXTURE_Y = 8 };
enum { PANEL_WIDTH = 32, PANEL_HEIGHT = 16, PANEL_X = 16, PANEL_Y = 40 };
static const float PANEL_COLOURS[FRAMES][4] = {{0, 1, 1, 1}, {1, 0, 1, 1}, {1, 1, 0, 1}};
enum { SCENE_WIDTH = 64, SCENE_HEIGHT = 32, SCENE_X = 64, SCENE_Y = 32, SCENE_BYTES = SCENE_WIDTH * 4 * SCENE_HEIGHT };
/* Where the programs lie in the program region, and the frame's vertices in the vertex buffer. */
enum { VERTEX_PROGRAM = 0x0, TEXTURED_PROGRAM = 0x400, COLOUR_PROGRAM = 0x800, VERTICES_PER_FRAME = 0x200 };

static uint32_t rgba(uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return r | g << 8 | b << 16 | a << 24; }

/* The checkerboard, 16x16 texels in block-linear layout (one GOB wide, a block two GOBs high). */
static void upload_texture(struct kg_push *p, const struct kg_buffer *texture) {
  uint32_t texels[TEXTURE * TEXTURE];
  for (int v = 0; v < TEXTURE; ++v)
    for (int u = 0; u < TEXTURE; ++u)
      texels[v * TEXTURE + u] = ((u / 4 + v / 4) & 1) ? rgba(0xff, 0xff, 0xff, 0xff) : rgba(0xff, 0, 0, 0xff);
  push_address(p, KG_SUBCH_INLINE, INLINE_OFFSET_OUT_UPPER, texture->gpu);
  kg_method(p, KG_SUBCH_INLINE, INLINE_SET_DST_BLOCK_SIZE, 1u << 4);
  kg_method(p, KG_SUBCH_INLINE, INLINE_SET_DST_WIDTH, TEXTURE * 4);
  kg_method(p, KG_SUBCH_INLINE, INLINE_SET_DST_HEIGHT, TEXTURE);
  kg_method(p, KG_SUBCH_INLINE, INLINE_SET_DST_DEPTH, 1);
  kg_method(p, KG_SUBCH_INLINE, INLINE_LINE_LENGTH_IN, TEXTURE * 4);
  kg_method(p, KG_SUBCH_INLINE, INLINE_LINE_COUNT, TEXTURE);
  kg_method(p, KG_SUBCH_INLINE, INLINE_LAUNCH_DMA, 0); /* DST_MEMORY_LAYOUT_BLOCKLINEAR, no completion */
  kg_method_non_incrementing(p, KG_SUBCH_INLINE, INLINE_LOAD_INLINE_DATA, texels, TEXTURE * TEXTURE);
}

/* The 3D engine clears colour target 0, the block-linear panel (one GOB per block), to the frame's colour. */
static void clear_panel(struct kg_push *p, const struct kg_buffer *panel, int index) {
  push_colour_target(p, panel, PANEL_WIDTH, PANEL_HEIGHT);
  push_clear_colour(p, PANEL_COLOURS[index]);
}

/* One vertex: the position in NDC (from the scene's window coordinates: viewport 0 maps NDC x -1..1 onto 0..64
 * and y -1..1 onto 0..32, so every value here is exact), w = 1, then attribute 1 (a colour, or (u, v, 0, 1)). */
static float *put_vertex(float *out, float x, float y, float z, float a, float b, float c, float d) {
  const float vertex[8] = {x / (SCENE_WIDTH / 2) - 1, y / (SCENE_HEIGHT / 2) - 1, z, 1, a, b, c, d};
  memcpy(out, vertex, sizeof vertex);
  return out + 8;
}

/* The 3D scene (see the top of this file) into the 64x32 block-linear target `scene`. */
static void draw_scene(struct kg_push *p, const struct kg_buffer *scene, const struct kg_buffer *depth,
                       const struct kg_buffer *programs, const struct kg_buffer *vertices, const struct kg_buffer *pools,
                       const struct kg_buffer *constants, int index) {
  const uint64_t frame_vertices = vertices->gpu + (uint64_t)index * VERTICES_PER_FRAME;
  float *v = (float *)(vertices->cpu + (size_t)index * VERTICES_PER_FRAME);
  const float shift = 12.0f * (float)index;
  v = put_vertex(v, 2, 2, 0.5f, 0, 0, 0, 1);   /* A: (u, v) in attribute 1 */
  v = put_vertex(v, 34, 2, 0.5f, 1, 0, 0, 1);
  v = put_vertex(v, 2, 34, 0.5f, 0, 1, 0, 1);
  v = put_vertex(v, 16, 6, 0.75f, 0, 1, 0, 1); /* B: green */
  v = put_vertex(v, 60, 6, 0.75f, 0, 1, 0, 1);
  v = put_vertex(v, 60, 28, 0.75f, 0, 1, 0, 1);
  v = put_vertex(v, 4 + shift, 14, 0.25f, 0, 0, 1, 0.25f); /* C: blue, alpha 0.25 */
  v = put_vertex(v, 28 + shift, 14, 0.25f, 0, 0, 1, 0.25f);
  put_vertex(v, 16 + shift, 30, 0.25f, 0, 0, 1, 0.25f);

  push_programs(p, programs, VERTEX_PROGRAM);
  push_colour_target(p, scene, SCENE_WIDTH, SCENE_HEIGHT);
  kg_method(p, KG_SUBCH_3D, THREED_SET_CT_WRITE, 0x1111); /* R, G, B, A */
  push_depth_target(p, depth, SCENE_WIDTH, SCENE_HEIGHT);
  push_viewport(p, SCENE_WIDTH, SCENE_HEIGHT);
  /* Vertex stream 0: 32-byte vertices; attributes 0 and 1 are R32G32B32A32 FLOAT at offsets 0 and 16 (stream
   * 4:0, offset 20:7, size 26:21, type 29:27). */
  const uint32_t stream[3] = {32u | 1u << 12, (uint32_t)(frame_vertices >> 32), (uint32_t)frame_vertices};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_VERTEX_STREAM_A_FORMAT, stream, 3);
  const uint32_t attributes[2] = {0u << 7 | 1u << 21 | 7u << 27, 16u << 7 | 1u << 21 | 7u << 27};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_VERTEX_ATTRIBUTE_A, attributes, 2);
  /* Texture pools and c[2] of the pixel group holding the handle of the texture the textured program samples
   * (TIC 0 | TSC 0 << 20). */
  push_texture_pools(p, pools);
  const uint32_t selector[3] = {0x100, (uint32_t)(constants->gpu >> 32), (uint32_t)constants->gpu};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_CONSTANT_BUFFER_SELECTOR_A, selector, 3);
  kg_method(p, KG_SUBCH_3D, THREED_LOAD_CONSTANT_BUFFER_OFFSET, 0);
  kg_method(p, KG_SUBCH_3D, THREED_LOAD_CONSTANT_BUFFER, 0u | 0u << 20); /* TIC 0, TSC 0 */
  kg_method(p, KG_SUBCH_3D, THREED_BIND_GROUP_CONSTANT_BUFFER + 32 * GROUP_PIXEL, 1u | 2u << 4); /* valid, c[2] */

  static const float clear[4] = {0, 0, 0, 1};
  push_clear_colour(p, clear);
  kg_method(p, KG_SUBCH_3D, THREED_SET_Z_CLEAR_VALUE, float_bits(1));
  kg_method(p, KG_SUBCH_3D, THREED_CLEAR_SURFACE, 1); /* Z */
  kg_method(p, KG_SUBCH_3D, THREED_SET_DEPTH_TEST, 1);
  kg_method(p, KG_SUBCH_3D, THREED_SET_DEPTH_WRITE, 1);
  kg_method(p, KG_SUBCH_3D, THREED_SET_DEPTH_FUNC, OGL_LESS);
  const uint32_t draws[3][3] = {{TEXTURED_PROGRAM, 0, 0}, {COLOUR_PROGRAM, 0, 3}, {COLOUR_PROGRAM, 1, 6}};
  for (int i = 0; i < 3; ++i) { /* program, blending, first vertex */
    kg_method(p, KG_SUBCH_3D, THREED_SET_PIPELINE_PROGRAM + 64 * PIPELINE_PIXEL, draws[i][0]);
    kg_method(p, KG_SUBCH_3D, THREED_SET_BLEND, draws[i][1]);
    if (draws[i][1]) push_blend_source_alpha(p);
    kg_method(p, KG_SUBCH_3D, THREED_BEGIN, PRIMITIVE_TRIANGLES);
    kg_method(p, KG_SUBCH_3D, THREED_SET_VERTEX_ARRAY_START, draws[i][2]);
    kg_method(p, KG_SUBCH_3D, THREED_DRAW_VERTEX_ARRAY, 3);
    kg_method(p, KG_SUBCH_3D, THREED_END, 0);
  }
  /* The next frame's panel clear has no depth target, no blending. */
  kg_method(p, KG_SUBCH_3D, THREED_SET_BLEND, 0);
  kg_method(p, KG_SUBCH_3D, THREED_SET_DEPTH_TEST, 0);
  kg_method(p, KG_SUBCH_3D, THREED_SET_ZT_SELECT, 0);
}

/* The player's offset after this frame's pad: 4 pixels a frame right or left, the stick past half way counts. */
static int move_player(int player, const struct kiln_host_pad *pad) {
  const int right = (pad->buttons >> 7 & 1) || pad->axes[0] > 16384, left = (pad->buttons >> 6 & 1) || pad->axes[0] < -16384;
  player += 4 * (right - left);
  return player > 64 ? 64 : player < -64 ? -64 : player;
}

static void draw_frame(struct kg_push *p, const struct kg_buffer *frame, const struct kg_buffer *texture,
                       const struct kg_buffer *panel, const struct kg_buffer *scene, int index, int player) {
  int x = 8 + 16 * index + player;
  x = x < 0 ? 0 : x > 64 ? 64 : x;
  push_2d_destination(p, frame, WIDTH, HEIGHT);
  push_2d_fill(p, rgba(0x10, 0x20, 0x40 + 0x20 * (uint32_t)index, 0xff), 0, 0, WIDTH, HEIGHT);
  push_2d_fill(p, rgba(0xff, 0xc0, 0x00, 0xff), (uint32_t)x, 8, (uint32_t)x + 32, 24);
  /* Copy engine: the block-linear texture (blocks two GOBs high), panel and scene (one GOB) into the frame. */
  push_copy_block_linear_to_pitch(p, texture, TEXTURE * 4, TEXTURE, 1, frame->gpu + TEXTURE_Y * PITCH + TEXTURE_X * 4,
                                  PITCH);
  push_copy_block_linear_to_pitch(p, panel, PANEL_WIDTH * 4, PANEL_HEIGHT, 0,
                                  frame->gpu + PANEL_Y * PITCH + PANEL_X * 4, PITCH);
  push_copy_block_linear_to_pitch(p, scene, SCENE_WIDTH * 4, SCENE_HEIGHT, 0,
                                  frame->gpu + SCENE_Y * PITCH + SCENE_X * 4, PITCH);
}

int main(int argc, char **argv) {
  struct gpu_session session;
  const int status = gpu_session_open(&session, "sample-triangle", KG_MAXWELL, argc, argv);
  if (status != 0) return status;
  struct kg_buffer frame, texture, panel, scene, depth, programs, vertices, pools, constants;
  const struct gpu_allocation allocations[] = {
      {&frame, PITCH * HEIGHT}, {&texture, 0x1000}, {&panel, PANEL_WIDTH * 4 * PANEL_HEIGHT},
      {&scene, SCENE_BYTES}, {&depth, SCENE_BYTES}, {&programs, 0x1000}, {&vertices, FRAMES * VERTICES_PER_FRAME},
      {&pools, 0x1000}, {&constants, 0x1000}};
  if (gpu_session_allocate(&session, allocations, sizeof allocations / sizeof allocations[0]) != 0) return 1;
  /* The programs as the driver uploads them: SPH, then code (generated headers, see shaders/). */
  memcpy(programs.cpu + VERTEX_PROGRAM, pass_through_vert, sizeof pass_through_vert);
  memcpy(programs.cpu + TEXTURED_PROGRAM, textured_frag, sizeof textured_frag);
  memcpy(programs.cpu + COLOUR_PROGRAM, colour_frag, sizeof colour_frag);
  write_rgba8_texture_pools(&pools, &texture, TEXTURE, 1); /* blocks two GOBs high, as uploaded */
  struct kg_push *push = &session.push;
  upload_texture(push, &texture);
  /* Three frames, or what the host asks for: --frames N, or until the window is closed. */
  struct kiln_host host;
  kh_open(&host);
  const int windowed = (host.info.flags & KILN_HOST_WINDOW) != 0;
  const long frames = host.info.frames ? (long)host.info.frames : windowed ? -1 : FRAMES;
  int player = 0;
  for (long count = 0; frames < 0 || count < frames; ++count) {
    const int index = (int)(count % FRAMES);
    const struct kiln_host_pad pad = kh_pad(&host);
    player = move_player(player, &pad);
    /* The panel's clear is GPU rendering: its pixels are in memory once the fence is reached, for the copy. */
    struct kg_fence fence;
    clear_panel(push, &panel, index);
    draw_scene(push, &scene, &depth, &programs, &vertices, &pools, &constants, index);
    if (gpu_session_submit_and_wait(&session, &fence) != 0) return 1;
    draw_frame(push, &frame, &texture, &panel, &scene, index, player);
    if (gpu_session_submit_and_wait(&session, &fence) != 0) return 1;
    if (!windowed && gpu_session_write_frame(&session, (int)count, &frame, WIDTH, HEIGHT, &fence) != 0) return 1;
    if (kh_present(&host, frame.cpu, WIDTH, HEIGHT, PITCH)) break;
  }
  gpu_session_close(&session);
  return 0;
}
