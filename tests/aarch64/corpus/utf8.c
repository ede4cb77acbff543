#include "corpus.h"
static int decode(const unsigned char* s, uint32_t* out) {
  int n = 0;
  while (*s) {
    uint32_t c = *s++; int extra = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
    c &= extra == 3 ? 0x07 : extra == 2 ? 0x0f : extra == 1 ? 0x1f : 0x7f;
    while (extra-- && *s) c = (c << 6) | (*s++ & 0x3f);
    out[n++] = c;
  }
  return n;
}
PROGRAM(utf8) {
  UNUSED_ARGS;
  const char* text = "kiln \xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5 \xe6\x97\xa5\xe6\x9c\xac";
  uint32_t cps[64]; int n = decode((const unsigned char*)text, cps);
  for (int i = 0; i < n; ++i) printf("U+%04X ", cps[i]);
  printf("\n%s\n", text);
  return 0;
}
