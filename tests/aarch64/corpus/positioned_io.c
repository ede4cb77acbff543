#define _FILE_OFFSET_BITS 64 /* a 64-bit off_t on 32-bit targets too: pread64, pwrite64, ftruncate64 */
#include "corpus.h"
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
/* pread/pwrite and ftruncate at offsets past 4 GiB: on 32-bit ABIs the offset travels in a register pair. The file
 * is sparse, so only a few blocks are written. */
PROGRAM(positioned_io) {
  UNUSED_ARGS;
  char path[] = "/tmp/kiln_corpus_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) { printf("mkstemp failed\n"); return 1; }
  const off_t offsets[] = {0, 4093, (off_t)1 << 32, ((off_t)5 << 30) + 77};
  for (int i = 0; i < 4; ++i) {
    char text[32];
    int n = snprintf(text, sizeof text, "record %d", i);
    printf("pwrite %d: %zd\n", i, pwrite(fd, text, (size_t)n, offsets[i]));
  }
  struct stat st;
  fstat(fd, &st);
  printf("size %lld\n", (long long)st.st_size);
  for (int i = 3; i >= 0; --i) {
    char back[32] = {0};
    ssize_t got = pread(fd, back, 8, offsets[i]);
    printf("pread %d: %zd '%s'\n", i, got, back);
  }
  char beyond[4];
  printf("pread past the end: %zd\n", pread(fd, beyond, sizeof beyond, ((off_t)6 << 30)));
  printf("tell after positioned calls %lld\n", (long long)lseek(fd, 0, SEEK_CUR));
  printf("ftruncate %d\n", ftruncate(fd, ((off_t)1 << 32) + 3));
  fstat(fd, &st);
  printf("size after ftruncate %lld\n", (long long)st.st_size);
  char tail[8] = {0};
  printf("pread at the new end: %zd '%s'\n", pread(fd, tail, 7, (off_t)1 << 32), tail);
  printf("pread on a bad descriptor: %zd\n", pread(-1, tail, 1, 0));
  close(fd);
  unlink(path);
  return 0;
}
