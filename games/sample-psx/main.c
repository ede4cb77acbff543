/* kiln's PS1 sample: prints through the BIOS, projects a triangle with the GTE, and draws a few frames with the
   GPU through DMA (an ordering table cleared by OTC, sent as a linked list), plus a texture upload through GP0.
   It plays a tone on SPU voice 0 (sound RAM written by DMA4) and moves a square with the pad on port 1, read
   through SIO0. tests/psx derives the expected output, pixels and sound by hand from what this file asks for. */
#include <stdint.h>

typedef volatile uint32_t reg32;
#define IO(offset) (*(reg32*)(0x1F801000u + (offset)))
#define I_STAT IO(0x070)
#define I_MASK IO(0x074)
#define DPCR IO(0x0F0)
#define DMA_MADR(ch) IO(0x080 + 0x10 * (ch))
#define DMA_BCR(ch) IO(0x084 + 0x10 * (ch))
#define DMA_CHCR(ch) IO(0x088 + 0x10 * (ch))
#define GP0 IO(0x810)
#define GP1 IO(0x814)
#define GPUSTAT IO(0x814)
#define JOY_DATA (*(volatile uint8_t*)0x1F801040u)
#define JOY_STAT (*(volatile uint16_t*)0x1F801044u)
#define JOY_MODE (*(volatile uint16_t*)0x1F801048u)
#define JOY_CTRL (*(volatile uint16_t*)0x1F80104Au)
#define JOY_BAUD (*(volatile uint16_t*)0x1F80104Eu)
#define SPU(offset) (*(volatile uint16_t*)(0x1F801C00u + (offset)))
#define SPU_VOICE(v, offset) SPU(0x10 * (v) + (offset))
#define SPUCNT SPU(0x1AA)

int bios_strlen(const char*);
void* bios_memset(void*, int, unsigned);
void* bios_memcpy(void*, const void*, unsigned);
void bios_init_heap(void*, unsigned);
void* bios_malloc(unsigned);
void bios_free(void*);
int bios_printf(const char*, ...);
void bios_puts(const char*);
void bios_set_default_exit_from_exception(void);
uint32_t bios_open_event(uint32_t event_class, uint32_t spec, uint32_t mode, void (*handler)(void));
int bios_enable_event(uint32_t event);
int enter_critical_section(void);
void exit_critical_section(void);
void gte_setup(int h, int ofx, int ofy);
uint32_t gte_project(int x, int y, int z, uint32_t* sz_flag);

#define OT_LENGTH 8
static uint32_t ordering_table[OT_LENGTH];
static uint32_t heap[1024];

/* A primitive in the ordering table: its tag word, then its GP0 words. */
static void add_primitive(uint32_t* packet, unsigned words, unsigned depth) {
  packet[0] = (words << 24) | (ordering_table[depth] & 0x00FFFFFFu);
  ordering_table[depth] = (uint32_t)packet & 0x00FFFFFFu;
}

static void wait_gpu_ready(void) {
  while (!(GPUSTAT & (1u << 26))) {
  }
}

static void wait_vblank(void) {
  while (!(I_STAT & 1)) {
  }
  I_STAT = ~1u;
}

/* Run by the BIOS at each VBLANK (an event with mode 1000h); reached only through its address. */
static volatile int vblank_callbacks;
static void on_vblank(void) { vblank_callbacks = vblank_callbacks + 1; }

/* The tone: one period of a coarse sine in 14 nibbles, twice per 28-sample block; block A (shift 2, filter 0)
   has the loop-start flag, block B the loop-end and repeat flags, so the voice plays A B A B ... */
static const uint8_t sine14[14] = {0, 3, 5, 7, 7, 5, 3, 0, 0xD, 0xB, 9, 9, 0xB, 0xD};
static uint32_t tone_blocks[8];

static void make_tone_blocks(void) {
  uint8_t* b = (uint8_t*)tone_blocks;
  for (int blk = 0; blk < 2; ++blk) {
    uint8_t* block = b + 16 * blk;
    block[0] = 0x02;
    block[1] = blk == 0 ? 0x04 : 0x03;
    for (int i = 0; i < 28; i += 2) block[2 + i / 2] = (uint8_t)(sine14[i % 14] | sine14[(i + 1) % 14] << 4);
  }
}

/* Sound RAM at 1000h by DMA4 (psx-spx "SPU RAM DMA-Write"), then voice 0: pitch 800h (22050 Hz: a 1575 Hz
   tone), attack linear shift 8, decay shift 6 to sustain level 10, sustain steady, release exponential shift 6. */
static void start_tone(void) {
  make_tone_blocks();
  SPUCNT = 0xC000; /* on, unmuted, transfers stopped */
  SPU(0x1AC) = 0x0004;
  SPU(0x1A6) = 0x1000 / 8;
  SPUCNT = 0xC020; /* DMA write */
  DMA_MADR(4) = (uint32_t)tone_blocks;
  DMA_BCR(4) = (1u << 16) | 8; /* one block of 8 words */
  DMA_CHCR(4) = 0x01000201;
  while (DMA_CHCR(4) & 0x01000000) {
  }
  SPUCNT = 0xC000;
  SPU(0x180) = 0x3FFF; /* main volume */
  SPU(0x182) = 0x3FFF;
  SPU_VOICE(0, 0x0) = 0x3FFF;
  SPU_VOICE(0, 0x2) = 0x3FFF;
  SPU_VOICE(0, 0x4) = 0x0800;
  SPU_VOICE(0, 0x6) = 0x1000 / 8;
  SPU_VOICE(0, 0x8) = (8 << 10) | (6 << 4) | 10;
  SPU_VOICE(0, 0xA) = (0x1F << 8) | (3 << 6) | 0x20 | 6;
  SPU(0x188) = 1; /* key on */
}

/* One byte to the pad and its reply; *acked says whether the pad pulled /ACK (it wants another byte). The waits
   are bounded, as a driver's must be: with no pad there is no /ACK at all. */
static uint8_t pad_byte(uint8_t out, int* acked) {
  JOY_DATA = out;
  for (int i = 0; i < 2000 && !(JOY_STAT & 0x2); ++i) {
  }
  const uint8_t in = JOY_DATA;
  *acked = 0;
  for (int i = 0; i < 100 && !*acked; ++i) *acked = (JOY_STAT & 0x200) != 0;
  if (*acked) {
    JOY_CTRL = 0x1013; /* acknowledge the /ACK interrupt */
    I_STAT = ~0x80u;
  }
  return in;
}

/* The buttons of the pad on port 1 (psx-spx "Communication Sequence": 01h 42h 00h 00h 00h), active low;
   FFFFh when nothing answers (pad_connected tells the two apart). */
static int pad_connected;
static uint16_t read_pad(void) {
  static const uint8_t command[5] = {0x01, 0x42, 0x00, 0x00, 0x00};
  uint8_t reply[5] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  JOY_CTRL = 0x1003; /* TX enable, /CS low on port 1, /ACK interrupt enable */
  for (int i = 0; i < 5; ++i) {
    int acked;
    reply[i] = pad_byte(command[i], &acked);
    if (!acked) break;
  }
  JOY_CTRL = 0;
  pad_connected = reply[1] == 0x41 && reply[2] == 0x5A;
  return pad_connected ? (uint16_t)(reply[3] | reply[4] << 8) : 0xFFFF;
}

static uint32_t xy(int x, int y) { return ((uint32_t)(y & 0xFFFF) << 16) | (uint32_t)(x & 0xFFFF); }

/* Seven cases that each do something different: GCC compiles this to a jump table (JR through a table of
   addresses), which the recompiler resolves into a switch of gotos. */
static __attribute__((noinline)) void print_shape(int kind, int n) {
  switch (kind) {
    case 0: bios_printf("flat:%d", n); break;
    case 1: bios_printf("gouraud:%x", n * 3); break;
    case 2: bios_puts("textured"); break;
    case 3: bios_printf("semi:%d", n - 10); break;
    case 4: bios_printf("rect:%c", 'a' + n); break;
    case 5: bios_printf("line:%d", n * n); break;
    case 6: bios_puts("polyline"); break;
    default: bios_printf("unknown:%d", kind); break;
  }
  bios_puts(kind == 7 ? "\n" : " ");
}

int main(void) {
  bios_printf("kiln psx sample\n");
  bios_set_default_exit_from_exception();
  const int was_enabled = enter_critical_section();
  exit_critical_section();
  bios_printf("critical section: %d\n", was_enabled);

  const char* name = "GTE";
  bios_printf("strlen(\"%s\") = %d, hex %08x, padded [%5d] [%-4s]\n", name, bios_strlen(name), 0xC0FFEEu, -42, "ab");
  bios_init_heap(heap, sizeof heap);
  uint32_t* packets = bios_malloc(64 * 4);
  uint32_t* scratch = bios_malloc(16);
  bios_printf("heap: %s\n", packets && scratch && scratch > packets ? "ok" : "broken");
  bios_free(scratch);

  /* GTE: identity camera, H = 256, screen centre (160, 120); z = 512 halves every coordinate. */
  gte_setup(256, 160, 120);
  static const int vertices[3][3] = {{-64, -64, 512}, {64, -64, 512}, {-64, 64, 512}};
  uint32_t screen[3];
  for (int i = 0; i < 3; ++i) {
    uint32_t sz_flag[2];
    screen[i] = gte_project(vertices[i][0], vertices[i][1], vertices[i][2], sz_flag);
    bios_printf("rtps %d: sx=%d sy=%d sz=%u flag=%08x\n", i, (int16_t)(screen[i] & 0xFFFF), (int16_t)(screen[i] >> 16),
                sz_flag[0], sz_flag[1]);
  }
  for (int kind = 0; kind < 8; ++kind) print_shape(kind, kind + 5);

  /* GPU: reset, 320x240 15-bit NTSC display at VRAM (0,0), drawing area the same, DMA from the CPU. */
  GP1 = 0x00000000;
  GP1 = 0x08000001;                   /* 320 wide, 240 lines */
  GP1 = 0x05000000;                   /* display start (0,0) */
  GP1 = 0x06000000 | (0xC60 << 12) | 0x260; /* horizontal range: 320 pixels of 8 clocks */
  GP1 = 0x07000000 | (0x100 << 10) | 0x010; /* vertical range: 240 lines */
  GP1 = 0x03000000;                   /* display on */
  GP1 = 0x04000002;                   /* DMA direction: CPU to GP0 */
  wait_gpu_ready();
  GP0 = 0xE1000400;                   /* draw to the display area, no dithering, semi-transparency B/2+F/2 */
  GP0 = 0xE3000000;                   /* drawing area (0,0) ... */
  GP0 = 0xE4000000 | (239 << 10) | 319; /* ... (319,239) */
  GP0 = 0xE5000000;                   /* offset (0,0) */
  GP0 = 0xE6000000;                   /* no mask */

  /* A 4x4 15-bit texture at VRAM (512,0): texel (u,v) = red u*8+1, green v*8+1, blue 16. */
  GP0 = 0xA0000000;
  GP0 = xy(512, 0);
  GP0 = xy(4, 4);
  for (int v = 0; v < 4; ++v)
    for (int u = 0; u < 4; u += 2) {
      const uint32_t t0 = (uint32_t)(u * 8 + 1) | (uint32_t)(v * 8 + 1) << 5 | 16u << 10;
      const uint32_t t1 = (uint32_t)((u + 1) * 8 + 1) | (uint32_t)(v * 8 + 1) << 5 | 16u << 10;
      GP0 = t0 | t1 << 16;
    }

  bios_enable_event(bios_open_event(0xF2000003u, 2, 0x1000, on_vblank)); /* root counter 3 = VBLANK */
  DPCR |= (8u << 8) | (8u << 16) | (8u << 24); /* enable channels 2 (GPU), 4 (SPU) and 6 (OTC) */
  I_MASK = 1;
  start_tone();
  JOY_MODE = 0x000D; /* 8 bits, baud factor 1 */
  JOY_BAUD = 0x0088; /* the kernel's ~250 kHz */
  int square_x = 280, square_y = 200;
  /* Three frames, then the end; but a controller that answers and holds nothing at frame 2 is a person at a
     window (the scripted pad of the tests holds buttons then): the sample goes on until Start, the d-pad moving
     the square (kept on screen) and Cross playing the tone again while held. */
  int playing = 0;
  uint16_t previous_buttons = 0xFFFF;
  for (int frame = 0; frame < 3 || playing; ++frame) {
    if (frame == 2) SPU(0x18C) = 1; /* key off: the tone fades out during the last frame */
    const uint16_t buttons = read_pad();
    if (frame == 2) playing = pad_connected && buttons == 0xFFFF;
    if (playing && !(buttons & 0x0008)) break; /* start */
    if (playing && (buttons ^ previous_buttons) & 0x4000) SPU(buttons & 0x4000 ? 0x18C : 0x188) = 1; /* cross */
    previous_buttons = buttons;
    if (!(buttons & 0x0020)) square_x += 4; /* right */
    if (!(buttons & 0x0080)) square_x -= 4; /* left */
    if (!(buttons & 0x0040)) square_y += 4; /* down */
    if (!(buttons & 0x0010)) square_y -= 4; /* up */
    square_x = square_x < 0 ? 0 : square_x > 312 ? 312 : square_x;
    square_y = square_y < 0 ? 0 : square_y > 232 ? 232 : square_y;
    const int green_x = 16 + 8 * (frame < 2 ? frame : 2);
    DMA_MADR(6) = (uint32_t)&ordering_table[OT_LENGTH - 1];
    DMA_BCR(6) = OT_LENGTH;
    DMA_CHCR(6) = 0x11000002;
    while (DMA_CHCR(6) & 0x01000000) {
    }
    uint32_t* p = packets;
    /* Depth 7 is sent first: the background fill. */
    p[1] = 0x02200000;                 /* fill, dark blue (0,0,32) */
    p[2] = xy(0, 0);
    p[3] = xy(320, 240);
    add_primitive(p, 3, 7);
    p += 4;
    /* Depth 6: green rectangle 32x32 at (16 + 8 * frame, 16), where frame 2 left it after that. */
    p[1] = 0x6000F800 | 0;             /* variable-size flat rectangle, green 248 */
    p[2] = xy(green_x, 16);
    p[3] = xy(32, 32);
    add_primitive(p, 3, 6);
    p += 4;
    /* Depth 5: the GTE-projected flat triangle, red. */
    p[1] = 0x200000F8;
    p[2] = screen[0];
    p[3] = screen[1];
    p[4] = screen[2];
    add_primitive(p, 4, 5);
    p += 5;
    /* Depth 4: Gouraud quad (200,16)-(264,48): red 0 on the left, 128 on the right. */
    p[1] = 0x38000000 | 0x000000;      /* shaded quad, vertex 0 colour */
    p[2] = xy(200, 16);
    p[3] = 0x00000080;                 /* vertex 1 colour: red 128 */
    p[4] = xy(264, 16);
    p[5] = 0x00000000;
    p[6] = xy(200, 48);
    p[7] = 0x00000080;
    p[8] = xy(264, 48);
    add_primitive(p, 8, 4);
    p += 9;
    /* Depth 3: the texture as a raw 16x16 sprite at (40, 200): texpage (512,0) 15-bit via E1 first. */
    p[1] = 0xE1000400 | 8 | (2 << 7);  /* texpage x = 8*64 = 512, 15-bit */
    p[2] = 0x7D000000;                 /* 16x16 textured sprite, raw */
    p[3] = xy(40, 200);
    p[4] = 0x00000000;                 /* u = 0, v = 0, CLUT unused */
    add_primitive(p, 4, 3);
    p += 5;
    /* Depth 2: semi-transparent white rectangle over the left half of the green one (B/2 + F/2). */
    p[1] = 0xE1000400;                 /* back to texpage 0, mode B/2+F/2 */
    p[2] = 0x62F8F8F8;
    p[3] = xy(green_x, 16);
    p[4] = xy(16, 32);
    add_primitive(p, 4, 2);
    p += 5;
    /* Depth 1: the pad's square, 8x8 yellow, where the d-pad moved it. */
    p[1] = 0x7000F8F8;                 /* 8x8 flat rectangle (70h), yellow (248,248,0) */
    p[2] = xy(square_x, square_y);
    add_primitive(p, 2, 1);

    wait_gpu_ready();
    DMA_MADR(2) = (uint32_t)&ordering_table[OT_LENGTH - 1];
    DMA_BCR(2) = 0;
    DMA_CHCR(2) = 0x01000401;
    while (DMA_CHCR(2) & 0x01000000) {
    }
    wait_vblank();
    if (frame < 3) bios_printf("frame %d drawn, pad %04x\n", frame, buttons);
  }
  bios_printf("vblank callbacks: %d\n", vblank_callbacks);
  bios_free(packets);
  bios_puts("done\n");
  return 7;
}
