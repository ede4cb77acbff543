/* kiln's second GPU sample title: a rotating cube textured with a picture the GPU renders each frame. An AArch64
 * Linux program of our own that drives a Maxwell GPU through L4T's nvgpu device nodes (games/common). Each frame,
 * in one submission, the 3D engine
 *   1. renders the 32x32 RGBA8 block-linear texture T (render to texture): a clear, two clears limited by
 *      scissor 0, and an indexed draw of a flat-coloured stripe;
 *   2. renders the 128x128 RGBA8 block-linear target F with a ZF32 depth target: a colour and depth clear, a
 *      scissored clear (a progress bar), the cube (one indexed draw of 36 16-bit indices over 24 vertices of
 *      two attributes, depth test LESS, its matrix in a constant buffer the CPU rewrites between frames,
 *      sampling T), then a translucent overlay quad blended over it;
 * then, after the fence (which brings the rendered pixels into guest memory), a second submission has the 2D
 * engine clear the 160x128 pitch frame and the copy engine place F and T in it, and the program writes
 * frame_N.png.
 * Scene (tests/games/check_scene_frames.cpp derives every expected pixel from these numbers):
 *   frame       160x128, RGBA (0x20, 0x20, 0x20, 0xff); F at (0, 0), T at (128, 0)
 *   T, frame n  clear PALETTE[n % 4]; scissored clears of texels [0, 16) x [0, 16) and [16, 32) x [16, 32) to
 *               PALETTE[(n + 1) % 4]; stripe x in [0, 32), y in [12, 20), colour STRIPE (texel (x, y) covers
 *               [x, x + 1) x [y, y + 1); edges on texel boundaries, so coverage is exact)
 *   F           clear BACKGROUND, depth 1; scissored clear of x in [0, 32 (n + 1)), y in [120, 128) to BAR
 *   cube        corners (+-1, +-1, +-1); face with outward normal N and right axis R (as seen from outside):
 *               corner (u, v) = N + (2u - 1) R + (2v - 1) (R x N), vertices (0,0) (1,0) (0,1) (1,1), indices
 *               0 1 2, 2 1 3; faces in order +z, -z, +x, -x, +y, -y with R = +x, -x, -z, +z, +x, +x.
 *               clip = P * Translate(0, 0.25, -4.5) * RotateX(a) * RotateY(b)^(n + 1), cos a = 12/13, sin a = 5/13,
 *               cos b = 4/5, sin b = 3/5 (rotations right-handed: RotateY maps +z towards +x); P: clip x = 2 x,
 *               y = -2 y (the window's y grows downwards), z = -(10 z + 10) / 9, w = -z (near 1, far 10);
 *               viewport: window x = 64 x_ndc + 64, y = 64 y_ndc + 64, depth = z_ndc. Texture T at (u, v),
 *               perspective-correct, nearest filtering, clamp to edge.
 *   overlay     x in [8, 56), y in [84, 112) (edges on pixel boundaries), colour OVERLAY, depth test off,
 *               blended SRC_ALPHA, ONE_MINUS_SRC_ALPHA (alpha too)
 * Built with -DSCENE_FAMILY=KG_AMPERE (the title "sample-scene-ampere") the same scene drives the Ampere classes
 * (3D C797, copy C7B5) with the SM86 twins of its programs (shaders/sm86/): programs by GPU address, the index
 * buffer by size; every frame must equal the Maxwell build's pixel for pixel. */
#include <string.h>

#include "gpu_session.h"
#include "maxwell_methods.h"
#include "shaders/flat.frag.h"          /* generated from shaders/NAME.sass (SM86: shaders/sm86/NAME.sass) by */
                                        /* `kiln shaders assemble --arch sm53|sm86` */
#include "shaders/textured.frag.h"
#include "shaders/transform.vert.h"

#ifndef SCENE_FAMILY
#define SCENE_FAMILY KG_MAXWELL
#endif
#define SCENE_TITLE (SCENE_FAMILY == KG_AMPERE ? "sample-scene-ampere" : "sample-scene")

enum { FRAMES = 4, WIDTH = 160, HEIGHT = 128, PITCH = WIDTH * 4 };
enum { TARGET = 128, TEXTURE = 32, TEXTURE_X = 128, STRIPE_Y0 = 12, STRIPE_Y1 = 20 };
enum { OVERLAY_X0 = 8, OVERLAY_Y0 = 84, OVERLAY_X1 = 56, OVERLAY_Y1 = 112, BAR_Y = 120 };
static const float PALETTE[4][4] = {{1, 0.6f, 0, 1}, {0, 0.6f, 1, 1}, {0.2f, 0.8f, 0.2f, 1}, {0.8f, 0.2f, 0.6f, 1}};
static const float STRIPE[4] = {1, 1, 1, 1};
static const float BACKGROUND[4] = {0.2f, 0.2f, 0.4f, 1};
static const float BAR[4] = {1, 0.8f, 0, 1};
static const float OVERLAY[4] = {1, 1, 1, 0.4f};

/* Where things lie: programs (offsets into the program buffer), vertices and indices, constant buffers (0x100 bytes
 * each). */
enum { VERTEX_PROGRAM = 0x0, TEXTURED_PROGRAM = 0x400, FLAT_PROGRAM = 0x800 };
enum { CUBE_VERTICES = 24, STRIPE_VERTEX = 24, OVERLAY_VERTEX = 28, VERTEX_STRIDE = 20 };
enum { CUBE_INDICES = 0, STRIPE_INDICES = 36, OVERLAY_INDICES = 42 };
enum { CB_CUBE_MATRIX = 0x000, CB_TEXTURE_MATRIX = 0x100, CB_FRAME_MATRIX = 0x200, CB_TEXTURE_HANDLE = 0x300,
       CB_STRIPE_COLOUR = 0x400, CB_OVERLAY_COLOUR = 0x500, CB_SIZE = 0x100 };


/* 4x4 matrices, row-major: m[4 * row + column]. */
typedef struct { float m[16]; } matrix;

static matrix multiply(const matrix *a, const matrix *b) {
  matrix r;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      float sum = 0;
      for (int k = 0; k < 4; ++k) sum += a->m[4 * i + k] * b->m[4 * k + j];
      r.m[4 * i + j] = sum;
    }
  return r;
}

/* Window pixels of a w x h target onto NDC (x_ndc = 2 x / w - 1, the same for y), z and w kept. */
static matrix pixels_to_ndc(float w, float h) {
  const matrix r = {{2 / w, 0, 0, -1, 0, 2 / h, 0, -1, 0, 0, 1, 0, 0, 0, 0, 1}};
  return r;
}

/* The cube's matrix for frame n (see the top of this file); exact rotation steps, no libm. */
static matrix cube_matrix(int n) {
  const matrix projection = {{2, 0, 0, 0, 0, -2, 0, 0, 0, 0, -10.0f / 9, -10.0f / 9, 0, 0, -1, 0}};
  const matrix translate = {{1, 0, 0, 0, 0, 1, 0, 0.25f, 0, 0, 1, -4.5f, 0, 0, 0, 1}};
  const matrix tilt = {{1, 0, 0, 0, 0, 12.0f / 13, -5.0f / 13, 0, 0, 5.0f / 13, 12.0f / 13, 0, 0, 0, 0, 1}};
  const matrix yaw_step = {{4.0f / 5, 0, 3.0f / 5, 0, 0, 1, 0, 0, -3.0f / 5, 0, 4.0f / 5, 0, 0, 0, 0, 1}};
  matrix yaw = yaw_step;
  for (int i = 0; i < n; ++i) yaw = multiply(&yaw, &yaw_step);
  matrix m = multiply(&tilt, &yaw);
  m = multiply(&translate, &m);
  return multiply(&projection, &m);
}

/* Vertices (x, y, z, u, v) and 16-bit indices: the cube, the stripe (in T's pixels) and the overlay (in F's). */
static void write_geometry(const struct kg_buffer *vertices, const struct kg_buffer *indices) {
  static const float normals[6][3] = {{0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
  static const float rights[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 0, -1}, {0, 0, 1}, {1, 0, 0}, {1, 0, 0}};
  float *v = (float *)vertices->cpu;
  uint16_t *index = (uint16_t *)indices->cpu;
  for (int face = 0; face < 6; ++face) {
    const float *n = normals[face], *r = rights[face];
    const float down[3] = {r[1] * n[2] - r[2] * n[1], r[2] * n[0] - r[0] * n[2], r[0] * n[1] - r[1] * n[0]}; /* R x N */
    static const float corner_uv[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    for (int corner = 0; corner < 4; ++corner) {
      const float u = corner_uv[corner][0], w = corner_uv[corner][1];
      for (int c = 0; c < 3; ++c) *v++ = n[c] + (2 * u - 1) * r[c] + (2 * w - 1) * down[c];
      *v++ = u;
      *v++ = w;
    }
    static const uint16_t quad[6] = {0, 1, 2, 2, 1, 3};
    for (int i = 0; i < 6; ++i) *index++ = (uint16_t)(4 * face + quad[i]);
  }
  const float rectangles[2][4] = {{0, STRIPE_Y0, TEXTURE, STRIPE_Y1}, {OVERLAY_X0, OVERLAY_Y0, OVERLAY_X1, OVERLAY_Y1}};
  for (int q = 0; q < 2; ++q) {
    for (int corner = 0; corner < 4; ++corner) {
      *v++ = rectangles[q][corner & 1 ? 2 : 0];
      *v++ = rectangles[q][corner >> 1 ? 3 : 1];
      *v++ = 0.5f; /* depth 0.5 (the matrices keep z, w = 1) */
      *v++ = 0;
      *v++ = 0;
    }
    static const uint16_t quad[6] = {0, 1, 2, 2, 1, 3};
    for (int i = 0; i < 6; ++i) *index++ = (uint16_t)(CUBE_VERTICES + 4 * q + quad[i]);
  }
}

static void write_constants(const struct kg_buffer *constants) {
  const matrix texture_matrix = pixels_to_ndc(TEXTURE, TEXTURE), frame_matrix = pixels_to_ndc(TARGET, TARGET);
  memcpy(constants->cpu + CB_TEXTURE_MATRIX, &texture_matrix, sizeof texture_matrix);
  memcpy(constants->cpu + CB_FRAME_MATRIX, &frame_matrix, sizeof frame_matrix);
  const uint32_t handle = 0u | 0u << 20; /* TIC 0, TSC 0 */
  memcpy(constants->cpu + CB_TEXTURE_HANDLE, &handle, sizeof handle);
  memcpy(constants->cpu + CB_STRIPE_COLOUR + 0x10, STRIPE, sizeof STRIPE);
  memcpy(constants->cpu + CB_OVERLAY_COLOUR + 0x10, OVERLAY, sizeof OVERLAY);
}

/* Binds constant buffer `offset` of `constants` as c[slot] of a stage group. */
static void bind_constants(struct kg_push *p, const struct kg_buffer *constants, uint32_t offset, uint32_t group,
                           uint32_t slot) {
  const uint64_t gpu = constants->gpu + offset;
  const uint32_t selector[3] = {CB_SIZE, (uint32_t)(gpu >> 32), (uint32_t)gpu};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_CONSTANT_BUFFER_SELECTOR_A, selector, 3);
  kg_method(p, KG_SUBCH_3D, THREED_BIND_GROUP_CONSTANT_BUFFER + 32 * group, 1u | slot << 4);
}

/* Colour target 0 and viewport 0 over the whole size x size target, all four components written. */
static void set_target(struct kg_push *p, const struct kg_buffer *target, uint32_t size) {
  push_colour_target(p, target, size, size);
  kg_method(p, KG_SUBCH_3D, THREED_SET_CT_WRITE, 0x1111);
  push_viewport(p, size, size);
}

static void draw_indexed(struct kg_push *p, const struct kg_buffer *indices, uint32_t first, uint32_t count) {
  push_index_buffer(p, indices->gpu + 2 * first, count, 2);
  kg_method(p, KG_SUBCH_3D, THREED_BEGIN, PRIMITIVE_TRIANGLES);
  kg_method(p, KG_SUBCH_3D, THREED_DRAW_INDEX_BUFFER, count);
  kg_method(p, KG_SUBCH_3D, THREED_END, 0);
}


/* State every pass shares: programs, the vertex stream and its two attributes, texture pools. */
static void set_common_state(struct kg_push *p, const struct kg_buffer *programs, const struct kg_buffer *vertices,
                             const struct kg_buffer *pools) {
  push_programs(p, programs, VERTEX_PROGRAM);
  /* Stream 0: 20-byte vertices. Attribute 0 R32G32B32 FLOAT at 0 (size 0x02), attribute 1 R32G32 FLOAT at 12
   * (size 0x04): stream 4:0, offset 20:7, size 26:21, type 29:27. */
  const uint32_t stream[3] = {VERTEX_STRIDE | 1u << 12, (uint32_t)(vertices->gpu >> 32), (uint32_t)vertices->gpu};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_VERTEX_STREAM_A_FORMAT, stream, 3);
  const uint32_t attributes[2] = {0u << 7 | 2u << 21 | 7u << 27, 12u << 7 | 4u << 21 | 7u << 27};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_VERTEX_ATTRIBUTE_A, attributes, 2);
  push_texture_pools(p, pools);
}

/* Pass 1: the texture T (see the top of this file). */
static void render_texture(struct kg_push *p, const struct kg_buffer *texture, const struct kg_buffer *indices,
                           const struct kg_buffer *constants, const struct kg_buffer *programs, int n) {
  set_target(p, texture, TEXTURE);
  kg_method(p, KG_SUBCH_3D, THREED_SET_ZT_SELECT, 0);
  kg_method(p, KG_SUBCH_3D, THREED_SET_DEPTH_TEST, 0);
  kg_method(p, KG_SUBCH_3D, THREED_SET_BLEND, 0);
  push_clear_colour(p, PALETTE[n % 4]);
  push_clear_colour_scissored(p, PALETTE[(n + 1) % 4], 0, 0, TEXTURE / 2, TEXTURE / 2);
  push_clear_colour_scissored(p, PALETTE[(n + 1) % 4], TEXTURE / 2, TEXTURE / 2, TEXTURE, TEXTURE);
  bind_constants(p, constants, CB_TEXTURE_MATRIX, GROUP_VERTEX, 1);
  bind_constants(p, constants, CB_STRIPE_COLOUR, GROUP_PIXEL, 2);
  push_pixel_program(p, programs, FLAT_PROGRAM);
  draw_indexed(p, indices, STRIPE_INDICES, 6);
}

/* Pass 2: F with its depth target: clears, the cube sampling T, the overlay. */
static void render_frame(struct kg_push *p, const struct kg_buffer *target, const struct kg_buffer *depth,
                         const struct kg_buffer *indices, const struct kg_buffer *constants,
                         const struct kg_buffer *programs, int n) {
  set_target(p, target, TARGET);
  push_depth_target(p, depth, TARGET, TARGET);
  push_clear_colour(p, BACKGROUND);
  kg_method(p, KG_SUBCH_3D, THREED_SET_Z_CLEAR_VALUE, float_bits(1));
  kg_method(p, KG_SUBCH_3D, THREED_CLEAR_SURFACE, 1); /* Z */
  push_clear_colour_scissored(p, BAR, 0, BAR_Y, 32 * (uint32_t)(n + 1), TARGET);

  kg_method(p, KG_SUBCH_3D, THREED_SET_DEPTH_TEST, 1);
  kg_method(p, KG_SUBCH_3D, THREED_SET_DEPTH_WRITE, 1);
  kg_method(p, KG_SUBCH_3D, THREED_SET_DEPTH_FUNC, OGL_LESS);
  bind_constants(p, constants, CB_CUBE_MATRIX, GROUP_VERTEX, 1);
  bind_constants(p, constants, CB_TEXTURE_HANDLE, GROUP_PIXEL, 2);
  push_pixel_program(p, programs, TEXTURED_PROGRAM);
  draw_indexed(p, indices, CUBE_INDICES, 36);

  kg_method(p, KG_SUBCH_3D, THREED_SET_DEPTH_TEST, 0);
  kg_method(p, KG_SUBCH_3D, THREED_SET_DEPTH_WRITE, 0);
  kg_method(p, KG_SUBCH_3D, THREED_SET_BLEND, 1);
  push_blend_source_alpha(p);
  bind_constants(p, constants, CB_FRAME_MATRIX, GROUP_VERTEX, 1);
  bind_constants(p, constants, CB_OVERLAY_COLOUR, GROUP_PIXEL, 2);
  push_pixel_program(p, programs, FLAT_PROGRAM);
  draw_indexed(p, indices, OVERLAY_INDICES, 6);
  kg_method(p, KG_SUBCH_3D, THREED_SET_BLEND, 0);
}

static void compose_frame(struct kg_push *p, const struct kg_buffer *frame, const struct kg_buffer *target,
                          const struct kg_buffer *texture) {
  push_2d_destination(p, frame, WIDTH, HEIGHT);
  push_2d_fill(p, 0x20u | 0x20u << 8 | 0x20u << 16 | 0xffu << 24, 0, 0, WIDTH, HEIGHT);
  /* Copy engine: F and T (block-linear, blocks one GOB high) into the pitch frame. */
  push_copy_block_linear_to_pitch(p, target, TARGET * 4, TARGET, 0, frame->gpu, PITCH);
  push_copy_block_linear_to_pitch(p, texture, TEXTURE * 4, TEXTURE, 0, frame->gpu + TEXTURE_X * 4, PITCH);
}

int main(int argc, char **argv) {
  struct gpu_session session;
  const int status = gpu_session_open(&session, SCENE_TITLE, SCENE_FAMILY, argc, argv);
  if (status != 0) return status;
  struct kg_buffer frame, target, depth, texture, programs, vertices, indices, pools, constants;
  const struct gpu_allocation allocations[] = {
      {&frame, PITCH * HEIGHT}, {&target, TARGET * TARGET * 4}, {&depth, TARGET * TARGET * 4},
      {&texture, TEXTURE * TEXTURE * 4}, {&programs, 0x1000}, {&vertices, 0x1000}, {&indices, 0x1000},
      {&pools, 0x1000}, {&constants, 0x1000}};
  if (gpu_session_allocate(&session, allocations, sizeof allocations / sizeof allocations[0]) != 0) return 1;
  /* The programs as the driver uploads them: SPH, then code (generated headers, see shaders/). */
  memcpy(programs.cpu + VERTEX_PROGRAM, transform_vert, sizeof transform_vert);
  memcpy(programs.cpu + TEXTURED_PROGRAM, textured_frag, sizeof textured_frag);
  memcpy(programs.cpu + FLAT_PROGRAM, flat_frag, sizeof flat_frag);
  write_geometry(&vertices, &indices);
  write_rgba8_texture_pools(&pools, &texture, TEXTURE, 0); /* blocks one GOB high, as the 3D engine renders T */
  write_constants(&constants);
  struct kg_push *push = &session.push;
  set_common_state(push, &programs, &vertices, &pools);
  for (int n = 0; n < FRAMES; ++n) {
    /* The previous frame's fence has passed, so the CPU may rewrite the matrix the GPU read. */
    const matrix m = cube_matrix(n);
    memcpy(constants.cpu + CB_CUBE_MATRIX, &m, sizeof m);
    struct kg_fence fence;
    render_texture(push, &texture, &indices, &constants, &programs, n);
    render_frame(push, &target, &depth, &indices, &constants, &programs, n);
    if (gpu_session_submit_and_wait(&session, &fence) != 0) return 1;
    /* The rendered pixels are in guest memory once the fence is reached: now the copy engine may read them. */
    compose_frame(push, &frame, &target, &texture);
    if (gpu_session_submit_and_wait(&session, &fence) != 0 ||
        gpu_session_write_frame(&session, n, &frame, WIDTH, HEIGHT, &fence) != 0)
      return 1;
  }
  gpu_session_close(&session);
  return 0;
}
