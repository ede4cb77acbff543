/* The kiln host device (/dev/kiln-host, runtime/platform/linux-user/kiln_host_abi.h) for the sample titles:
 * the run's settings, the pad, and presenting a finished frame. Under qemu or on L4T there is no such device
 * and kh_open fails quietly: the titles then run as they always did (frames to PNG files only). */
#ifndef KILN_HOST_H
#define KILN_HOST_H

#include "kiln_host_abi.h"

struct kiln_host {
  int fd;                     /* -1 without the device */
  struct kiln_host_info info; /* zero without the device */
};

int kh_open(struct kiln_host *host);
/* The pad now (all released without the device). */
struct kiln_host_pad kh_pad(const struct kiln_host *host);
/* Presents a pitch-linear RGBA8 frame at `pixels`; 1 when the title should stop, 0 to go on (and without the
 * device). */
int kh_present(const struct kiln_host *host, const void *pixels, uint32_t width, uint32_t height, uint32_t pitch);

#endif
