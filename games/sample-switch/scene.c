/* scene.h: each frame is one GPU submission into the buffer vi handed out, queued with its fence. */
#include "scene.h"

#include "display.h"
#include "maxwell_methods.h"
#include "nvdrv.h"
#include "pad.h"

void* memset(void* d, int c, size_t n);

/* Our heap (the loader's override) holds the driver's transfer memory and the GPU buffers, page-aligned, past
   the words main() tests at its start. */
enum { TRANSFER_AT = 0x100000, TRANSFER_SIZE = 0x100000, GPU_MEMORY_AT = 0x200000, COMMANDS_SIZE = 0x10000 };
enum { SURFACE_SIZE = SCENE_WIDTH * 4 * SCENE_HEIGHT }; /* block-linear: whole GOBs (64 bytes x 8 rows) */
/* hid's shared memory goes into the ASLR region, past the modules and outside heap, alias and stack
   (docs/switch.md's address space). */
#define PAD_SHARED_MEMORY ((void*)0x3000000000ull)

static void colour(float out[4], uint32_t r, uint32_t g, uint32_t b) {
  out[0] = (float)r / 255;
  out[1] = (float)g / 255;
  out[2] = (float)b / 255;
  out[3] = 1;
}

static void push_scene(struct kg_push* p, const struct kg_buffer* target, uint32_t square_x, uint32_t square_y) {
  float sky[4], ground[4], square[4];
  colour(sky, SCENE_SKY);
  colour(ground, SCENE_GROUND);
  colour(square, SCENE_SQUARE_COLOUR);
  push_colour_target(p, target, SCENE_WIDTH, SCENE_HEIGHT);
  kg_method(p, KG_SUBCH_3D, THREED_SET_CT_WRITE, 0x1111);
  push_viewport(p, SCENE_WIDTH, SCENE_HEIGHT);
  push_clear_colour(p, sky);
  push_clear_colour_scissored(p, ground, 0, SCENE_HORIZON_Y, SCENE_WIDTH, SCENE_HEIGHT);
  push_clear_colour_scissored(p, square, square_x, square_y, square_x + SCENE_SQUARE, square_y + SCENE_SQUARE);
}

/* The square's next position: the stick's share of SCENE_SQUARE_SPEED, kept inside the frame (y up on the stick,
   down in the frame). */
static int32_t moved(int32_t at, int32_t stick, int32_t limit) {
  at += stick * SCENE_SQUARE_SPEED / 0x7fff;
  return at < 0 ? 0 : at > limit ? limit : at;
}

static void say(EmitNumber emit_number, const char* what, Result r) { emit_number(what, r, 1); }

/* Appends `text` or the decimal `value` to the line at `line[*n]` (room for 64 characters). */
static void append(char* line, size_t* n, const char* text) {
  while (*text && *n < 63) line[(*n)++] = *text++;
  line[*n] = 0;
}
static void append_number(char* line, size_t* n, uint64_t value) {
  char digits[24];
  int d = 0;
  do digits[d++] = (char)('0' + value % 10); while ((value /= 10) != 0);
  while (d && *n < 63) line[(*n)++] = digits[--d];
  line[*n] = 0;
}

void sample_draw_scene(EmitLine emit, EmitNumber emit_number) {
  uint8_t* heap = nx_loader.heap;
  static NvGpu gpu;
  static Display display;
  static Pad pad;
  Result r = nv_open(&gpu, heap + TRANSFER_AT, TRANSFER_SIZE);
  if (r) {
    say(emit_number, "gpu: cannot open nvdrv: ", r);
    return;
  }
  char line[64];
  size_t n = 0;
  append(line, &n, "gpu: nvdrv open, chip ");
  append(line, &n, gpu.gpu_name);
  emit(line);
  struct kg_buffer commands, surfaces[DISPLAY_BUFFERS];
  uint8_t* next = heap + GPU_MEMORY_AT;
  r = nv_buffer(&gpu, next, COMMANDS_SIZE, &commands);
  next += COMMANDS_SIZE;
  for (int i = 0; r == 0 && i < DISPLAY_BUFFERS; ++i, next += SURFACE_SIZE) r = nv_buffer(&gpu, next, SURFACE_SIZE, &surfaces[i]);
  if (r == 0) r = display_open(&display);
  if (r == 0) r = display_set_buffers(&display, surfaces, DISPLAY_BUFFERS, SCENE_WIDTH, SCENE_HEIGHT);
  if (r) {
    say(emit_number, "display: cannot set up vi: ", r);
    nv_close(&gpu);
    return;
  }
  emit_number("display: connected, width ", display.width, 0);
  const Result pad_opened = pad_open(&pad, PAD_SHARED_MEMORY);
  if (pad_opened) say(emit_number, "pad: no hid (the square stays): ", pad_opened);

  struct kg_push push;
  kg_push_begin(&push, &commands);
  kg_bind_classes(&push, KG_MAXWELL);
  int32_t square_x = SCENE_SQUARE_X, square_y = SCENE_SQUARE_Y;
  struct kg_fence fence = {0, 0};
  for (int frame = 0; r == 0 && frame < SCENE_FRAMES; ++frame) {
    int32_t stick_x = 0, stick_y = 0;
    if (!pad_opened) pad_left_stick(&pad, &stick_x, &stick_y);
    square_x = moved(square_x, stick_x, SCENE_WIDTH - SCENE_SQUARE);
    square_y = moved(square_y, -stick_y, SCENE_HEIGHT - SCENE_SQUARE);
    int32_t slot = -1;
    r = display_dequeue(&display, &slot);
    if (r == 0 && (slot < 0 || slot >= DISPLAY_BUFFERS)) r = DISPLAY_STATUS_ERROR(-22); /* BAD_VALUE: not a slot we gave */
    if (r) break;
    push_scene(&push, &surfaces[slot], (uint32_t)square_x, (uint32_t)square_y);
    r = nv_submit(&gpu, &push, &fence);
    if (r == 0) r = display_queue(&display, slot, &fence); /* vi waits for the fence, then presents */
    if (r) break;
    /* The GPU has read every word once the frame was presented: the next frame's commands start at the top. */
    kg_push_begin(&push, &commands);
    n = 0;
    append(line, &n, "frame ");
    append_number(line, &n, (uint64_t)frame);
    append(line, &n, ": presented, square at ");
    append_number(line, &n, (uint64_t)square_x);
    append(line, &n, ", ");
    append_number(line, &n, (uint64_t)square_y);
    emit(line);
  }
  /* The last frame's GPU work is done before the channel closes (vi has waited for it too). */
  if (r == 0) r = nv_fence_wait(&gpu, &fence, 1000);
  if (r) say(emit_number, "frame: failed: ", r);
  else emit_number("frames: ", SCENE_FRAMES, 0);
  if (!pad_opened) pad_close(&pad);
  display_close(&display);
  nv_close(&gpu);
}
