#include "corpus.h"
typedef struct { int key; char name[12]; double weight; } Item;
static void merge_sort(Item* a, Item* tmp, int n) {
  if (n < 2) return;
  int h = n / 2; merge_sort(a, tmp, h); merge_sort(a + h, tmp, n - h);
  int i = 0, j = h, k = 0;
  while (i < h && j < n) tmp[k++] = a[i].key <= a[j].key ? a[i++] : a[j++];
  while (i < h) tmp[k++] = a[i++];
  while (j < n) tmp[k++] = a[j++];
  memcpy(a, tmp, sizeof(Item) * (size_t)n);
}
PROGRAM(sorting) {
  UNUSED_ARGS;
  static Item items[5000], tmp[5000];
  uint32_t s = 7;
  for (int i = 0; i < 5000; ++i) { s = s * 69069 + 1; items[i].key = (int)(s % 10007); snprintf(items[i].name, sizeof items[i].name, "n%d", i); items[i].weight = i * 0.5; }
  merge_sort(items, tmp, 5000);
  for (int i = 0; i < 5000; i += 500) printf("%d %s %.1f\n", items[i].key, items[i].name, items[i].weight);
  int sorted = 1; for (int i = 1; i < 5000; ++i) sorted &= items[i - 1].key <= items[i].key;
  printf("sorted %d\n", sorted);
  return 0;
}
