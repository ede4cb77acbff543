#pragma once
// An Xvfb server of the test's own on a free display (Xvfb -displayfd picks it), DISPLAY set to it while the
// object lives; the server is stopped by its process id.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace kiln::test {

class XvfbDisplay {
public:
  XvfbDisplay() {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ == 0) {
      close(fds[0]);
      const std::string fd = std::to_string(fds[1]);
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, 2);
      execlp("Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", "1280x1024x24", "-nolisten", "tcp", nullptr);
      _exit(127);
    }
    close(fds[1]);
    std::string number;
    char c;
    while (read(fds[0], &c, 1) == 1 && c != '\n') number += c;
    close(fds[0]);
    if (number.empty()) throw std::runtime_error("Xvfb did not start (Debian package xvfb)");
    name_ = ":" + number;
    setenv("DISPLAY", name_.c_str(), 1);
  }
  ~XvfbDisplay() {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
    unsetenv("DISPLAY");
  }
  const std::string& name() const { return name_; }

private:
  pid_t pid_ = -1;
  std::string name_;
};

} // namespace kiln::test
