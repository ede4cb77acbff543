/* kiln's GPU sample title: an AArch64 Linux program of our own that drives a Maxwell GPU through L4T's nvgpu
 * device nodes, as a Switch title does through nvdrv. Each frame it clears a 128x64 RGBA8 frame with the 2D
 * engine, fills a rectangle that moves 16 pixels per frame, places a 16x16 checkerboard texture (uploaded once
 * in block-linear layout by the inline-to-memory engine) into the frame with the copy engine, and copies in a
 * 32x16 block-linear panel that the 3D engine cleared in an earlier submission (rendered by kiln's Vulkan
 * renderer, whose pixels reach guest memory when the program waits for that submission's fence). After each
 * frame's fence it writes the frame as a PNG file itself.
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
#include <stdlib.h>
#include <string.h>

#include "kiln_gpu.h"
#include "png_writer.h"
#include "shaders/colour.frag.h"        /* generated from shaders/NAME.sass by `kiln shaders assemble` */
#include "shaders/pass_through.vert.h"
#include "shaders/textured.frag.h"

enum { WIDTH = 128, HEIGHT = 64, PITCH = WIDTH * 4, FRAMES = 3, TEXTURE = 16, TEXTURE_X = 96, TEXTURE_Y = 8 };
enum { PANEL_WIDTH = 32, PANEL_HEIGHT = 16, PANEL_X = 16, PANEL_Y = 40 };
static const float PANEL_COLOURS[FRAMES][4] = {{0, 1, 1, 1}, {1, 0, 1, 1}, {1, 1, 0, 1}};
enum { SCENE_WIDTH = 64, SCENE_HEIGHT = 32, SCENE_X = 64, SCENE_Y = 32, SCENE_BYTES = SCENE_WIDTH * 4 * SCENE_HEIGHT };
/* Where the programs lie in the program region, and the frame's vertices in the vertex buffer. */
enum { VERTEX_PROGRAM = 0x0, TEXTURED_PROGRAM = 0x400, COLOUR_PROGRAM = 0x800, VERTICES_PER_FRAME = 0x200 };

/* Method offsets from NVIDIA's class headers (clb197.h, cl902d.h, cla140.h, clb0b5.h). */
enum {
  THREED_SET_COLOR_TARGET_A = 0x800, THREED_SET_COLOR_TARGET_WIDTH = 0x808, THREED_SET_COLOR_TARGET_HEIGHT = 0x80c,
  THREED_SET_COLOR_TARGET_FORMAT = 0x810, THREED_SET_COLOR_TARGET_MEMORY = 0x814, THREED_SET_COLOR_CLEAR_VALUE = 0xd80,
  THREED_SET_CT_SELECT = 0x121c, THREED_CLEAR_SURFACE = 0x19d0,
  TWOD_SET_DST_FORMAT = 0x200, TWOD_SET_DST_MEMORY_LAYOUT = 0x204, TWOD_SET_DST_PITCH = 0x214,
  TWOD_SET_DST_WIDTH = 0x218, TWOD_SET_DST_HEIGHT = 0x21c, TWOD_SET_DST_OFFSET_UPPER = 0x220,
  TWOD_RENDER_SOLID_PRIM_MODE = 0x580, TWOD_SET_RENDER_SOLID_PRIM_COLOR_FORMAT = 0x584,
  TWOD_SET_RENDER_SOLID_PRIM_COLOR = 0x588, TWOD_RENDER_SOLID_PRIM_POINT_SET_X = 0x600,
  INLINE_LINE_LENGTH_IN = 0x180, INLINE_LINE_COUNT = 0x184, INLINE_OFFSET_OUT_UPPER = 0x188,
  INLINE_SET_DST_BLOCK_SIZE = 0x194, INLINE_SET_DST_WIDTH = 0x198, INLINE_SET_DST_HEIGHT = 0x19c,
  INLINE_SET_DST_DEPTH = 0x1a0, INLINE_LAUNCH_DMA = 0x1b0, INLINE_LOAD_INLINE_DATA = 0x1b4,
  COPY_LAUNCH_DMA = 0x300, COPY_OFFSET_IN_UPPER = 0x400, COPY_OFFSET_OUT_UPPER = 0x408, COPY_PITCH_OUT = 0x414,
  COPY_LINE_LENGTH_IN = 0x418, COPY_LINE_COUNT = 0x41c, COPY_SET_SRC_BLOCK_SIZE = 0x728, COPY_SET_SRC_WIDTH = 0x72c,
  COPY_SET_SRC_HEIGHT = 0x730, COPY_SET_SRC_DEPTH = 0x734, COPY_SET_SRC_LAYER = 0x738, COPY_SET_SRC_ORIGIN = 0x73c,
  THREED_SET_VIEWPORT_SCALE_X = 0xa00, THREED_SET_VIEWPORT_CLIP_HORIZONTAL = 0xc00, THREED_SET_VIEWPORT_Z_CLIP = 0xd7c,
  THREED_SET_VERTEX_ARRAY_START = 0xd74, THREED_DRAW_VERTEX_ARRAY = 0xd78, THREED_SET_Z_CLEAR_VALUE = 0xd90,
  THREED_SET_ZT_A = 0xfe0, THREED_SET_ZT_FORMAT = 0xfe8, THREED_SET_ZT_BLOCK_SIZE = 0xfec,
  THREED_SET_VERTEX_ATTRIBUTE_A = 0x1160, THREED_SET_ZT_SIZE_A = 0x1228, THREED_SET_DEPTH_TEST = 0x12cc,
  THREED_SET_DEPTH_WRITE = 0x12e8, THREED_SET_DEPTH_FUNC = 0x130c, THREED_SET_BLEND_SEPARATE_FOR_ALPHA = 0x133c,
  THREED_SET_BLEND_COLOR_OP = 0x1340, THREED_SET_BLEND = 0x1360, THREED_SET_ZT_SELECT = 0x1538,
  THREED_SET_TEX_SAMPLER_POOL_A = 0x155c, THREED_SET_TEX_HEADER_POOL_A = 0x1574, THREED_SET_PROGRAM_REGION_A = 0x1608,
  THREED_END = 0x1614, THREED_BEGIN = 0x1618, THREED_SET_CT_WRITE = 0x1a00, THREED_SET_VERTEX_STREAM_A_FORMAT = 0x1c00,
  THREED_SET_PIPELINE_SHADER = 0x2000, THREED_SET_PIPELINE_PROGRAM = 0x2004, THREED_SET_PIPELINE_BINDING = 0x2010,
  THREED_SET_CONSTANT_BUFFER_SELECTOR_A = 0x2380, THREED_LOAD_CONSTANT_BUFFER_OFFSET = 0x238c,
  THREED_LOAD_CONSTANT_BUFFER = 0x2390, THREED_BIND_GROUP_CONSTANT_BUFFER = 0x2410,
};
/* Indexed 3D methods: SET_PIPELINE_* per program slot (64 bytes apart), BIND_GROUP_* per stage group (32). */
enum { PIPELINE_VERTEX_B = 1, PIPELINE_PIXEL = 5, GROUP_PIXEL = 4, PRIMITIVE_TRIANGLES = 4 };
enum { ZT_FORMAT_ZF32 = 0x0a, OGL_LESS = 0x201, OGL_FUNC_ADD = 0x8006, OGL_SRC_ALPHA = 0x4302,
       OGL_ONE_MINUS_SRC_ALPHA = 0x4303 };
enum { FORMAT_A8B8G8R8 = 0xd5, SOLID_PRIM_RECTS = 4 };

static uint32_t rgba(uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return r | g << 8 | b << 16 | a << 24; }

static void address(struct kg_push *p, uint32_t subchannel, uint32_t method, uint64_t gpu) {
  const uint32_t words[2] = {(uint32_t)(gpu >> 32), (uint32_t)gpu};
  kg_methods(p, subchannel, method, words, 2);
}

static void fill(struct kg_push *p, uint32_t colour, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1) {
  kg_method(p, KG_SUBCH_2D, TWOD_SET_RENDER_SOLID_PRIM_COLOR, colour);
  kg_method(p, KG_SUBCH_2D, TWOD_RENDER_SOLID_PRIM_MODE, SOLID_PRIM_RECTS);
  const uint32_t corners[4] = {x0, y0, x1, y1}; /* POINT_SET_X(0), POINT_Y(0), POINT_SET_X(1), POINT_Y(1) */
  kg_methods(p, KG_SUBCH_2D, TWOD_RENDER_SOLID_PRIM_POINT_SET_X, corners, 4);
}

/* The checkerboard, 16x16 texels in block-linear layout (one GOB wide, a block two GOBs high). */
static void upload_texture(struct kg_push *p, const struct kg_buffer *texture) {
  uint32_t texels[TEXTURE * TEXTURE];
  for (int v = 0; v < TEXTURE; ++v)
    for (int u = 0; u < TEXTURE; ++u)
      texels[v * TEXTURE + u] = ((u / 4 + v / 4) & 1) ? rgba(0xff, 0xff, 0xff, 0xff) : rgba(0xff, 0, 0, 0xff);
  address(p, KG_SUBCH_INLINE, INLINE_OFFSET_OUT_UPPER, texture->gpu);
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
  address(p, KG_SUBCH_3D, THREED_SET_COLOR_TARGET_A, panel->gpu);
  kg_method(p, KG_SUBCH_3D, THREED_SET_COLOR_TARGET_WIDTH, PANEL_WIDTH);
  kg_method(p, KG_SUBCH_3D, THREED_SET_COLOR_TARGET_HEIGHT, PANEL_HEIGHT);
  kg_method(p, KG_SUBCH_3D, THREED_SET_COLOR_TARGET_FORMAT, FORMAT_A8B8G8R8);
  kg_method(p, KG_SUBCH_3D, THREED_SET_COLOR_TARGET_MEMORY, 0); /* block-linear, blocks one GOB high */
  kg_method(p, KG_SUBCH_3D, THREED_SET_CT_SELECT, 1);           /* one target: slot 0 */
  uint32_t colour[4];
  memcpy(colour, PANEL_COLOURS[index], sizeof colour);           /* the clear value registers hold float bits */
  kg_methods(p, KG_SUBCH_3D, THREED_SET_COLOR_CLEAR_VALUE, colour, 4);
  kg_method(p, KG_SUBCH_3D, THREED_CLEAR_SURFACE, 0xf << 2);    /* R, G, B and A of target 0 */
}

static uint32_t float_bits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

/* One vertex: the position in NDC (from the scene's window coordinates: viewport 0 maps NDC x -1..1 onto 0..64
 * and y -1..1 onto 0..32, so every value here is exact), w = 1, then attribute 1 (a colour, or (u, v, 0, 1)). */
static float *put_vertex(float *out, float x, float y, float z, float a, float b, float c, float d) {
  const float vertex[8] = {x / (SCENE_WIDTH / 2) - 1, y / (SCENE_HEIGHT / 2) - 1, z, 1, a, b, c, d};
  memcpy(out, vertex, sizeof vertex);
  return out + 8;
}

/* The checkerboard's texture header (TIC 0, clb197tex.h TEXHEAD_BL) and sampler (TSC 0), and c[2][0] = the
 * handle of the texture the textured program samples (TIC 0 | TSC 0 << 20). */
static void write_texture_pools(const struct kg_buffer *pools, const struct kg_buffer *texture) {
  /* A8B8G8R8 (8), UNORM components (2), sources X = R (2), Y = G (3), Z = B (4), W = A (5); block-linear
   * header (3), blocks two GOBs high (log2 1), 2D (1), 16x16, normalized coordinates. */
  const uint32_t tic[8] = {0x08u | 2u << 7 | 2u << 10 | 2u << 13 | 2u << 16 | 2u << 19 | 3u << 22 | 4u << 25 | 5u << 28,
                           (uint32_t)texture->gpu & 0xfffffe00u, (uint32_t)(texture->gpu >> 32) | 3u << 21, 1u << 3,
                           (TEXTURE - 1) | 1u << 23, (TEXTURE - 1) | 1u << 31, 0, 0};
  /* CLAMP_TO_EDGE (2) in U, V, P; MAG_POINT (1), MIN_POINT (1), MIP_NONE (1). */
  const uint32_t tsc[8] = {2u | 2u << 3 | 2u << 6, 1u | 1u << 4 | 1u << 6, 0, 0, 0, 0, 0, 0};
  memcpy(pools->cpu, tic, sizeof tic);
  memcpy(pools->cpu + 0x100, tsc, sizeof tsc);
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

  address(p, KG_SUBCH_3D, THREED_SET_PROGRAM_REGION_A, programs->gpu);
  kg_method(p, KG_SUBCH_3D, THREED_SET_PIPELINE_SHADER + 64 * PIPELINE_VERTEX_B, 1u | 1u << 4); /* enabled, VERTEX_B */
  kg_method(p, KG_SUBCH_3D, THREED_SET_PIPELINE_PROGRAM + 64 * PIPELINE_VERTEX_B, VERTEX_PROGRAM);
  kg_method(p, KG_SUBCH_3D, THREED_SET_PIPELINE_SHADER + 64 * PIPELINE_PIXEL, 1u | 5u << 4);    /* enabled, PIXEL */
  kg_method(p, KG_SUBCH_3D, THREED_SET_PIPELINE_BINDING + 64 * PIPELINE_PIXEL, GROUP_PIXEL);
  /* Colour target 0 and the depth target, both block-linear with blocks one GOB high. */
  address(p, KG_SUBCH_3D, THREED_SET_COLOR_TARGET_A, scene->gpu);
  kg_method(p, KG_SUBCH_3D, THREED_SET_COLOR_TARGET_WIDTH, SCENE_WIDTH);
  kg_method(p, KG_SUBCH_3D, THREED_SET_COLOR_TARGET_HEIGHT, SCENE_HEIGHT);
  kg_method(p, KG_SUBCH_3D, THREED_SET_COLOR_TARGET_FORMAT, FORMAT_A8B8G8R8);
  kg_method(p, KG_SUBCH_3D, THREED_SET_COLOR_TARGET_MEMORY, 0);
  kg_method(p, KG_SUBCH_3D, THREED_SET_CT_SELECT, 1);
  kg_method(p, KG_SUBCH_3D, THREED_SET_CT_WRITE, 0x1111); /* R, G, B, A */
  address(p, KG_SUBCH_3D, THREED_SET_ZT_A, depth->gpu);
  kg_method(p, KG_SUBCH_3D, THREED_SET_ZT_FORMAT, ZT_FORMAT_ZF32);
  kg_method(p, KG_SUBCH_3D, THREED_SET_ZT_BLOCK_SIZE, 0);
  const uint32_t depth_size[3] = {SCENE_WIDTH, SCENE_HEIGHT, 1};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_ZT_SIZE_A, depth_size, 3);
  kg_method(p, KG_SUBCH_3D, THREED_SET_ZT_SELECT, 1);
  /* Viewport 0: NDC onto the whole target; z_window = z_ndc (scale 1, offset 0, 0..1 clip range). Its scale and
   * offset registers are interleaved: SCALE_X, SCALE_Y, SCALE_Z, OFFSET_X, OFFSET_Y, OFFSET_Z. */
  const uint32_t viewport[6] = {float_bits(SCENE_WIDTH / 2), float_bits(SCENE_HEIGHT / 2), float_bits(1),
                                float_bits(SCENE_WIDTH / 2), float_bits(SCENE_HEIGHT / 2), 0};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_VIEWPORT_SCALE_X, viewport, 6);
  kg_method(p, KG_SUBCH_3D, THREED_SET_VIEWPORT_Z_CLIP, 1); /* ZERO_TO_POSITIVE_W */
  const uint32_t clip[2] = {SCENE_WIDTH << 16, SCENE_HEIGHT << 16};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_VIEWPORT_CLIP_HORIZONTAL, clip, 2);
  /* Vertex stream 0: 32-byte vertices; attributes 0 and 1 are R32G32B32A32 FLOAT at offsets 0 and 16 (stream
   * 4:0, offset 20:7, size 26:21, type 29:27). */
  const uint32_t stream[3] = {32u | 1u << 12, (uint32_t)(frame_vertices >> 32), (uint32_t)frame_vertices};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_VERTEX_STREAM_A_FORMAT, stream, 3);
  const uint32_t attributes[2] = {0u << 7 | 1u << 21 | 7u << 27, 16u << 7 | 1u << 21 | 7u << 27};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_VERTEX_ATTRIBUTE_A, attributes, 2);
  /* Texture pools (TIC at +0, TSC at +0x100; 16 entries each) and c[2] of the pixel group holding the handle. */
  const uint32_t header_pool[3] = {(uint32_t)(pools->gpu >> 32), (uint32_t)pools->gpu, 15};
  const uint32_t sampler_pool[3] = {(uint32_t)((pools->gpu + 0x100) >> 32), (uint32_t)(pools->gpu + 0x100), 15};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_TEX_HEADER_POOL_A, header_pool, 3);
  kg_methods(p, KG_SUBCH_3D, THREED_SET_TEX_SAMPLER_POOL_A, sampler_pool, 3);
  const uint32_t selector[3] = {0x100, (uint32_t)(constants->gpu >> 32), (uint32_t)constants->gpu};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_CONSTANT_BUFFER_SELECTOR_A, selector, 3);
  kg_method(p, KG_SUBCH_3D, THREED_LOAD_CONSTANT_BUFFER_OFFSET, 0);
  kg_method(p, KG_SUBCH_3D, THREED_LOAD_CONSTANT_BUFFER, 0u | 0u << 20); /* TIC 0, TSC 0 */
  kg_method(p, KG_SUBCH_3D, THREED_BIND_GROUP_CONSTANT_BUFFER + 32 * GROUP_PIXEL, 1u | 2u << 4); /* valid, c[2] */

  uint32_t clear_colour[4] = {float_bits(0), float_bits(0), float_bits(0), float_bits(1)};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_COLOR_CLEAR_VALUE, clear_colour, 4);
  kg_method(p, KG_SUBCH_3D, THREED_CLEAR_SURFACE, 0xf << 2);
  kg_method(p, KG_SUBCH_3D, THREED_SET_Z_CLEAR_VALUE, float_bits(1));
  kg_method(p, KG_SUBCH_3D, THREED_CLEAR_SURFACE, 1); /* Z */
  kg_method(p, KG_SUBCH_3D, THREED_SET_DEPTH_TEST, 1);
  kg_method(p, KG_SUBCH_3D, THREED_SET_DEPTH_WRITE, 1);
  kg_method(p, KG_SUBCH_3D, THREED_SET_DEPTH_FUNC, OGL_LESS);
  const uint32_t draws[3][3] = {{TEXTURED_PROGRAM, 0, 0}, {COLOUR_PROGRAM, 0, 3}, {COLOUR_PROGRAM, 1, 6}};
  for (int i = 0; i < 3; ++i) { /* program, blending, first vertex */
    kg_method(p, KG_SUBCH_3D, THREED_SET_PIPELINE_PROGRAM + 64 * PIPELINE_PIXEL, draws[i][0]);
    kg_method(p, KG_SUBCH_3D, THREED_SET_BLEND, draws[i][1]);
    if (draws[i][1]) {
      kg_method(p, KG_SUBCH_3D, THREED_SET_BLEND_SEPARATE_FOR_ALPHA, 0);
      const uint32_t equation[3] = {OGL_FUNC_ADD, OGL_SRC_ALPHA, OGL_ONE_MINUS_SRC_ALPHA}; /* op, source, dest */
      kg_methods(p, KG_SUBCH_3D, THREED_SET_BLEND_COLOR_OP, equation, 3);
    }
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

static void copy_block_linear(struct kg_push *p, const struct kg_buffer *source, uint32_t width_bytes, uint32_t height,
                              uint32_t block_height_log2, uint64_t destination) {
  address(p, KG_SUBCH_COPY, COPY_OFFSET_IN_UPPER, source->gpu);
  address(p, KG_SUBCH_COPY, COPY_OFFSET_OUT_UPPER, destination);
  kg_method(p, KG_SUBCH_COPY, COPY_SET_SRC_BLOCK_SIZE, (1u << 12) | (block_height_log2 << 4)); /* GOB height 8 */
  kg_method(p, KG_SUBCH_COPY, COPY_SET_SRC_WIDTH, width_bytes);
  kg_method(p, KG_SUBCH_COPY, COPY_SET_SRC_HEIGHT, height);
  kg_method(p, KG_SUBCH_COPY, COPY_SET_SRC_DEPTH, 1);
  kg_method(p, KG_SUBCH_COPY, COPY_SET_SRC_LAYER, 0);
  kg_method(p, KG_SUBCH_COPY, COPY_SET_SRC_ORIGIN, 0);
  kg_method(p, KG_SUBCH_COPY, COPY_PITCH_OUT, PITCH);
  kg_method(p, KG_SUBCH_COPY, COPY_LINE_LENGTH_IN, width_bytes);
  kg_method(p, KG_SUBCH_COPY, COPY_LINE_COUNT, height);
  /* NON_PIPELINED transfer, source block-linear, destination pitch, multi-line. */
  kg_method(p, KG_SUBCH_COPY, COPY_LAUNCH_DMA, 2u | (1u << 8) | (1u << 9));
}

static void draw_frame(struct kg_push *p, const struct kg_buffer *frame, const struct kg_buffer *texture,
                       const struct kg_buffer *panel, const struct kg_buffer *scene, int index) {
  address(p, KG_SUBCH_2D, TWOD_SET_DST_OFFSET_UPPER, frame->gpu);
  kg_method(p, KG_SUBCH_2D, TWOD_SET_DST_FORMAT, FORMAT_A8B8G8R8);
  kg_method(p, KG_SUBCH_2D, TWOD_SET_DST_MEMORY_LAYOUT, 1); /* PITCH */
  kg_method(p, KG_SUBCH_2D, TWOD_SET_DST_PITCH, PITCH);
  kg_method(p, KG_SUBCH_2D, TWOD_SET_DST_WIDTH, WIDTH);
  kg_method(p, KG_SUBCH_2D, TWOD_SET_DST_HEIGHT, HEIGHT);
  kg_method(p, KG_SUBCH_2D, TWOD_SET_RENDER_SOLID_PRIM_COLOR_FORMAT, FORMAT_A8B8G8R8);
  fill(p, rgba(0x10, 0x20, 0x40 + 0x20 * (uint32_t)index, 0xff), 0, 0, WIDTH, HEIGHT);
  fill(p, rgba(0xff, 0xc0, 0x00, 0xff), 8 + 16 * (uint32_t)index, 8, 40 + 16 * (uint32_t)index, 24);
  /* Copy engine: the block-linear texture (blocks two GOBs high) and panel (one GOB) into the pitch frame. */
  copy_block_linear(p, texture, TEXTURE * 4, TEXTURE, 1, frame->gpu + TEXTURE_Y * PITCH + TEXTURE_X * 4);
  copy_block_linear(p, panel, PANEL_WIDTH * 4, PANEL_HEIGHT, 0, frame->gpu + PANEL_Y * PITCH + PANEL_X * 4);
  copy_block_linear(p, scene, SCENE_WIDTH * 4, SCENE_HEIGHT, 0, frame->gpu + SCENE_Y * PITCH + SCENE_X * 4);
}

int main(int argc, char **argv) {
  const char *directory = argc > 1 ? argv[1] : ".";
  struct kg_device device;
  if (kg_open(&device) != 0) {
    fprintf(stderr, "sample-triangle: no GPU; nothing rendered\n");
    return 2;
  }
  struct kg_buffer commands, frame, texture, panel, scene, depth, programs, vertices, pools, constants;
  if (kg_buffer_alloc(&device, 0x10000, &commands) || kg_buffer_alloc(&device, PITCH * HEIGHT, &frame) ||
      kg_buffer_alloc(&device, 0x1000, &texture) || kg_buffer_alloc(&device, PANEL_WIDTH * 4 * PANEL_HEIGHT, &panel) ||
      kg_buffer_alloc(&device, SCENE_BYTES, &scene) || kg_buffer_alloc(&device, SCENE_BYTES, &depth) ||
      kg_buffer_alloc(&device, 0x1000, &programs) || kg_buffer_alloc(&device, FRAMES * VERTICES_PER_FRAME, &vertices) ||
      kg_buffer_alloc(&device, 0x1000, &pools) || kg_buffer_alloc(&device, 0x1000, &constants))
    return 1;
  /* The programs as the driver uploads them: SPH, then code (generated headers, see shaders/). */
  memcpy(programs.cpu + VERTEX_PROGRAM, pass_through_vert, sizeof pass_through_vert);
  memcpy(programs.cpu + TEXTURED_PROGRAM, textured_frag, sizeof textured_frag);
  memcpy(programs.cpu + COLOUR_PROGRAM, colour_frag, sizeof colour_frag);
  write_texture_pools(&pools, &texture);
  struct kg_push push;
  kg_push_begin(&push, &commands);
  kg_bind(&push, KG_SUBCH_3D, KG_CLASS_3D);
  kg_bind(&push, KG_SUBCH_2D, KG_CLASS_2D);
  kg_bind(&push, KG_SUBCH_INLINE, KG_CLASS_INLINE);
  kg_bind(&push, KG_SUBCH_COPY, KG_CLASS_COPY);
  upload_texture(&push, &texture);
  for (int index = 0; index < FRAMES; ++index) {
    /* The panel's clear is GPU rendering: its pixels are in memory once the fence is reached, for the copy. */
    struct kg_fence fence;
    clear_panel(&push, &panel, index);
    draw_scene(&push, &scene, &depth, &programs, &vertices, &pools, &constants, index);
    if (kg_submit(&device, &push, &fence) || kg_fence_wait(&device, &fence, 1000)) return 1;
    draw_frame(&push, &frame, &texture, &panel, &scene, index);
    if (kg_submit(&device, &push, &fence) || kg_fence_wait(&device, &fence, 1000)) return 1;
    char path[4096];
    snprintf(path, sizeof path, "%s/frame_%d.png", directory, index);
    if (png_write_rgba(path, frame.cpu, WIDTH, HEIGHT, PITCH) != 0) {
      perror(path);
      return 1;
    }
    printf("sample-triangle: frame %d (fence %u:%u) -> %s\n", index, fence.id, fence.value, path);
  }
  kg_close(&device);
  return 0;
}
