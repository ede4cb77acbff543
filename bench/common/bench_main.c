/* The entry of the recompiler benchmarks (bench/aarch64, bench/ppc32): `bench NAME` runs one benchmark. Those a
   build leaves out (the single-precision one outside bench/ppc32) are weak and absent. */
#include <stdio.h>
#include <string.h>
int bench_integer(void);
int bench_floating(void);
int bench_memory(void);
int bench_single(void) __attribute__((weak));
int main(int argc, char** argv) {
  const struct { const char* name; int (*run)(void); } benchmarks[] = {
      {"integer", bench_integer}, {"floating", bench_floating}, {"memory", bench_memory}, {"single", bench_single}};
  for (unsigned i = 0; argc == 2 && i < sizeof benchmarks / sizeof benchmarks[0]; ++i)
    if (benchmarks[i].run && !strcmp(argv[1], benchmarks[i].name)) return benchmarks[i].run();
  fprintf(stderr, "usage: bench integer|floating|memory%s\n", bench_single ? "|single" : "");
  return 2;
}
