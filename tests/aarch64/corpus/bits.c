#include "corpus.h"
static uint32_t reverse32(uint32_t v) { uint32_t r = 0; for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i); return r; }
PROGRAM(bits) {
  UNUSED_ARGS;
  uint64_t v = 0x9e3779b97f4a7c15ULL;
  for (int i = 0; i < 40; ++i) {
    v ^= v << 13; v ^= v >> 7; v ^= v << 17;
    uint32_t w = (uint32_t)v;
    printf("%016llx pop=%d clz=%d ctz=%d clz32=%d rot=%08x rev=%08x bswap=%016llx parity=%d ffs=%d sext=%lld field=%llu\n",
           (unsigned long long)v, __builtin_popcountll(v), v ? __builtin_clzll(v) : 64, v ? __builtin_ctzll(v) : 64,
           w ? __builtin_clz(w) : 32, (w << (i % 32)) | (w >> ((32 - i % 32) % 32)), reverse32(w),
           (unsigned long long)__builtin_bswap64(v), __builtin_parityll(v), __builtin_ffs((int)w),
           (long long)(int16_t)(v >> 7), (unsigned long long)((v >> 11) & 0x3ff));
  }
  return 0;
}
