/* kiln's AArch64 sample title: a small program of our own that exercises what a recompiled title does
 * (integer and floating-point math, a jump-table switch, callbacks through qsort, string formatting, heap
 * allocation and file I/O), so `./dev sample` can recompile it and compare the native run with qemu-aarch64. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char name[16];
  int score;
  double accuracy;
} Player;

static int by_score_descending(const void* a, const void* b) {
  const Player* pa = a;
  const Player* pb = b;
  return pb->score - pa->score;
}

static const char* rank_name(int rank) {
  switch (rank) { /* dense enough for GCC to emit a jump table */
  case 0: return "champion";
  case 1: return "runner-up";
  case 2: return "bronze";
  case 3: return "finalist";
  case 4: return "semifinalist";
  case 5: return "quarterfinalist";
  case 6: return "contender";
  default: return "participant";
  }
}

static uint32_t next_random(uint32_t* state) { /* xorshift32: deterministic on every host */
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

int main(int argc, char** argv) {
  const int count = argc > 1 ? atoi(argv[1]) : 8;
  Player* players = calloc((size_t)count, sizeof(Player));
  if (!players) return 1;
  uint32_t seed = 2026;
  for (int i = 0; i < count; ++i) {
    snprintf(players[i].name, sizeof players[i].name, "player-%02d", i);
    players[i].score = (int)(next_random(&seed) % 1000);
    players[i].accuracy = sqrt((double)(next_random(&seed) % 10000)) / 100.0;
  }
  qsort(players, (size_t)count, sizeof(Player), by_score_descending);

  double total = 0;
  for (int i = 0; i < count; ++i) {
    printf("%-10s %4d %8.5f %s\n", players[i].name, players[i].score, players[i].accuracy, rank_name(i));
    total += players[i].accuracy * players[i].score;
  }
  printf("weighted accuracy: %.6e\n", total / count);

  const char* path = "sample-scores.txt";
  FILE* file = fopen(path, "w");
  if (!file) return 2;
  for (int i = 0; i < count; ++i) fprintf(file, "%s=%d\n", players[i].name, players[i].score);
  fclose(file);
  file = fopen(path, "r");
  char line[64];
  unsigned checksum = 0;
  while (file && fgets(line, sizeof line, file)) {
    for (size_t k = 0; k < strlen(line); ++k) checksum = checksum * 31u + (unsigned char)line[k];
  }
  if (file) fclose(file);
  remove(path);
  printf("scores file checksum: %08x\n", checksum);
  free(players);
  return 0;
}
