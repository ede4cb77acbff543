/* The kiln host device of recompiled linux-user programs, /dev/kiln-host: a C header the guest sources include
 * too (games/common/kiln_host.c), so the layout has one home. A program opens the device, asks for the run's
 * settings (KILN_HOST_INFO), reads the pad (read() of struct kiln_host_pad) and hands each finished frame to the
 * host (KILN_HOST_PRESENT), which shows it in the window or captures it and returns at the next vertical blank.
 * Layouts are the same for AArch64 and x86-64 (naturally aligned fixed-width fields). */
#ifndef KILN_HOST_ABI_H
#define KILN_HOST_ABI_H

#include <linux/ioctl.h>
#include <stdint.h>

#define KILN_HOST_DEVICE "/dev/kiln-host"
#define KILN_HOST_VERSION 1

enum { KILN_HOST_WINDOW = 1 }; /* kiln_host_info.flags: shown in a window (--window) */

struct kiln_host_info {
  uint32_t version; /* KILN_HOST_VERSION */
  uint32_t flags;
  uint32_t frames;  /* --frames N, or 0 when the run did not say */
  uint32_t reserved;
};

/* The pad: buttons as runtime/host/pad_state.h numbers them (bit 0 south, 1 east, 2 west, 3 north, 4..7 d-pad
 * up, down, left, right, 8 start, 9 select, 10/11 shoulders, 12/13 triggers, 14/15 stick clicks); axes left x,
 * left y, right x, right y in -32768..32767. */
struct kiln_host_pad {
  uint32_t buttons;
  int16_t axes[4];
  uint32_t reserved;
};

enum { KILN_HOST_FORMAT_RGBA8 = 0 };
struct kiln_host_frame {
  uint64_t address; /* guest address of the top row */
  uint32_t width, height, pitch, format;
};

#define KILN_HOST_INFO _IOR('k', 1, struct kiln_host_info)
/* Returns 0 to go on, 1 when the title should stop (window closed, --frames reached). */
#define KILN_HOST_PRESENT _IOW('k', 2, struct kiln_host_frame)

#endif
