#include "corpus.h"
static uint32_t crc32(const uint8_t* p, size_t n) {
  uint32_t c = 0xffffffff;
  for (size_t i = 0; i < n; ++i) { c ^= p[i]; for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320 & (0u - (c & 1))); }
  return ~c;
}
static uint64_t fnv1a(const uint8_t* p, size_t n) { uint64_t h = 1469598103934665603ULL; for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ULL; return h; }
static uint32_t murmur_mix(uint32_t h) { h ^= h >> 16; h *= 0x85ebca6b; h ^= h >> 13; h *= 0xc2b2ae35; h ^= h >> 16; return h; }
PROGRAM(hashing) {
  UNUSED_ARGS;
  const char* inputs[] = {"", "a", "abc", "message digest", "The quick brown fox jumps over the lazy dog", "123456789"};
  for (int i = 0; i < 6; ++i) {
    const uint8_t* p = (const uint8_t*)inputs[i]; size_t n = strlen(inputs[i]);
    printf("crc32=%08x fnv=%016llx mix=%08x '%s'\n", crc32(p, n), (unsigned long long)fnv1a(p, n), murmur_mix((uint32_t)n * 2654435761u), inputs[i]);
  }
  return 0;
}
