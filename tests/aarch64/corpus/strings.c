#include "corpus.h"
PROGRAM(string_functions) {
  UNUSED_ARGS;
  static char buffer[512], other[512];
  uint32_t h = 0;
  for (int offset = 0; offset < 16; ++offset)
    for (int length = 0; length < 100; length += 7) {
      char* s = buffer + offset;
      for (int i = 0; i < length; ++i) s[i] = (char)('a' + (i * 7 + offset) % 26);
      s[length] = 0;
      strcpy(other + (offset * 3) % 16, s);
      const char* o = other + (offset * 3) % 16;
      h = h * 31 + (uint32_t)strlen(s) + (uint32_t)(strcmp(s, o) == 0) * 7;
      const char* c = strchr(s, 'q');
      const char* r = strrchr(s, 'e');
      h = h * 31 + (c ? (uint32_t)(c - s) : 999u) + (r ? (uint32_t)(r - s) : 555u);
      h = h * 31 + (uint32_t)(strncmp(s, "hov", 3) > 0) + (uint32_t)strnlen(s, 40);
      if (length > 5) { const char* f = strstr(s, s + length / 2); h = h * 31 + (uint32_t)(f - s); }
    }
  printf("hash %08x\n", h);
  char text[] = "the quick brown fox jumps over the lazy dog";
  char* save; int words = 0;
  for (char* t = strtok_r(text, " ", &save); t; t = strtok_r(NULL, " ", &save)) { printf("%s/", t); ++words; }
  printf(" %d words, spn=%zu cspn=%zu\n", words, strspn("aaabbbccc", "ab"), strcspn("hello world", "ow"));
  char dup[64]; snprintf(dup, sizeof dup, "%s-%s", "left", "right");
  printf("%s %d %d\n", dup, strcasecmp("HeLLo", "hello"), memcmp("abc", "abd", 3) < 0);
  return 0;
}
