/* games/sample-gamecube: a bare-metal GameCube program of our own (no SDK). Each part prints one line through the
   EXI UART (the IPL device's route OSReport takes); tests/gamecube/platform compares the lines with values worked
   out by hand (tests/gamecube/platform/sample_expected.txt says how). Register layouts: YAGCD chapter 5. */
#include <stdint.h>

typedef volatile uint32_t reg32;
typedef volatile uint16_t reg16;
#define REG32(a) (*(reg32*)(a))
#define REG16(a) (*(reg16*)(a))

/* PI, VI, SI, EXI, DSP, DI at their uncached addresses. */
#define PI_INTSR REG32(0xCC003000)
#define PI_INTMR REG32(0xCC003004)
#define PI_FIFO_BASE REG32(0xCC00300C)
#define PI_FIFO_END REG32(0xCC003010)
#define PI_FIFO_WP REG32(0xCC003014)
#define PI_RESET REG32(0xCC003024)
#define VI_VCOUNT REG16(0xCC00202C)
#define VI_DI0 REG32(0xCC002030)
#define SI_IN_HIGH(c) REG32(0xCC006404 + 12 * (c))
#define SI_IN_LOW(c) REG32(0xCC006408 + 12 * (c))
#define SI_COMCSR REG32(0xCC006434)
#define SI_IO REG32(0xCC006480)
#define EXI_CSR(c) REG32(0xCC006800 + 0x14 * (c))
#define EXI_CR(c) REG32(0xCC00680C + 0x14 * (c))
#define EXI_DATA(c) REG32(0xCC006810 + 0x14 * (c))
#define DSP_CSR REG16(0xCC00500A)
#define AR_DMA_MMADDR REG32(0xCC005020)
#define AR_DMA_ARADDR REG32(0xCC005024)
#define AR_DMA_CNT REG32(0xCC005028)
#define DI_SR REG32(0xCC006000)
#define DI_CMD(n) REG32(0xCC006008 + 4 * (n))
#define DI_MAR REG32(0xCC006014)
#define DI_LENGTH REG32(0xCC006018)
#define DI_CR REG32(0xCC00601C)
#define GATHER_PIPE 0xCC008000u

#define PHYSICAL(p) ((uint32_t)(p) & 0x01FFFFFFu)
#define UNCACHED(p) (0xC0000000u | PHYSICAL(p))

/* ---- output: EXI channel 0, device 1 (the IPL/RTC/SRAM chip), UART command 0xA0010000 ---- */
static void exi_wait(void) {
  while (EXI_CR(0) & 1) {
  }
}
static void uart_write(const char* s) {
  EXI_CSR(0) = (2u << 7) | (3u << 4); /* select device 1, 8 MHz */
  EXI_DATA(0) = 0xA0010000u;
  EXI_CR(0) = (3u << 4) | (1u << 2) | 1u; /* 4 bytes, write, start */
  exi_wait();
  for (; *s; ++s) {
    EXI_DATA(0) = (uint32_t)(uint8_t)*s << 24;
    EXI_CR(0) = (0u << 4) | (1u << 2) | 1u; /* 1 byte */
    exi_wait();
  }
  EXI_CSR(0) = 0;
}
static void put_hex(uint32_t v) {
  char text[11] = "0x";
  for (int i = 0; i < 8; ++i) text[2 + i] = "0123456789abcdef"[(v >> (28 - 4 * i)) & 15];
  text[10] = 0;
  uart_write(text);
}
static void put_dec(int32_t v) {
  char text[12];
  int n = 11;
  text[n] = 0;
  uint32_t u = v < 0 ? (uint32_t)-v : (uint32_t)v;
  do text[--n] = (char)('0' + u % 10); while (u /= 10);
  if (v < 0) text[--n] = '-';
  uart_write(text + n);
}
static void line_hex(const char* name, uint32_t v) {
  uart_write(name);
  uart_write(": ");
  put_hex(v);
  uart_write("\n");
}
static void line_dec(const char* name, int32_t v) {
  uart_write(name);
  uart_write(": ");
  put_dec(v);
  uart_write("\n");
}
static uint32_t float_bits(float f) {
  union { float f; uint32_t u; } x = {f};
  return x.u;
}

/* ---- exceptions: crt0.S's entry calls on_exception with the saved registers ---- */
struct exception_frame {
  uint32_t r0, r3, r4_to_r12[9], lr, cr, ctr, xer, srr0, srr1;
};
static volatile int decrementer_count, external_count, vi_count, system_call_count;
static volatile uint32_t decrementer_srr1, external_cause, vi_line_seen, system_call_srr0;

void on_exception(uint32_t vector, struct exception_frame* frame);
void on_exception(uint32_t vector, struct exception_frame* frame) {
  if (vector == 0x900) {
    ++decrementer_count;
    decrementer_srr1 = frame->srr1;
    __asm__ volatile("mtdec %0" : : "r"(0x7FFFFFFF)); /* no second one */
  } else if (vector == 0x500) {
    ++external_count;
    const uint32_t cause = PI_INTSR;
    external_cause = cause;
    if (cause & 0x100) { /* VI: acknowledge DI0 */
      vi_line_seen = VI_VCOUNT;
      VI_DI0 = VI_DI0 & ~0x80000000u;
      ++vi_count;
    }
  } else if (vector == 0xC00) {
    ++system_call_count;
    system_call_srr0 = frame->srr0;
    frame->r3 += 1; /* the call's result: its argument plus one */
  }
}

/* Plain stores may move past the volatile register writes that start a DMA: sync, as a cache flush would. */
static void memory_barrier(void) { __asm__ volatile("sync" : : : "memory"); }

static uint32_t mftb(void) {
  uint32_t t;
  __asm__ volatile("mftb %0" : "=r"(t));
  return t;
}
static void interrupts(int on) {
  uint32_t msr;
  __asm__ volatile("mfmsr %0" : "=r"(msr));
  msr = on ? (msr | 0x8000u) : (msr & ~0x8000u);
  __asm__ volatile("mtmsr %0" : : "r"(msr));
}

float ps_dot2(const float a[2], const float b[2]);
void ps_quantize(const unsigned char in[2], short out[2]);
void ps_merge_swap(const float in[2], float out[2]);

static void fpu_part(void) {
  volatile double two = 2.0;
  double x = two;
  for (int i = 0; i < 5; ++i) x = 0.5 * (x + two / x); /* Newton's method for sqrt(2) */
  union { double d; uint64_t u; } bits = {x};
  line_hex("fpu sqrt2 high", (uint32_t)(bits.u >> 32));
  line_hex("fpu sqrt2 low", (uint32_t)bits.u);
  volatile float one = 1.0f, three = 3.0f;
  line_hex("fpu one third", float_bits(one / three));
  volatile double negative = -2.75;
  line_dec("fpu truncate -2.75", (int32_t)negative);
}

static void paired_part(void) {
  static const float a[2] __attribute__((aligned(8))) = {1.5f, -2.0f}, b[2] __attribute__((aligned(8))) = {4.0f, 0.25f};
  line_hex("ps dot", float_bits(ps_dot2(a, b)));
  static const unsigned char in[2] = {200, 6};
  short out[2];
  ps_quantize(in, out);
  line_dec("ps quantized 0", out[0]);
  line_dec("ps quantized 1", out[1]);
  float swapped[2] __attribute__((aligned(8)));
  ps_merge_swap(a, swapped);
  line_hex("ps merge10 0", float_bits(swapped[0]));
  line_hex("ps merge10 1", float_bits(swapped[1]));
}

static void pad_part(void) {
  line_hex("pad 0 high", SI_IN_HIGH(0));
  line_hex("pad 0 low", SI_IN_LOW(0));
  SI_IO = 0x00000000u; /* command 0x00: the device type */
  SI_COMCSR = (1u << 16) | (3u << 8) | (0u << 1) | 1u; /* out 1 byte, in 3 bytes, channel 0, start */
  while (SI_COMCSR & 1u) {
  }
  line_hex("pad 0 type", SI_IO >> 8);
  line_hex("pad 1 high", SI_IN_HIGH(1));
}

static void decrementer_part(void) {
  interrupts(1);
  const uint32_t start = mftb();
  __asm__ volatile("mtdec %0" : : "r"(2000));
  while (decrementer_count == 0 && mftb() - start < 10000000u) {
  }
  const uint32_t elapsed = mftb() - start;
  interrupts(0);
  line_dec("decrementer interrupts", decrementer_count);
  line_dec("decrementer after 2000 ticks", elapsed >= 2000);
  line_hex("decrementer srr1 ee", decrementer_srr1 & 0x8000u);
}

static void vi_part(void) {
  VI_DI0 = (1u << 28) | (200u << 16) | 1u; /* enabled, line 200, pixel 1 */
  PI_INTMR = 0x100u;                       /* VI */
  interrupts(1);
  for (int polls = 0; vi_count == 0 && polls < 10000000; ++polls) (void)VI_VCOUNT;
  interrupts(0);
  PI_INTMR = 0;
  line_dec("vi interrupts", vi_count);
  line_hex("vi cause", external_cause);
  line_dec("vi line", (int32_t)vi_line_seen);
}

static void system_call_part(void) {
  register uint32_t r3 __asm__("r3") = 41;
  uint32_t after;
  __asm__ volatile("sc\n1:\n\tlis %1, 1b@ha\n\taddi %1, %1, 1b@l" : "+r"(r3), "=b"(after) : : "memory");
  line_dec("sc result", (int32_t)r3);
  line_dec("sc calls", system_call_count);
  line_dec("sc srr0 is the next instruction", system_call_srr0 == after);
}

static uint8_t gx_fifo[4096] __attribute__((aligned(32)));

static void gather_pipe_part(void) {
  PI_FIFO_BASE = PHYSICAL(gx_fifo);
  PI_FIFO_END = PHYSICAL(gx_fifo) + sizeof gx_fifo;
  PI_FIFO_WP = PHYSICAL(gx_fifo);
  __asm__ volatile("mtspr 921, %0" : : "r"(0x0C008000u)); /* WPAR */
  volatile uint8_t* u8 = (volatile uint8_t*)GATHER_PIPE;
  volatile uint16_t* u16 = (volatile uint16_t*)GATHER_PIPE;
  volatile uint32_t* u32 = (volatile uint32_t*)GATHER_PIPE;
  volatile float* f32 = (volatile float*)GATHER_PIPE;
  *u8 = 0x61; *u32 = 0x00000010u;              /* BP: GEN_MODE */
  *u8 = 0x08; *u8 = 0x50; *u32 = 0x00000200u; /* CP: VCD low, position direct */
  *u8 = 0x10; *u32 = 0x00001008u; *u32 = 0x00000100u; /* XF: one value at 0x1008 */
  *u8 = 0x90; *u16 = 3;                       /* triangles, VAT 0, 3 vertices */
  static const float vertices[9] = {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f};
  for (int i = 0; i < 9; ++i) *f32 = vertices[i];
  for (int i = 0; i < 5; ++i) *u8 = 0x00; /* NOPs to the burst's end */
  line_hex("gx fifo bytes", PI_FIFO_WP - PHYSICAL(gx_fifo));
  line_hex("gx fifo first word", REG32(UNCACHED(gx_fifo)));
}

static uint32_t locked_cache_copy[8] __attribute__((aligned(32)));

static void locked_cache_part(void) {
  volatile uint32_t* cache = (volatile uint32_t*)0xE0000000u;
  __asm__ volatile("dcbz_l 0, %0" : : "r"(cache) : "memory");
  for (int i = 0; i < 8; ++i) cache[i] = 0x01010101u * (uint32_t)(i + 1);
  /* DMA_U: memory address, length high 0; DMA_L: cache address, store (LD 0), length low 1 block, trigger. */
  __asm__ volatile("mtspr 922, %0" : : "r"(PHYSICAL(locked_cache_copy)));
  __asm__ volatile("mtspr 923, %0" : : "r"(0xE0000000u | (1u << 2) | 2u));
  uint32_t lower;
  do __asm__ volatile("mfspr %0, 923" : "=r"(lower)); while (lower & 2u);
  line_hex("locked cache dma word 7", ((volatile uint32_t*)locked_cache_copy)[7]);
}

static uint32_t aram_out[8] __attribute__((aligned(32))), aram_back[8] __attribute__((aligned(32)));

static void aram_part(void) {
  for (int i = 0; i < 8; ++i) aram_out[i] = 0xA0000000u + (uint32_t)i;
  memory_barrier();
  AR_DMA_MMADDR = PHYSICAL(aram_out);
  AR_DMA_ARADDR = 0x4000;
  AR_DMA_CNT = 32; /* MEM1 to ARAM */
  DSP_CSR = (uint16_t)(DSP_CSR | 0x20); /* acknowledge ARINT */
  AR_DMA_MMADDR = PHYSICAL(aram_back);
  AR_DMA_ARADDR = 0x4000;
  AR_DMA_CNT = 0x80000000u | 32; /* ARAM to MEM1 */
  memory_barrier();
  line_hex("aram dma interrupt", DSP_CSR & 0x20u);
  line_hex("aram dma word 5", ((volatile uint32_t*)aram_back)[5]);
}

static uint8_t disc_header[32] __attribute__((aligned(32)));

static void disc_part(void) {
  DI_CMD(0) = 0xA8000000u; /* read */
  DI_CMD(1) = 0;           /* from offset 0 (in words) */
  DI_CMD(2) = sizeof disc_header;
  DI_MAR = PHYSICAL(disc_header);
  DI_LENGTH = sizeof disc_header;
  DI_CR = 3; /* DMA, start */
  while (DI_CR & 1) {
  }
  const uint32_t status = DI_SR;
  if (status & 4u) {
    uart_write("disc: no disc\n");
    DI_SR = 4u;
    return;
  }
  char id[7];
  for (int i = 0; i < 6; ++i) id[i] = (char)((volatile uint8_t*)disc_header)[i];
  id[6] = 0;
  uart_write("disc id: ");
  uart_write(id);
  uart_write("\n");
}

static void low_memory_part(void) {
  line_hex("boot magic", REG32(0x80000020));
  line_hex("memory size", REG32(0x80000028));
  line_hex("bus clock", REG32(0x800000F8));
  line_hex("core clock", REG32(0x800000FC));
}

int main(void) {
  uart_write("sample-gamecube\n");
  low_memory_part();
  fpu_part();
  paired_part();
  pad_part();
  decrementer_part();
  vi_part();
  system_call_part();
  gather_pipe_part();
  locked_cache_part();
  aram_part();
  disc_part();
  uart_write("done\n");
  PI_RESET = 0; /* ends the run */
  return 0;
}
