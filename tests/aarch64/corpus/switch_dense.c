#include "corpus.h"
__attribute__((noinline)) static int classify(int v) {
  switch (v) {
  case 0: return 17; case 1: return 3; case 2: return 99; case 3: return -4; case 4: return 12; case 5: return 8;
  case 6: return 41; case 7: return 77; case 8: return -100; case 9: return 6; case 10: return 2; case 11: return 1000;
  case 13: return 5; case 14: return 55; case 15: return 555; case 16: return 9;
  default: return -1;
  }
}
__attribute__((noinline)) static const char* name(unsigned v) {
  switch (v) {
  case 'a': return "alpha"; case 'b': return "bravo"; case 'c': return "charlie"; case 'd': return "delta";
  case 'e': return "echo"; case 'f': return "foxtrot"; case 'g': return "golf"; case 'h': return "hotel";
  case 'i': return "india"; case 'j': return "juliet"; case 'k': return "kilo"; case 'l': return "lima";
  default: return "?";
  }
}
PROGRAM(switch_dense) {
  UNUSED_ARGS;
  int sum = 0;
  for (int i = -3; i < 300; ++i) { int c = classify(i % 20); sum = sum * 7 + c; if (i < 20) printf("%d -> %d\n", i, c); }
  for (unsigned c = 'Z'; c < 'p'; ++c) printf("%c:%s ", c, name(c));
  printf("\nsum %d\n", sum);
  return 0;
}
