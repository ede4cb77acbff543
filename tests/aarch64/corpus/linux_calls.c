/* The Linux calls a static shell utility makes beyond stdio: prctl (names, the common flags), sendfile with and
 * without an offset, fork (clone without CLONE_VM) with wait4/waitpid/waitid and the child's exit status, pipe2. */
#define _GNU_SOURCE
#include "corpus.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/wait.h>
#include <unistd.h>

static void check_prctl(void) {
  char name[32] = "untouched";
  printf("PR_SET_NAME %d\n", prctl(PR_SET_NAME, "corpus-worker", 0, 0, 0));
  printf("PR_GET_NAME %d '%s'\n", prctl(PR_GET_NAME, name, 0, 0, 0), name);
  /* longer than the 16 bytes the kernel keeps: cut to 15 characters */
  printf("PR_SET_NAME long %d\n", prctl(PR_SET_NAME, "a-name-longer-than-fifteen", 0, 0, 0));
  memset(name, 'x', sizeof name);
  printf("PR_GET_NAME %d '%s'\n", prctl(PR_GET_NAME, name, 0, 0, 0), name);
  int signal_number = -1;
  printf("PR_SET_PDEATHSIG %d\n", prctl(PR_SET_PDEATHSIG, 15, 0, 0, 0));
  printf("PR_GET_PDEATHSIG %d %d\n", prctl(PR_GET_PDEATHSIG, &signal_number, 0, 0, 0), signal_number);
  printf("PR_SET_PDEATHSIG 0 %d\n", prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0));
  printf("PR_GET_DUMPABLE %d\n", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
  printf("PR_SET_DUMPABLE 1 %d\n", prctl(PR_SET_DUMPABLE, 1, 0, 0, 0));
  printf("PR_GET_NO_NEW_PRIVS %d\n", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
  printf("PR_GET_KEEPCAPS %d\n", prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0));
  errno = 0;
  const int bad = prctl(0x7fff1234, 0, 0, 0, 0);
  printf("unknown option %d errno %s\n", bad, errno == EINVAL ? "EINVAL" : "other");
  errno = 0;
  const int bad_pointer = prctl(PR_SET_NAME, (char*)8, 0, 0, 0);
  printf("PR_SET_NAME bad pointer %d errno %s\n", bad_pointer, errno == EFAULT ? "EFAULT" : "other");
}

static void check_sendfile(void) {
  char source_path[] = "/tmp/kiln-corpus-sendfile-XXXXXX";
  const int source = mkstemp(source_path);
  const char text[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  if (source < 0 || write(source, text, sizeof text - 1) != (ssize_t)(sizeof text - 1)) { puts("sendfile: setup failed"); return; }
  unlink(source_path);
  int pipe_ends[2];
  printf("pipe2 %d\n", pipe2(pipe_ends, O_CLOEXEC));
  off_t offset = 10;
  /* with an offset: the file position stays, the offset advances */
  printf("sendfile offset %zd", sendfile(pipe_ends[1], source, &offset, 8));
  printf(" offset now %lld position %lld\n", (long long)offset, (long long)lseek(source, 0, SEEK_CUR));
  lseek(source, 30, SEEK_SET);
  /* without one: from the file position, which advances; 100 asked, 6 left */
  printf("sendfile position %zd", sendfile(pipe_ends[1], source, NULL, 100));
  printf(" position now %lld\n", (long long)lseek(source, 0, SEEK_CUR));
  printf("sendfile at end %zd\n", sendfile(pipe_ends[1], source, NULL, 10));
  char received[64] = {0};
  printf("read %zd '%s'\n", read(pipe_ends[0], received, sizeof received - 1), received);
  errno = 0;
  printf("sendfile bad fd %zd errno %s\n", sendfile(pipe_ends[1], 9999, NULL, 4), errno == EBADF ? "EBADF" : "other");
  close(source);
  close(pipe_ends[0]);
  close(pipe_ends[1]);
}

static void check_children(void) {
  fflush(stdout);
  const pid_t first = fork();
  if (first == 0) _exit(3);
  int status = -1;
  struct rusage usage;
  const pid_t reaped = wait4(first, &status, 0, &usage);
  printf("wait4 same child %d exited %d status %d\n", reaped == first, WIFEXITED(status), WEXITSTATUS(status));
  fflush(stdout); /* a child's exit flushes what it inherited */
  const pid_t second = fork();
  if (second == 0) {
    printf("child writes through its own stdio\n");
    exit(42);
  }
  printf("waitpid %d", waitpid(second, &status, 0) == second);
  printf(" exited %d status %d\n", WIFEXITED(status), WEXITSTATUS(status));
  fflush(stdout);
  const pid_t third = fork();
  if (third == 0) _exit(7);
  siginfo_t info;
  memset(&info, 0, sizeof info);
  printf("waitid %d", waitid(P_PID, (id_t)third, &info, WEXITED));
  printf(" pid matches %d code %s status %d\n", info.si_pid == third, info.si_code == CLD_EXITED ? "CLD_EXITED" : "other", info.si_status);
  errno = 0;
  printf("wait without children %d errno %s\n", wait(&status), errno == ECHILD ? "ECHILD" : "other");
  errno = 0;
  printf("waitpid WNOHANG without children %d errno %s\n", waitpid(-1, &status, WNOHANG), errno == ECHILD ? "ECHILD" : "other");
}

PROGRAM(linux_calls) {
  UNUSED_ARGS;
  check_prctl();
  check_sendfile();
  check_children();
  return 0;
}
