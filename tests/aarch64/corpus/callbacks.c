#include "corpus.h"
static int compare_int(const void* a, const void* b) { int x = *(const int*)a, y = *(const int*)b; return (x > y) - (x < y); }
static int compare_str(const void* a, const void* b) { return strcmp(*(const char* const*)a, *(const char* const*)b); }
PROGRAM(qsort_bsearch) {
  UNUSED_ARGS;
  int values[200];
  uint32_t seed = 12345;
  for (int i = 0; i < 200; ++i) { seed = seed * 1103515245 + 12345; values[i] = (int)(seed >> 8) % 1000 - 500; }
  qsort(values, 200, sizeof(int), compare_int);
  for (int i = 0; i < 200; i += 10) printf("%d ", values[i]);
  printf("\n");
  const char* words[] = {"pear", "apple", "fig", "banana", "kiwi", "cherry", "date", "grape", "lemon", "mango"};
  qsort(words, 10, sizeof(char*), compare_str);
  for (int i = 0; i < 10; ++i) printf("%s ", words[i]);
  printf("\n");
  const char* keys[] = {"fig", "zebra", "apple", "mango", "aaa"};
  for (int i = 0; i < 5; ++i) {
    const char** found = bsearch(&keys[i], words, 10, sizeof(char*), compare_str);
    printf("%s: %ld\n", keys[i], found ? (long)(found - words) : -1L);
  }
  int key = values[37];
  int* hit = bsearch(&key, values, 200, sizeof(int), compare_int);
  printf("found %d\n", hit ? *hit : -9999);
  return 0;
}
