#include "corpus.h"
/* AdvSIMD through arm_neon.h, one operation class per line, on edge values (INT_MIN/INT_MAX, saturation,
   out-of-range shifts and table indices, NaN, -0, infinities, conversions at the integer limits). Every input
   goes through `seed` (0 at run time, unknown to the compiler) so GCC cannot fold the intrinsics away. Results
   print as hex lane bits, so a NaN's sign and payload and the sign of zero are compared too. */
#include <arm_neon.h>
#include <math.h>

static int seed;
static void show(const char* name, const void* data, int bytes) {
  const uint8_t* p = data;
  printf("%-10s", name);
  for (int i = bytes - 1; i >= 0; --i) printf(i % 4 == 3 && i != bytes - 1 ? " %02x" : "%02x", p[i]);
  printf("\n");
}
#define SHOW(name, v) do { __typeof__(v) v_ = (v); show(name, &v_, sizeof v_); } while (0)

static float f32(float x) { return x + (float)seed; }
static double f64(double x) { return x + (double)seed; }

static void integer_lanes(void) {
  const uint8_t b0[16] = {0, 1, 2, 0x7f, 0x80, 0x81, 0xfe, 0xff, 3, 5, 64, 100, 200, 250, 17, 42};
  const uint8_t b1[16] = {0xff, 1, 0xfe, 1, 0x80, 0x7f, 2, 1, 9, 5, 64, 155, 56, 10, 0, 200};
  uint8_t x8[16], y8[16];
  for (int i = 0; i < 16; ++i) { x8[i] = (uint8_t)(b0[i] + seed); y8[i] = (uint8_t)(b1[i] + seed); }
  const uint8x16_t ub = vld1q_u8(x8), vb = vld1q_u8(y8);
  const int8x16_t sb = vreinterpretq_s8_u8(ub), tb = vreinterpretq_s8_u8(vb);
  const int16x8_t sh = vreinterpretq_s16_u8(ub), th = vreinterpretq_s16_u8(vb);
  const uint16x8_t uh = vreinterpretq_u16_u8(ub), vh = vreinterpretq_u16_u8(vb);
  const int32x4_t sw = vreinterpretq_s32_u8(ub), tw = vreinterpretq_s32_u8(vb);
  const int32x4_t limits = vcombine_s32(vcreate_s32(0x7fffffff80000000ull + (uint64_t)seed), vcreate_s32(0xffffffff00000001ull));
  const int64x2_t sd = vreinterpretq_s64_u8(ub), td = vreinterpretq_s64_u8(vb);
  SHOW("add", vaddq_u8(ub, vb)); SHOW("sub", vsubq_s16(sh, th)); SHOW("mul", vmulq_s32(sw, tw));
  SHOW("mla", vmlaq_u16(uh, vh, uh)); SHOW("mls", vmlsq_s32(sw, tw, limits)); SHOW("add64", vaddq_s64(sd, td));
  SHOW("cmeq", vceqq_u8(ub, vb)); SHOW("cmgt", vcgtq_s8(sb, tb)); SHOW("cmhi", vcgtq_u8(ub, vb));
  SHOW("cmge", vcgeq_s16(sh, th)); SHOW("cmhs", vcgeq_u16(uh, vh)); SHOW("cmtst", vtstq_u8(ub, vb));
  SHOW("cmltz", vcltzq_s32(limits)); SHOW("cmlez", vclezq_s8(sb)); SHOW("cmgt64", vcgtq_s64(sd, td));
  SHOW("smax", vmaxq_s8(sb, tb)); SHOW("umin", vminq_u16(uh, vh)); SHOW("sabd", vabdq_s32(limits, tw));
  SHOW("uabd", vabdq_u8(ub, vb)); SHOW("abs", vabsq_s8(sb)); SHOW("abs32", vabsq_s32(limits));
  SHOW("neg64", vnegq_s64(sd)); SHOW("sqabs", vqabsq_s32(limits)); SHOW("sqneg", vqnegq_s8(sb));
  SHOW("and", vandq_u8(ub, vb)); SHOW("orr", vorrq_u8(ub, vb)); SHOW("eor", veorq_u8(ub, vb));
  SHOW("bic", vbicq_u8(ub, vb)); SHOW("orn", vornq_u8(ub, vb)); SHOW("not", vmvnq_u8(ub));
  SHOW("bsl", vbslq_u8(vceqq_u8(vandq_u8(ub, vdupq_n_u8(1)), vdupq_n_u8(1)), ub, vb));
  SHOW("cnt", vcntq_u8(ub)); SHOW("clz16", vclzq_u16(uh)); SHOW("clz32", vclzq_s32(limits)); SHOW("rbit", vrbitq_u8(ub));
}

static void saturating_and_shifts(void) {
  int8_t s8[16]; int16_t s16[8]; int32_t s32[4]; int64_t s64[2];
  for (int i = 0; i < 16; ++i) s8[i] = (int8_t)((i * 37 - 128) + seed);
  for (int i = 0; i < 8; ++i) s16[i] = (int16_t)((i * 9000 - 32768) + seed);
  for (int i = 0; i < 4; ++i) s32[i] = (int32_t)(0x7ffffffe - 0x55555555u * (uint32_t)i) + seed;
  s64[0] = INT64_MAX - seed; s64[1] = INT64_MIN + seed;
  const int8x16_t a8 = vld1q_s8(s8), shifts = vcombine_s8(vcreate_s8(0x09f807fff90100ffull), vcreate_s8(0x80407f20e0c0f0e8ull + (uint64_t)seed));
  const int16x8_t a16 = vld1q_s16(s16);
  const int32x4_t a32 = vld1q_s32(s32);
  const int64x2_t a64 = vld1q_s64(s64);
  SHOW("sqadd8", vqaddq_s8(a8, vdupq_n_s8(100))); SHOW("uqadd8", vqaddq_u8(vreinterpretq_u8_s8(a8), vdupq_n_u8(200)));
  SHOW("sqsub32", vqsubq_s32(a32, vdupq_n_s32(-0x40000000))); SHOW("uqsub16", vqsubq_u16(vreinterpretq_u16_s16(a16), vdupq_n_u16(40000)));
  SHOW("sqadd64", vqaddq_s64(a64, a64)); SHOW("uqadd64", vqaddq_u64(vreinterpretq_u64_s64(a64), vdupq_n_u64(1)));
  SHOW("shadd", vhaddq_s16(a16, vdupq_n_s16(-32768))); SHOW("urhadd", vrhaddq_u8(vreinterpretq_u8_s8(a8), vdupq_n_u8(255)));
  SHOW("sshl", vshlq_s8(a8, shifts)); SHOW("ushl", vshlq_u8(vreinterpretq_u8_s8(a8), shifts));
  SHOW("sshl32", vshlq_s32(a32, vdupq_n_s32(-31 + seed))); SHOW("ushl64", vshlq_u64(vreinterpretq_u64_s64(a64), vdupq_n_s64(-64 + seed)));
  SHOW("srshl", vrshlq_s16(a16, vdupq_n_s16(-3 + seed))); SHOW("urshl", vrshlq_u32(vreinterpretq_u32_s32(a32), vdupq_n_s32(-7)));
  SHOW("shl", vshlq_n_s16(a16, 15)); SHOW("ushr32", vshrq_n_u32(vreinterpretq_u32_s32(a32), 32));
  SHOW("sshr8", vshrq_n_s8(a8, 8)); SHOW("sshr64", vshrq_n_s64(a64, 63)); SHOW("usra", vsraq_n_u16(vreinterpretq_u16_s16(a16), vreinterpretq_u16_s16(a16), 16));
  SHOW("ssra", vsraq_n_s32(a32, a32, 5)); SHOW("urshr", vrshrq_n_u8(vreinterpretq_u8_s8(a8), 8)); SHOW("urshr3", vrshrq_n_u8(vreinterpretq_u8_s8(a8), 3));
  SHOW("srshr", vrshrq_n_s16(a16, 4)); SHOW("srshr32", vrshrq_n_s32(a32, 32));
}

static void narrow_widen_long(void) {
  int16_t s16[8]; int32_t s32[4]; uint64_t u64[2];
  for (int i = 0; i < 8; ++i) s16[i] = (int16_t)(i * 9000 - 32768 + seed);
  for (int i = 0; i < 4; ++i) s32[i] = (int32_t)(0x7ffffffe - 0x55555555u * (uint32_t)i) + seed;
  u64[0] = 0xffffffffull + (uint64_t)seed; u64[1] = 0x100000000ull;
  const int16x8_t a16 = vld1q_s16(s16);
  const int32x4_t a32 = vld1q_s32(s32);
  const uint64x2_t a64 = vld1q_u64(u64);
  const uint8x16_t bytes = vreinterpretq_u8_s16(a16);
  SHOW("xtn", vmovn_u32(vreinterpretq_u32_s32(a32))); SHOW("xtn2", vmovn_high_u16(vcreate_u8(0x0102030405060708ull), vreinterpretq_u16_s16(a16)));
  SHOW("sqxtn", vqmovn_s32(a32)); SHOW("uqxtn", vqmovn_u64(a64)); SHOW("sqxtun", vqmovun_s16(a16));
  SHOW("sqxtn2", vqmovn_high_s16(vcreate_s8(0x1122334455667788ull), a16));
  SHOW("shrn", vshrn_n_u32(vreinterpretq_u32_s32(a32), 16)); SHOW("shrn2", vshrn_high_n_s16(vcreate_s8(0x99ull), a16, 3));
  SHOW("sshll", vshll_n_s8(vget_low_s8(vreinterpretq_s8_s16(a16)), 3)); SHOW("uxtl", vmovl_u16(vget_low_u16(vreinterpretq_u16_s16(a16))));
  SHOW("sxtl2", vmovl_high_s8(vreinterpretq_s8_s16(a16))); SHOW("ushll2", vshll_high_n_u32(vreinterpretq_u32_s32(a32), 31));
  SHOW("smull", vmull_s16(vget_low_s16(a16), vget_high_s16(a16))); SHOW("umull2", vmull_high_u8(bytes, bytes));
  SHOW("smlal", vmlal_s32(vdupq_n_s64(INT64_MIN), vget_low_s32(a32), vget_high_s32(a32)));
  SHOW("umlsl", vmlsl_u16(vdupq_n_u32(5), vget_low_u16(vreinterpretq_u16_s16(a16)), vget_high_u16(vreinterpretq_u16_s16(a16))));
  SHOW("uaddl", vaddl_u8(vget_low_u8(bytes), vget_high_u8(bytes))); SHOW("ssubw", vsubw_s16(a32, vget_low_s16(a16)));
  SHOW("uaddw2", vaddw_high_u16(vreinterpretq_u32_s32(a32), vreinterpretq_u16_s16(a16))); SHOW("ssubl2", vsubl_high_s8(vreinterpretq_s8_s16(a16), vreinterpretq_s8_s32(a32)));
}

static void reductions_and_permutes(void) {
  uint8_t x8[16], idx[16];
  for (int i = 0; i < 16; ++i) { x8[i] = (uint8_t)(i * 29 + 7 + seed); idx[i] = (uint8_t)(i * 5 + seed); }
  idx[3] = 255; idx[7] = 16; idx[9] = 31; idx[12] = 32;
  const uint8x16_t a = vld1q_u8(x8), b = vrev64q_u8(a), ix = vld1q_u8(idx);
  const uint16x8_t h = vreinterpretq_u16_u8(a);
  const int16x8_t sh = vreinterpretq_s16_u8(a);
  const uint32x4_t w = vreinterpretq_u32_u8(a);
  uint8x16x2_t pair = {{a, b}};
  printf("addv %u %d %u %u %d %llu\n", vaddvq_u8(a), vmaxvq_s16(sh), vminvq_u32(w), vmaxvq_u8(a), vaddv_s32(vget_low_s32(vreinterpretq_s32_u8(a))),
         (unsigned long long)vaddvq_u64(vreinterpretq_u64_u8(a)));
  printf("minv %d %u %d\n", vminvq_s8(vreinterpretq_s8_u8(a)), vminvq_u16(h), vaddvq_s16(sh));
  SHOW("addp", vpaddq_u16(h, vreinterpretq_u16_u8(b))); SHOW("addp64", vpaddq_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b)));
  SHOW("umaxp", vpmax_u8(vget_low_u8(a), vget_high_u8(a))); SHOW("sminp", vpminq_s16(sh, vreinterpretq_s16_u8(b)));
  SHOW("tbl1", vqtbl1q_u8(a, ix)); SHOW("tbl2", vqtbl2q_u8(pair, ix)); SHOW("tbx1", vqtbx1q_u8(b, a, ix));
  SHOW("tbl1d", vqtbl1_u8(a, vget_low_u8(ix))); SHOW("tbx2d", vqtbx2_u8(vget_low_u8(a), pair, vget_high_u8(ix)));
  SHOW("zip1", vzip1q_u8(a, b)); SHOW("zip2_64", vzip2q_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b)));
  SHOW("uzp1", vuzp1q_u16(h, vreinterpretq_u16_u8(b))); SHOW("uzp2", vuzp2q_u8(a, b)); SHOW("trn1", vtrn1q_u32(w, vreinterpretq_u32_u8(b)));
  SHOW("trn2", vtrn2_u16(vget_low_u16(h), vget_high_u16(h))); SHOW("ext", vextq_u8(a, b, 5)); SHOW("extd", vext_u8(vget_low_u8(a), vget_high_u8(b), 3));
  SHOW("rev64", vrev64q_u16(h)); SHOW("rev32", vrev32q_u8(a)); SHOW("rev16", vrev16q_u8(a)); SHOW("rev64w", vrev64q_u32(w));
  SHOW("dup", vdupq_n_u16((uint16_t)(0xbeef + seed))); SHOW("duplane", vdupq_laneq_u32(w, 3)); SHOW("dupd", vdup_n_u8((uint8_t)(seed - 3)));
}

static void floating_lanes(void) {
  const float nan_f = f32(NAN), inf_f = f32(INFINITY);
  float fa[4] = {f32(1.5f), f32(-0.0f), inf_f, nan_f}, fb[4] = {f32(-2.25f), f32(0.0f), inf_f, f32(3.0f)};
  float fc[4] = {f32(0.0f), f32(-0.0f), f32(1e-40f), f32(-1.0f)};
  const double nan_d = f64(NAN), inf_d = f64(INFINITY);
  double da[2] = {f64(-0.0), inf_d}, db[2] = {f64(0.0), nan_d}, dc[2] = {f64(1e308), f64(-inf_d)};
  uint32_t snan_bits = 0x7f800001u + (uint32_t)seed; float snan; memcpy(&snan, &snan_bits, 4);
  const float32x4_t a = vld1q_f32(fa), b = vld1q_f32(fb), c = vld1q_f32(fc), s = vsetq_lane_f32(snan, b, 1);
  const float64x2_t x = vld1q_f64(da), y = vld1q_f64(db), z = vld1q_f64(dc);
  SHOW("fadd", vaddq_f32(a, b)); SHOW("fadd_inf", vaddq_f32(vdupq_n_f32(inf_f), vdupq_n_f32(-inf_f))); SHOW("fsub", vsubq_f64(x, y));
  SHOW("fsub_inf", vsubq_f64(vdupq_n_f64(inf_d), vdupq_n_f64(inf_d))); SHOW("fmul", vmulq_f32(a, c)); SHOW("fmul_0inf", vmulq_f64(x, dc[1] == 0 ? x : vnegq_f64(vdupq_n_f64(inf_d))));
  SHOW("fdiv", vdivq_f64(x, y)); SHOW("fdiv_0", vdivq_f32(c, vdupq_n_f32(f32(0.0f)))); SHOW("fdiv2", vdiv_f32(vget_low_f32(a), vget_low_f32(c)));
  SHOW("fmax", vmaxq_f32(a, b)); SHOW("fmax0", vmaxq_f32(c, vnegq_f32(c))); SHOW("fmin0", vminq_f64(vdupq_n_f64(f64(0.0)), vdupq_n_f64(f64(-0.0))));
  SHOW("fmaxnm", vmaxnmq_f32(a, b)); SHOW("fminnm", vminnmq_f64(x, y)); SHOW("fmax_snan", vmaxq_f32(s, a)); SHOW("fmaxnm_snan", vmaxnmq_f32(a, s));
  SHOW("fmla", vfmaq_f32(c, a, b)); SHOW("fmls", vfmsq_f64(z, x, y)); SHOW("fmla_ln", vfmaq_laneq_f32(c, b, a, 0));
  SHOW("fmla_exact", vfmaq_f64(vdupq_n_f64(f64(-1.0)), vdupq_n_f64(f64(1.0 + 0x1p-30)), vdupq_n_f64(f64(1.0 - 0x1p-30))));
  SHOW("fabd", vabdq_f32(a, b)); SHOW("fneg", vnegq_f32(a)); SHOW("fabs", vabsq_f64(y)); SHOW("fsqrt", vsqrtq_f32(vsubq_f32(c, vdupq_n_f32(f32(0.5f)))));
  SHOW("faddp", vpaddq_f32(a, c)); SHOW("fmaxp", vpmaxq_f32(c, b)); SHOW("fadd_snan", vaddq_f32(s, c)); SHOW("fmul_nan2", vmulq_f32(b, s));
}

static void conversions(void) {
  const float32x4_t f = {f32(NAN), f32(3e9f), f32(-3e9f), f32(-0.75f)};
  const float32x4_t g = {f32(2147483648.0f), f32(4294967040.0f), f32(-1.0f), f32(2147483520.0f)};
  const float64x2_t d = {f64(0x1.8p63), f64(-0x1p63)}, e = {f64(NAN), f64(1e300)};
  SHOW("fcvtzs", vcvtq_s32_f32(f)); SHOW("fcvtzs2", vcvtq_s32_f32(g)); SHOW("fcvtzs_2s", vcvt_s32_f32(vget_low_f32(g)));
  SHOW("fcvtzu", vcvtq_u32_f32(f)); SHOW("fcvtzu2", vcvtq_u32_f32(g)); SHOW("fcvtzu_2s", vcvt_u32_f32(vget_high_f32(f)));
  SHOW("fcvtzs64", vcvtq_s64_f64(d)); SHOW("fcvtzu64", vcvtq_u64_f64(d)); SHOW("fcvtz64n", vcvtq_s64_f64(e));
  const uint32x4_t u = {0xffffffffu + (uint32_t)seed, 0x80000001u, 0x01000001u, 16777217u};
  const int64x2_t l = {INT64_MAX - seed, (int64_t)0x20000000000001ll};
  SHOW("ucvtf", vcvtq_f32_u32(u)); SHOW("scvtf", vcvtq_f32_s32(vreinterpretq_s32_u32(u))); SHOW("scvtf64", vcvtq_f64_s64(l));
  SHOW("ucvtf64", vcvtq_f64_u64(vreinterpretq_u64_s64(l))); SHOW("ucvtf_2s", vcvt_f32_u32(vget_low_u32(u)));
  SHOW("fcvtn", vcvt_f32_f64(vcombine_f64(vdup_n_f64(f64(1e300)), vdup_n_f64(f64(1.0000000596046448))))); SHOW("fcvtn2", vcvt_high_f32_f64(vget_low_f32(g), e));
}

PROGRAM(neon_intrinsics) {
  UNUSED_ARGS;
  seed = argc - 2; /* the differential test runs "corpus neon_intrinsics": argc is 2 */
  integer_lanes();
  saturating_and_shifts();
  narrow_widen_long();
  reductions_and_permutes();
  floating_lanes();
  conversions();
  return 0;
}
