/* A freestanding hid client (switchbrew "HID services", "HID Shared Memory"): the applet resource's shared
   memory mapped read-only, the Pro Controller (FullKey) and Handheld styles on npads No1 and Handheld, and the
   left stick of the latest state in their lifos. */
#ifndef SAMPLE_SWITCH_PAD_H
#define SAMPLE_SWITCH_PAD_H
#include "nx.h"

typedef struct {
  Service hid;
  Handle resource, memory;
  const volatile uint8_t* shared; /* 0x40000 bytes */
} Pad;

/* `where`: a free, 0x40000-byte, page-aligned range of the address space for the shared memory. */
Result pad_open(Pad* pad, void* where);
/* The left stick of No1's latest state, or Handheld's when No1 has none (Horizon's range: -0x7fff..0x7fff, y
   up); 0, 0 before the first sample. */
void pad_left_stick(const Pad* pad, int32_t* x, int32_t* y);
void pad_close(Pad* pad);
#endif
