#include <stdio.h>
#include <string.h>
int bench_integer(void);
int bench_floating(void);
int bench_memory(void);
int main(int argc, char** argv) {
  if (argc == 2 && !strcmp(argv[1], "integer")) return bench_integer();
  if (argc == 2 && !strcmp(argv[1], "floating")) return bench_floating();
  if (argc == 2 && !strcmp(argv[1], "memory")) return bench_memory();
  fprintf(stderr, "usage: bench integer|floating|memory\n");
  return 2;
}
