#include "corpus.h"
#include <unistd.h>
#include <sys/stat.h>
PROGRAM(file_io) {
  UNUSED_ARGS;
  char path[] = "/tmp/kiln_corpus_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) { printf("mkstemp failed\n"); return 1; }
  FILE* f = fdopen(fd, "w+");
  for (int i = 0; i < 1000; ++i) fprintf(f, "line %d %x\n", i, i * i);
  fflush(f);
  struct stat st; fstat(fd, &st);
  printf("size %lld\n", (long long)st.st_size);
  rewind(f);
  char line[64]; long total = 0; int lines = 0;
  while (fgets(line, sizeof line, f)) { int a; unsigned b; if (sscanf(line, "line %d %x", &a, &b) == 2) total += a + (long)b; ++lines; }
  printf("lines %d total %ld\n", lines, total);
  fseek(f, 100, SEEK_SET);
  int c = fgetc(f);
  printf("at 100: %c tell %ld\n", c, ftell(f));
  fclose(f);
  struct stat st2; printf("stat %d size %lld\n", stat(path, &st2), (long long)st2.st_size);
  printf("unlink %d exists %d\n", unlink(path), access(path, F_OK));
  FILE* missing = fopen("/nonexistent/kiln/file", "r");
  printf("missing %s\n", missing ? "opened?" : "null");
  return 0;
}
