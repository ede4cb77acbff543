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
 *                (0 or 1 per component, so RGBA8 bytes are 0 or 0xff) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln_gpu.h"
#include "png_writer.h"

enum { WIDTH = 128, HEIGHT = 64, PITCH = WIDTH * 4, FRAMES = 3, TEXTURE = 16, TEXTURE_X = 96, TEXTURE_Y = 8 };
enum { PANEL_WIDTH = 32, PANEL_HEIGHT = 16, PANEL_X = 16, PANEL_Y = 40 };
static const float PANEL_COLOURS[FRAMES][4] = {{0, 1, 1, 1}, {1, 0, 1, 1}, {1, 1, 0, 1}};

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
};
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
                       const struct kg_buffer *panel, int index) {
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
}

int main(int argc, char **argv) {
  const char *directory = argc > 1 ? argv[1] : ".";
  struct kg_device device;
  if (kg_open(&device) != 0) {
    fprintf(stderr, "sample-triangle: no GPU; nothing rendered\n");
    return 2;
  }
  struct kg_buffer commands, frame, texture, panel;
  if (kg_buffer_alloc(&device, 0x10000, &commands) || kg_buffer_alloc(&device, PITCH * HEIGHT, &frame) ||
      kg_buffer_alloc(&device, 0x1000, &texture) || kg_buffer_alloc(&device, PANEL_WIDTH * 4 * PANEL_HEIGHT, &panel))
    return 1;
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
    if (kg_submit(&device, &push, &fence) || kg_fence_wait(&device, &fence, 1000)) return 1;
    draw_frame(&push, &frame, &texture, &panel, index);
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
