#include "corpus.h"
typedef struct { double x, y; } Vec2;
typedef struct { int a; char b; long c; float d; short e[3]; } Mixed;
typedef struct { long v[8]; } Big;
static Vec2 add(Vec2 a, Vec2 b) { Vec2 r = {a.x + b.x, a.y + b.y}; return r; }
static Mixed tweak(Mixed m) { m.a *= 2; m.b++; m.c -= 5; m.d *= 1.5f; m.e[1] = 99; return m; }
static Big fill(long seed) { Big b; for (int i = 0; i < 8; ++i) b.v[i] = seed * (i + 1); return b; }
PROGRAM(structs) {
  UNUSED_ARGS;
  Vec2 v = {1.5, -2.0}; for (int i = 0; i < 5; ++i) v = add(v, (Vec2){0.25 * i, 1.0});
  printf("%.2f %.2f\n", v.x, v.y);
  Mixed m = {3, 'x', 100, 2.0f, {1, 2, 3}}; m = tweak(m);
  printf("%d %c %ld %.2f %d %d %d\n", m.a, m.b, m.c, m.d, m.e[0], m.e[1], m.e[2]);
  Big b = fill(7); long s = 0; for (int i = 0; i < 8; ++i) s += b.v[i];
  printf("%ld\n", s);
  return 0;
}
