#include "corpus.h"
#include <inttypes.h>
PROGRAM(printf_ints) {
  UNUSED_ARGS;
  long long v[] = {0, 1, -1, 42, -42, 2147483647, -2147483648LL, 9223372036854775807LL, 255, 65535};
  for (unsigned i = 0; i < sizeof v / sizeof v[0]; ++i)
    printf("|%d|%5d|%-5d|%05d|%+d|%u|%x|%X|%#x|%o|%#o|%lld|%llu|%llx|%hhd|%hd|%zu|%" PRId64 "|%c|\n", (int)v[i], (int)v[i], (int)v[i],
           (int)v[i], (int)v[i], (unsigned)v[i], (unsigned)v[i], (unsigned)v[i], (unsigned)v[i], (unsigned)v[i], (unsigned)v[i],
           v[i], (unsigned long long)v[i], (unsigned long long)v[i], (char)v[i], (short)v[i], (size_t)v[i], (int64_t)v[i], 'A' + (int)(i % 26));
  printf("|%s|%10s|%-10s|%.3s|%p|%%|\n", "abc", "right", "left", "truncate", (void*)0x1234);
  printf("|%*d|%-*d|%.*d|\n", 8, 7, 8, 7, 5, 7);
  return 0;
}
