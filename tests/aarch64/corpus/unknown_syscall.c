/* A system call no kernel has: the guest sees ENOSYS, and kiln's report of it goes to kiln's log, not to the
 * guest's stderr, so stderr matches qemu-aarch64's (empty). tests/aarch64/kiln_log.sh checks where it went. */
#define _GNU_SOURCE
#include "corpus.h"
#include <errno.h>
#include <unistd.h>

PROGRAM(unknown_syscall) {
  UNUSED_ARGS;
  errno = 0;
  const long missing = syscall(1999);
  printf("system call 1999 %ld errno %s\n", missing, errno == ENOSYS ? "ENOSYS" : "other");
  fprintf(stderr, "the guest's own line on stderr\n");
  return 0;
}
