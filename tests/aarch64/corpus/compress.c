#include "corpus.h"
/* LZ77-style compression with a hash of 3-byte prefixes, then decompression and verification. */
static size_t compress(const uint8_t* in, size_t n, uint8_t* out) {
  static int32_t head[4096];
  memset(head, -1, sizeof head);
  size_t o = 0, i = 0;
  while (i < n) {
    size_t best_len = 0, best_dist = 0;
    if (i + 3 <= n) {
      unsigned h = ((in[i] << 8) ^ (in[i + 1] << 4) ^ in[i + 2]) & 4095;
      int32_t cand = head[h];
      head[h] = (int32_t)i;
      if (cand >= 0 && i - (size_t)cand < 65535) {
        size_t l = 0;
        while (i + l < n && l < 255 && in[cand + l] == in[i + l]) ++l;
        if (l >= 4) { best_len = l; best_dist = i - (size_t)cand; }
      }
    }
    if (best_len) { out[o++] = 0xff; out[o++] = (uint8_t)best_len; out[o++] = (uint8_t)(best_dist >> 8); out[o++] = (uint8_t)best_dist; i += best_len; }
    else { if (in[i] == 0xff) out[o++] = 0xff, out[o++] = 0; else out[o++] = in[i]; ++i; }
  }
  return o;
}
static size_t decompress(const uint8_t* in, size_t n, uint8_t* out) {
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    if (in[i] != 0xff) { out[o++] = in[i++]; continue; }
    if (in[i + 1] == 0) { out[o++] = 0xff; i += 2; continue; }
    size_t len = in[i + 1], dist = ((size_t)in[i + 2] << 8) | in[i + 3];
    for (size_t k = 0; k < len; ++k, ++o) out[o] = out[o - dist];
    i += 4;
  }
  return o;
}
PROGRAM(compress) {
  UNUSED_ARGS;
  static uint8_t text[100000], packed[200000], unpacked[100000];
  const char* words[] = {"kiln ", "recompiles ", "aarch64 ", "code ", "into ", "native ", "c++ ", "\xff", "fast "};
  size_t n = 0; uint32_t s = 1;
  while (n < sizeof text - 16) { s = s * 1664525 + 1013904223; const char* w = words[(s >> 24) % 9]; size_t l = strlen(w); memcpy(text + n, w, l); n += l; }
  size_t c = compress(text, n, packed);
  size_t d = decompress(packed, c, unpacked);
  printf("in %zu packed %zu out %zu equal %d\n", n, c, d, d == n && memcmp(text, unpacked, n) == 0);
  return 0;
}
