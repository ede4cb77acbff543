#include "kiln_host.h"

#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int kh_open(struct kiln_host *host) {
  memset(host, 0, sizeof *host);
  host->fd = open(KILN_HOST_DEVICE, O_RDWR);
  if (host->fd < 0) return -1;
  if (ioctl(host->fd, KILN_HOST_INFO, &host->info) != 0 || host->info.version != KILN_HOST_VERSION) {
    close(host->fd);
    memset(host, 0, sizeof *host);
    host->fd = -1;
    return -1;
  }
  return 0;
}

struct kiln_host_pad kh_pad(const struct kiln_host *host) {
  struct kiln_host_pad pad;
  memset(&pad, 0, sizeof pad);
  if (host->fd >= 0 && read(host->fd, &pad, sizeof pad) != (ssize_t)sizeof pad) memset(&pad, 0, sizeof pad);
  return pad;
}

int kh_present(const struct kiln_host *host, const void *pixels, uint32_t width, uint32_t height, uint32_t pitch) {
  if (host->fd < 0) return 0;
  struct kiln_host_frame frame = {(uint64_t)(uintptr_t)pixels, width, height, pitch, KILN_HOST_FORMAT_RGBA8};
  return ioctl(host->fd, KILN_HOST_PRESENT, &frame) == 1;
}
