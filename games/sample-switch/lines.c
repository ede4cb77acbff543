#include "lines.h"

#include <stdint.h>

typedef struct {
  char text[96];
  int length;
} Line;

static void put(Line* l, const char* s) {
  while (*s && l->length < 95) l->text[l->length++] = *s++;
  l->text[l->length] = 0;
}
static void put_number(Line* l, uint64_t v) {
  char digits[24];
  int n = 0;
  do digits[n++] = (char)('0' + v % 10); while ((v /= 10) != 0);
  while (n && l->length < 95) l->text[l->length++] = digits[--n];
  l->text[l->length] = 0;
}

static uint64_t fibonacci(unsigned n) {
  uint64_t a = 0, b = 1;
  while (n--) {
    const uint64_t t = a + b;
    a = b;
    b = t;
  }
  return a;
}

static unsigned collatz_steps(uint64_t v) {
  unsigned steps = 0;
  while (v != 1) {
    v = (v & 1) ? 3 * v + 1 : v / 2;
    ++steps;
  }
  return steps;
}

void sample_lines(void (*emit)(const char* line)) {
  Line l = {{0}, 0};
  put(&l, "fibonacci(50) = ");
  put_number(&l, fibonacci(50));
  emit(l.text);
  l.length = 0;
  put(&l, "collatz steps from 27 = ");
  put_number(&l, collatz_steps(27));
  emit(l.text);
  l.length = 0;
  uint32_t hash = 2166136261u; /* FNV-1a of the first 1000 squares */
  for (uint32_t i = 0; i < 1000; ++i) {
    const uint32_t square = i * i;
    for (int b = 0; b < 4; ++b) hash = (hash ^ ((square >> (8 * b)) & 0xff)) * 16777619u;
  }
  put(&l, "fnv1a of 1000 squares = ");
  put_number(&l, hash);
  emit(l.text);
}
