/* maxwell_push.h: freestanding (no C library; __builtin_memcpy, which GCC inlines for these fixed sizes). */
#include "maxwell_push.h"

#include "maxwell_methods.h"

void kg_push_begin(struct kg_push *p, struct kg_buffer *buffer) {
  p->buffer = buffer;
  p->start = p->count = 0;
  p->overflowed = 0;
}

static void put(struct kg_push *p, uint32_t word) {
  if ((uint64_t)(p->count + 1) * 4 > p->buffer->size) {
    p->overflowed = 1;
    return;
  }
  __builtin_memcpy(p->buffer->cpu + (uint64_t)p->count * 4, &word, 4);
  ++p->count;
}

static uint32_t header(uint32_t sec_op, uint32_t subchannel, uint32_t method, uint32_t count) {
  return (sec_op << 29) | ((count & 0x1fff) << 16) | ((subchannel & 7) << 13) | ((method >> 2) & 0xfff);
}

void kg_method(struct kg_push *p, uint32_t subchannel, uint32_t method, uint32_t value) {
  if (value < 0x2000) {
    put(p, header(4, subchannel, method, value)); /* immediate data in the header */
  } else {
    put(p, header(1, subchannel, method, 1));
    put(p, value);
  }
}

void kg_methods(struct kg_push *p, uint32_t subchannel, uint32_t method, const uint32_t *values, uint32_t count) {
  put(p, header(1, subchannel, method, count));
  for (uint32_t i = 0; i < count; ++i) put(p, values[i]);
}

void kg_method_non_incrementing(struct kg_push *p, uint32_t subchannel, uint32_t method, const uint32_t *values,
                                uint32_t count) {
  put(p, header(3, subchannel, method, count));
  for (uint32_t i = 0; i < count; ++i) put(p, values[i]);
}

void kg_bind(struct kg_push *p, uint32_t subchannel, uint32_t class_id) { kg_method(p, subchannel, 0x0000, class_id); }

void kg_classes(enum kg_family family, uint32_t classes[4]) {
  classes[0] = family == KG_AMPERE ? KG_CLASS_3D_AMPERE : KG_CLASS_3D;
  classes[1] = KG_CLASS_2D;
  classes[2] = KG_CLASS_INLINE;
  classes[3] = family == KG_AMPERE ? KG_CLASS_COPY_AMPERE : KG_CLASS_COPY;
}

void kg_bind_classes(struct kg_push *p, enum kg_family family) {
  static const uint32_t subchannels[4] = {KG_SUBCH_3D, KG_SUBCH_2D, KG_SUBCH_INLINE, KG_SUBCH_COPY};
  uint32_t classes[4];
  kg_classes(family, classes);
  for (int i = 0; i < 4; ++i) kg_bind(p, subchannels[i], classes[i]);
  p->family = family;
}

void kg_take_submission(struct kg_push *p, uint32_t entry[2]) {
  const uint64_t address = p->buffer->gpu + (uint64_t)p->start * 4;
  const uint32_t length = p->count - p->start;
  /* GP_ENTRY0: address bits 2-31; GP_ENTRY1: address bits 32-39, length in words at bit 10. */
  entry[0] = (uint32_t)address & ~3u;
  entry[1] = (uint32_t)(address >> 32) | (length << 10);
  p->start = p->count;
}

uint32_t float_bits(float value) {
  uint32_t bits;
  __builtin_memcpy(&bits, &value, sizeof bits);
  return bits;
}

void push_address(struct kg_push *p, uint32_t subchannel, uint32_t method, uint64_t gpu) {
  const uint32_t words[2] = {(uint32_t)(gpu >> 32), (uint32_t)gpu};
  kg_methods(p, subchannel, method, words, 2);
}

void push_2d_destination(struct kg_push *p, const struct kg_buffer *frame, uint32_t width, uint32_t height) {
  push_address(p, KG_SUBCH_2D, TWOD_SET_DST_OFFSET_UPPER, frame->gpu);
  kg_method(p, KG_SUBCH_2D, TWOD_SET_DST_FORMAT, FORMAT_A8B8G8R8);
  kg_method(p, KG_SUBCH_2D, TWOD_SET_DST_MEMORY_LAYOUT, 1); /* PITCH */
  kg_method(p, KG_SUBCH_2D, TWOD_SET_DST_PITCH, width * 4);
  kg_method(p, KG_SUBCH_2D, TWOD_SET_DST_WIDTH, width);
  kg_method(p, KG_SUBCH_2D, TWOD_SET_DST_HEIGHT, height);
  kg_method(p, KG_SUBCH_2D, TWOD_SET_RENDER_SOLID_PRIM_COLOR_FORMAT, FORMAT_A8B8G8R8);
}

void push_2d_fill(struct kg_push *p, uint32_t rgba, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1) {
  kg_method(p, KG_SUBCH_2D, TWOD_SET_RENDER_SOLID_PRIM_COLOR, rgba);
  kg_method(p, KG_SUBCH_2D, TWOD_RENDER_SOLID_PRIM_MODE, SOLID_PRIM_RECTS);
  const uint32_t corners[4] = {x0, y0, x1, y1}; /* POINT_SET_X(0), POINT_Y(0), POINT_SET_X(1), POINT_Y(1) */
  kg_methods(p, KG_SUBCH_2D, TWOD_RENDER_SOLID_PRIM_POINT_SET_X, corners, 4);
}

void push_copy_block_linear_to_pitch(struct kg_push *p, const struct kg_buffer *source, uint32_t width_bytes,
                                     uint32_t height, uint32_t block_height_log2, uint64_t destination,
                                     uint32_t pitch_out) {
  push_address(p, KG_SUBCH_COPY, COPY_OFFSET_IN_UPPER, source->gpu);
  push_address(p, KG_SUBCH_COPY, COPY_OFFSET_OUT_UPPER, destination);
  kg_method(p, KG_SUBCH_COPY, COPY_SET_SRC_BLOCK_SIZE, (1u << 12) | (block_height_log2 << 4)); /* GOB height 8 */
  kg_method(p, KG_SUBCH_COPY, COPY_SET_SRC_WIDTH, width_bytes);
  kg_method(p, KG_SUBCH_COPY, COPY_SET_SRC_HEIGHT, height);
  kg_method(p, KG_SUBCH_COPY, COPY_SET_SRC_DEPTH, 1);
  kg_method(p, KG_SUBCH_COPY, COPY_SET_SRC_LAYER, 0);
  kg_method(p, KG_SUBCH_COPY, COPY_SET_SRC_ORIGIN, 0);
  kg_method(p, KG_SUBCH_COPY, COPY_PITCH_OUT, pitch_out);
  kg_method(p, KG_SUBCH_COPY, COPY_LINE_LENGTH_IN, width_bytes);
  kg_method(p, KG_SUBCH_COPY, COPY_LINE_COUNT, height);
  /* NON_PIPELINED transfer, source block-linear, destination pitch, multi-line. */
  kg_method(p, KG_SUBCH_COPY, COPY_LAUNCH_DMA, 2u | (1u << 8) | (1u << 9));
}

void push_colour_target(struct kg_push *p, const struct kg_buffer *target, uint32_t width, uint32_t height) {
  push_address(p, KG_SUBCH_3D, THREED_SET_COLOR_TARGET_A, target->gpu);
  kg_method(p, KG_SUBCH_3D, THREED_SET_COLOR_TARGET_WIDTH, width);
  kg_method(p, KG_SUBCH_3D, THREED_SET_COLOR_TARGET_HEIGHT, height);
  kg_method(p, KG_SUBCH_3D, THREED_SET_COLOR_TARGET_FORMAT, FORMAT_A8B8G8R8);
  kg_method(p, KG_SUBCH_3D, THREED_SET_COLOR_TARGET_MEMORY, 0); /* block-linear, blocks one GOB high */
  kg_method(p, KG_SUBCH_3D, THREED_SET_CT_SELECT, 1);           /* one target: slot 0 */
}

void push_viewport(struct kg_push *p, uint32_t width, uint32_t height) {
  /* The scale and offset registers are interleaved: SCALE_X, SCALE_Y, SCALE_Z, OFFSET_X, OFFSET_Y, OFFSET_Z. */
  const float half_width = (float)width / 2, half_height = (float)height / 2;
  const uint32_t viewport[6] = {float_bits(half_width), float_bits(half_height), float_bits(1),
                                float_bits(half_width), float_bits(half_height), 0};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_VIEWPORT_SCALE_X, viewport, 6);
  kg_method(p, KG_SUBCH_3D, THREED_SET_VIEWPORT_Z_CLIP, 1); /* ZERO_TO_POSITIVE_W */
  const uint32_t clip[2] = {width << 16, height << 16};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_VIEWPORT_CLIP_HORIZONTAL, clip, 2);
}

void push_depth_target(struct kg_push *p, const struct kg_buffer *depth, uint32_t width, uint32_t height) {
  push_address(p, KG_SUBCH_3D, THREED_SET_ZT_A, depth->gpu);
  kg_method(p, KG_SUBCH_3D, THREED_SET_ZT_FORMAT, ZT_FORMAT_ZF32);
  kg_method(p, KG_SUBCH_3D, THREED_SET_ZT_BLOCK_SIZE, 0);
  const uint32_t size[3] = {width, height, 1};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_ZT_SIZE_A, size, 3);
  kg_method(p, KG_SUBCH_3D, THREED_SET_ZT_SELECT, 1);
}

/* Slot `slot`'s program: an offset into the program region (Maxwell) or its GPU address (Ampere). */
static void push_slot_program(struct kg_push *p, uint32_t slot, const struct kg_buffer *programs, uint32_t program) {
  if (p->family == KG_AMPERE)
    push_address(p, KG_SUBCH_3D, AMPERE_THREED_SET_PIPELINE_PROGRAM_ADDRESS_A + 64 * slot, programs->gpu + program);
  else
    kg_method(p, KG_SUBCH_3D, THREED_SET_PIPELINE_PROGRAM + 64 * slot, program);
}

void push_programs(struct kg_push *p, const struct kg_buffer *programs, uint32_t vertex_program) {
  if (p->family == KG_MAXWELL) push_address(p, KG_SUBCH_3D, THREED_SET_PROGRAM_REGION_A, programs->gpu);
  kg_method(p, KG_SUBCH_3D, THREED_SET_PIPELINE_SHADER + 64 * PIPELINE_VERTEX_B, 1u | 1u << 4); /* enabled, VERTEX_B */
  push_slot_program(p, PIPELINE_VERTEX_B, programs, vertex_program);
  kg_method(p, KG_SUBCH_3D, THREED_SET_PIPELINE_SHADER + 64 * PIPELINE_PIXEL, 1u | 5u << 4);    /* enabled, PIXEL */
  kg_method(p, KG_SUBCH_3D, THREED_SET_PIPELINE_BINDING + 64 * PIPELINE_PIXEL, GROUP_PIXEL);
}

void push_pixel_program(struct kg_push *p, const struct kg_buffer *programs, uint32_t program) {
  push_slot_program(p, PIPELINE_PIXEL, programs, program);
}

void push_index_buffer(struct kg_push *p, uint64_t start, uint32_t count, uint32_t bytes_per_index) {
  const uint32_t format = bytes_per_index == 1 ? 0 : bytes_per_index == 2 ? INDEX_TWO_BYTES : 2;
  const uint64_t bytes = (uint64_t)count * bytes_per_index, limit = start + bytes - 1;
  if (p->family == KG_AMPERE) {
    push_address(p, KG_SUBCH_3D, THREED_SET_INDEX_BUFFER_A, start);
    const uint32_t format_first[2] = {format, 0};
    kg_methods(p, KG_SUBCH_3D, THREED_SET_INDEX_BUFFER_E, format_first, 2);
    push_address(p, KG_SUBCH_3D, AMPERE_THREED_SET_INDEX_BUFFER_SIZE_A, bytes);
    return;
  }
  const uint32_t buffer[6] = {(uint32_t)(start >> 32), (uint32_t)start, (uint32_t)(limit >> 32), (uint32_t)limit, format, 0};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_INDEX_BUFFER_A, buffer, 6); /* address, limit (last byte), format, first index */
}

void push_texture_pools(struct kg_push *p, const struct kg_buffer *pools) {
  const uint32_t header_pool[3] = {(uint32_t)(pools->gpu >> 32), (uint32_t)pools->gpu, 15};
  const uint32_t sampler_pool[3] = {(uint32_t)((pools->gpu + 0x100) >> 32), (uint32_t)(pools->gpu + 0x100), 15};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_TEX_HEADER_POOL_A, header_pool, 3);
  kg_methods(p, KG_SUBCH_3D, THREED_SET_TEX_SAMPLER_POOL_A, sampler_pool, 3);
}

void push_clear_colour(struct kg_push *p, const float colour[4]) {
  const uint32_t bits[4] = {float_bits(colour[0]), float_bits(colour[1]), float_bits(colour[2]), float_bits(colour[3])};
  kg_methods(p, KG_SUBCH_3D, THREED_SET_COLOR_CLEAR_VALUE, bits, 4);
  kg_method(p, KG_SUBCH_3D, THREED_CLEAR_SURFACE, 0xf << 2); /* R, G, B and A of target 0 */
}

void push_clear_colour_scissored(struct kg_push *p, const float colour[4], uint32_t x0, uint32_t y0, uint32_t x1,
                                 uint32_t y1) {
  kg_method(p, KG_SUBCH_3D, THREED_SET_SCISSOR_ENABLE, 1);
  kg_method(p, KG_SUBCH_3D, THREED_SET_SCISSOR_HORIZONTAL, x0 | x1 << 16);
  kg_method(p, KG_SUBCH_3D, THREED_SET_SCISSOR_VERTICAL, y0 | y1 << 16);
  kg_method(p, KG_SUBCH_3D, THREED_SET_CLEAR_SURFACE_CONTROL, USE_SCISSOR0);
  push_clear_colour(p, colour);
  kg_method(p, KG_SUBCH_3D, THREED_SET_CLEAR_SURFACE_CONTROL, 0);
  kg_method(p, KG_SUBCH_3D, THREED_SET_SCISSOR_ENABLE, 0);
}

void push_blend_source_alpha(struct kg_push *p) {
  kg_method(p, KG_SUBCH_3D, THREED_SET_BLEND_SEPARATE_FOR_ALPHA, 0);
  const uint32_t equation[3] = {OGL_FUNC_ADD, OGL_SRC_ALPHA, OGL_ONE_MINUS_SRC_ALPHA}; /* op, source, destination */
  kg_methods(p, KG_SUBCH_3D, THREED_SET_BLEND_COLOR_OP, equation, 3);
}

void write_rgba8_texture_pools(const struct kg_buffer *pools, const struct kg_buffer *texture, uint32_t size,
                               uint32_t block_height_log2) {
  /* A8B8G8R8 (8), UNORM components (2), sources X = R (2), Y = G (3), Z = B (4), W = A (5); block-linear header
   * (3) with the GOBs per block in word 3, 2D (1), normalized coordinates. */
  const uint32_t tic[8] = {0x08u | 2u << 7 | 2u << 10 | 2u << 13 | 2u << 16 | 2u << 19 | 3u << 22 | 4u << 25 | 5u << 28,
                           (uint32_t)texture->gpu & 0xfffffe00u, (uint32_t)(texture->gpu >> 32) | 3u << 21,
                           block_height_log2 << 3, (size - 1) | 1u << 23, (size - 1) | 1u << 31, 0, 0};
  /* CLAMP_TO_EDGE (2) in U, V, P; MAG_POINT (1), MIN_POINT (1), MIP_NONE (1). */
  const uint32_t tsc[8] = {2u | 2u << 3 | 2u << 6, 1u | 1u << 4 | 1u << 6, 0, 0, 0, 0, 0, 0};
  __builtin_memcpy(pools->cpu, tic, sizeof tic);
  __builtin_memcpy(pools->cpu + 0x100, tsc, sizeof tsc);
}
