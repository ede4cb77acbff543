#include "corpus.h"
#include <arm_neon.h>
/* AdvSIMD structure loads and stores: LD1..LD4/ST1..ST4 to one lane, LD1R..LD4R, LD2..LD4/ST2..ST4 of whole
   registers, with post-index by immediate and by register, and the shapes GCC -O3 vectorises into them. */
static uint8_t memory[512];
static uint64_t digest(const void* p, size_t n) {
  const uint8_t* b = p; uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}
static void fill(uint8_t* p, size_t n, unsigned seed) { for (size_t i = 0; i < n; ++i) p[i] = (uint8_t)(seed + i * 29 + (i >> 3)); }
#define SHOW_ARRAY(name, array) printf("%-14s %016llx\n", name, (unsigned long long)digest(array, sizeof array))
#define SHOW(name, value) do { __typeof__(value) shown_ = (value); printf("%-14s %016llx\n", name, (unsigned long long)digest(&shown_, sizeof shown_)); } while (0)

/* Single-lane loads and stores: every element size, several lanes, D and Q registers. */
__attribute__((noinline)) static void single_lanes(void) {
  uint8x16_t b = vdupq_n_u8(0xee);
  for (int lane = 0; lane < 16; lane += 5) b = vsetq_lane_u8(lane, b, 0);
  b = vld1q_lane_u8(memory + 3, b, 3); b = vld1q_lane_u8(memory + 100, b, 15); SHOW("ld1 b", b);
  uint16x4_t h = vld1_lane_u16((const uint16_t*)(memory + 10), vdup_n_u16(7), 2); SHOW("ld1 h (d)", h);
  uint32x4_t s = vld1q_lane_u32((const uint32_t*)(memory + 20), vdupq_n_u32(9), 1); SHOW("ld1 s", s);
  uint64x2_t d = vld1q_lane_u64((const uint64_t*)(memory + 40), vdupq_n_u64(5), 1); SHOW("ld1 d", d);
  float32x2_t f = vld1_lane_f32((const float*)(memory + 60), vdup_n_f32(1.5f), 1); SHOW("ld1 s (f)", f);
  uint8_t out[64] = {0};
  vst1q_lane_u8(out + 1, b, 15); vst1_lane_u16((uint16_t*)(out + 6), h, 2); vst1q_lane_u32((uint32_t*)(out + 12), s, 1);
  vst1q_lane_u64((uint64_t*)(out + 24), d, 1); vst1_lane_f32((float*)(out + 36), f, 1);
  SHOW_ARRAY("st1 lanes", out);

  uint8x8x2_t b2 = vld2_lane_u8(memory + 7, (uint8x8x2_t){{vdup_n_u8(1), vdup_n_u8(2)}}, 5); SHOW("ld2 b", b2);
  uint16x8x2_t h2 = vld2q_lane_u16((const uint16_t*)(memory + 8), (uint16x8x2_t){{vdupq_n_u16(3), vdupq_n_u16(4)}}, 6); SHOW("ld2 h", h2);
  uint32x4x3_t s3 = vld3q_lane_u32((const uint32_t*)(memory + 12), (uint32x4x3_t){{vdupq_n_u32(5), vdupq_n_u32(6), vdupq_n_u32(7)}}, 2); SHOW("ld3 s", s3);
  uint64x2x2_t d2 = vld2q_lane_u64((const uint64_t*)(memory + 16), (uint64x2x2_t){{vdupq_n_u64(8), vdupq_n_u64(9)}}, 1); SHOW("ld2 d", d2);
  uint8x16x3_t b3 = vld3q_lane_u8(memory + 33, (uint8x16x3_t){{vdupq_n_u8(1), vdupq_n_u8(2), vdupq_n_u8(3)}}, 9); SHOW("ld3 b", b3);
  uint16x4x4_t h4 = vld4_lane_u16((const uint16_t*)(memory + 50), (uint16x4x4_t){{vdup_n_u16(1), vdup_n_u16(2), vdup_n_u16(3), vdup_n_u16(4)}}, 3); SHOW("ld4 h", h4);
  uint32x4x4_t s4 = vld4q_lane_u32((const uint32_t*)(memory + 64), (uint32x4x4_t){{vdupq_n_u32(1), vdupq_n_u32(2), vdupq_n_u32(3), vdupq_n_u32(4)}}, 0); SHOW("ld4 s", s4);
  uint64x2x4_t d4 = vld4q_lane_u64((const uint64_t*)(memory + 80), (uint64x2x4_t){{vdupq_n_u64(1), vdupq_n_u64(2), vdupq_n_u64(3), vdupq_n_u64(4)}}, 1); SHOW("ld4 d", d4);
  uint64x1x3_t d3 = vld3_lane_u64((const uint64_t*)(memory + 88), (uint64x1x3_t){{vdup_n_u64(1), vdup_n_u64(2), vdup_n_u64(3)}}, 0); SHOW("ld3 d (d)", d3);
  memset(out, 0, sizeof out);
  vst2_lane_u8(out, b2, 5); vst2q_lane_u16((uint16_t*)(out + 2), h2, 6); vst3q_lane_u32((uint32_t*)(out + 8), s3, 2);
  vst2q_lane_u64((uint64_t*)(out + 20), d2, 0); vst3q_lane_u8(out + 36, b3, 9); vst4_lane_u16((uint16_t*)(out + 40), h4, 3);
  vst4q_lane_u32((uint32_t*)(out + 48), s4, 3);
  SHOW_ARRAY("stn lanes", out);
  uint8_t wide[64] = {0};
  vst4q_lane_u64((uint64_t*)wide, d4, 1); vst3_lane_u64((uint64_t*)(wide + 32), d3, 0);
  SHOW_ARRAY("stn d lanes", wide);
  /* The plain-base forms of every size, written out (GCC picks LDR+INS for some of them). */
  uint8x16_t lanes = vdupq_n_u8(0x42);
  uint16x8_t dup_h; uint8x16_t dup_b;
  __asm__ volatile("ld1 {%0.h}[5], [%3]\n\tld1 {%0.s}[1], [%4]\n\tld1 {%0.d}[0], [%5]\n\tld1r {%1.4h}, [%3]\n\tld1r {%2.16b}, [%4]\n\t"
                   "st1 {%0.h}[7], [%6]\n\tst1 {%0.s}[0], [%7]"
                   : "+w"(lanes), "=w"(dup_h), "=w"(dup_b) : "r"(memory + 70), "r"(memory + 75), "r"(memory + 81), "r"(wide + 2), "r"(wide + 40) : "memory");
  SHOW("ld1 plain", lanes); SHOW("ld1r plain", dup_h); SHOW("ld1r 16b", dup_b); SHOW_ARRAY("st1 plain", wide);
}

/* Replicating loads: one structure copied to every lane of each register. */
__attribute__((noinline)) static void replicate(void) {
  SHOW("ld1r b", vld1q_dup_u8(memory + 5)); SHOW("ld1r h (d)", vld1_dup_u16((const uint16_t*)(memory + 6)));
  SHOW("ld2r b (d)", vld2_dup_u8(memory + 9)); SHOW("ld2r h", vld2q_dup_u16((const uint16_t*)(memory + 10)));
  SHOW("ld3r s", vld3q_dup_u32((const uint32_t*)(memory + 12))); SHOW("ld3r b", vld3q_dup_u8(memory + 13));
  SHOW("ld4r d", vld4q_dup_u64((const uint64_t*)(memory + 16))); SHOW("ld4r s (d)", vld4_dup_u32((const uint32_t*)(memory + 20)));
  SHOW("ld2r d (1d)", vld2_dup_u64((const uint64_t*)(memory + 24))); SHOW("ld4r h", vld4q_dup_u16((const uint16_t*)(memory + 26)));
  SHOW("ld3r h (d)", vld3_dup_u16((const uint16_t*)(memory + 30))); SHOW("ld2r s", vld2q_dup_f32((const float*)(memory + 36)));
}

/* Interleaved whole-register structures. */
__attribute__((noinline)) static void interleaved(void) {
  uint8x16x2_t b2 = vld2q_u8(memory + 1); uint16x8x3_t h3 = vld3q_u16((const uint16_t*)(memory + 2));
  uint32x4x4_t s4 = vld4q_u32((const uint32_t*)(memory + 4)); uint32x2x2_t s2 = vld2_u32((const uint32_t*)(memory + 8));
  uint8x8x3_t b3 = vld3_u8(memory + 3); uint16x4x4_t h4 = vld4_u16((const uint16_t*)(memory + 6));
  uint64x2x2_t d2 = vld2q_u64((const uint64_t*)(memory + 16)); uint8x16x4_t b4 = vld4q_u8(memory + 7);
  SHOW("ld2 16b", b2); SHOW("ld3 8h", h3); SHOW("ld4 4s", s4); SHOW("ld2 2s", s2); SHOW("ld3 8b", b3); SHOW("ld4 4h", h4);
  SHOW("ld2 2d", d2); SHOW("ld4 16b", b4);
  uint8_t out[256] = {0};
  vst2q_u8(out, b2); vst3q_u16((uint16_t*)(out + 32), h3); vst4q_u32((uint32_t*)(out + 80), s4); vst2_u32((uint32_t*)(out + 144), s2);
  vst3_u8(out + 160, b3); vst2q_u64((uint64_t*)(out + 184), d2);
  SHOW_ARRAY("stn whole", out);
  memset(out, 0, sizeof out); vst4_u16((uint16_t*)out, h4); vst4q_u8(out + 32, b4);
  SHOW_ARRAY("st4 whole", out);
}

/* Post-index by immediate and by register, and register lists that wrap from V31 to V0. */
__attribute__((noinline)) static void post_index(void) {
  const uint8_t* p = memory + 3; const int64_t step = 7;
  uint8x16_t v = vdupq_n_u8(0x11);
  __asm__ volatile("ld1 {%0.b}[3], [%1], #1\n\tld1 {%0.h}[5], [%1], #2\n\tld1 {%0.s}[2], [%1], %2\n\tld1 {%0.d}[1], [%1], #8"
                   : "+w"(v), "+r"(p) : "r"(step) : "memory");
  printf("post ld1 lane: %td ", p - memory); SHOW("", v);
  uint8_t out[64] = {0}; uint8_t* q = out;
  __asm__ volatile("st1 {%1.b}[15], [%0], #1\n\tst1 {%1.h}[1], [%0], %2\n\tst1 {%1.s}[3], [%0], #4\n\tst1 {%1.d}[0], [%0], #8"
                   : "+r"(q) : "w"(v), "r"(step) : "memory");
  printf("post st1 lane: %td ", q - out); SHOW_ARRAY("", out);
  uint64_t lists[2][16];
  p = memory + 5;
  __asm__ volatile("movi v30.16b, #0x5a\n\tmovi v31.16b, #0x6b\n\tmovi v0.16b, #0x7c\n\tmovi v1.16b, #0x8d\n\t"
                   "ld4 {v30.s, v31.s, v0.s, v1.s}[1], [%0], #16\n\tld3 {v31.h, v0.h, v1.h}[6], [%0], %2\n\t"
                   "ld2 {v0.b, v1.b}[9], [%0], #2\n\tld2r {v2.8h, v3.8h}, [%0], #4\n\tld3r {v4.2s, v5.2s, v6.2s}, [%0], %2\n\t"
                   "ld4r {v16.16b, v17.16b, v18.16b, v19.16b}, [%0], #4\n\t"
                   "stp q30, q31, [%1]\n\tstp q0, q1, [%1, #32]\n\tstp q2, q3, [%1, #64]\n\tstp q4, q5, [%1, #96]\n\t"
                   "stp q6, q16, [%1, #128]\n\tstp q17, q18, [%1, #160]\n\tstr q19, [%1, #192]"
                   : "+r"(p) : "r"(lists), "r"(step) : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v16", "v17", "v18", "v19", "v30", "v31", "memory");
  printf("post ldn: %td ", p - memory); SHOW_ARRAY("", lists);
  memset(out, 0, sizeof out); q = out; p = memory + 100;
  __asm__ volatile("ld1 {v20.16b-v23.16b}, [%1]\n\t"
                   "st4 {v20.s, v21.s, v22.s, v23.s}[3], [%0], #16\n\tst3 {v21.b, v22.b, v23.b}[11], [%0], %2\n\t"
                   "st2 {v22.d, v23.d}[1], [%0], #16\n\tst2 {v20.4h, v21.4h}, [%0], #16\n\tld3 {v24.4s, v25.4s, v26.4s}, [%1], #48\n\t"
                   "st3 {v24.4s, v25.4s, v26.4s}, [%0], %2"
                   : "+r"(q), "+r"(p) : "r"(step) : "v20", "v21", "v22", "v23", "v24", "v25", "v26", "memory");
  printf("post stn: %td %td ", q - out, p - memory); SHOW_ARRAY("", out);
}

/* What GCC -O3 makes of scalar code: vectors assembled from scattered bytes (single-lane LD1, as a PNG writer's
   big-endian header packing), interleaved pixels (LD3/LD4/ST4) and broadcast operands (LD1R). */
#pragma GCC push_options
#pragma GCC optimize("O3")
typedef struct { uint8_t r, g, b, a; } Rgba;
__attribute__((noinline)) static void pack_header(uint8_t out[16], uint32_t width, uint32_t height, const uint8_t* depth, const uint8_t* kind) {
  out[0] = (uint8_t)(width >> 24); out[1] = (uint8_t)(width >> 16); out[2] = (uint8_t)(width >> 8); out[3] = *depth;
  out[4] = (uint8_t)(height >> 24); out[5] = (uint8_t)(height >> 16); out[6] = (uint8_t)(height >> 8); out[7] = *kind;
}
__attribute__((noinline)) static void gray(uint8_t* dst, const Rgba* px, int n) {
  for (int i = 0; i < n; ++i) dst[i] = (uint8_t)((px[i].r * 77 + px[i].g * 150 + px[i].b * 29) >> 8);
}
__attribute__((noinline)) static void swap_red_blue(Rgba* px, int n) {
  for (int i = 0; i < n; ++i) { uint8_t t = px[i].r; px[i].r = px[i].b; px[i].b = t; }
}
__attribute__((noinline)) static void axpy(double* y, const double* x, const double* a, int n) {
  for (int i = 0; i < n; ++i) y[i] += *a * x[i];
}
#pragma GCC pop_options
__attribute__((noinline)) static void compiled(void) {
  uint8_t header[16] = {0};
  for (unsigned i = 0; i < 4; ++i) {
    pack_header(header, 640 + i * 1000003u, 480 * (i + 1), memory + i, memory + 9 + i);
    SHOW_ARRAY("header", header);
  }
  static Rgba px[999]; static uint8_t g[999];
  for (int i = 0; i < 999; ++i) px[i] = (Rgba){(uint8_t)(i * 3), (uint8_t)(i * 5 + 1), (uint8_t)(i * 7 + 2), (uint8_t)i};
  gray(g, px, 999); swap_red_blue(px, 999);
  SHOW_ARRAY("gray", g); SHOW_ARRAY("swapped", px);
  static double x[301], y[301]; const double a = -1.25;
  for (int i = 0; i < 301; ++i) { x[i] = i * 0.5; y[i] = 1.0 / (i + 1); }
  axpy(y, x, &a, 301);
  SHOW_ARRAY("axpy", y);
}

PROGRAM(structures) {
  UNUSED_ARGS;
  fill(memory, sizeof memory, 17);
  single_lanes();
  replicate();
  interleaved();
  post_index();
  compiled();
  return 0;
}
