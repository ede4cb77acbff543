// A freestanding ppc32 Linux program (no libc): raw system calls (sc: number in r0, arguments in r3-r5, CR0[SO]
// set on error), a switch GCC compiles to a jump table, and a function entered in its middle through a pointer
// computed at run time, which the recompiled program runs in the fallback interpreter. Built with
// powerpc-linux-gnu-gcc -mcpu=750 -O2 -nostdlib -static; its output under qemu-ppc is the reference.
typedef unsigned int u32;
typedef int s32;

static long raw_syscall3(long number, long a0, long a1, long a2) {
  register long r0 __asm__("r0") = number;
  register long r3 __asm__("r3") = a0;
  register long r4 __asm__("r4") = a1;
  register long r5 __asm__("r5") = a2;
  __asm__ volatile("sc\n\tbns+ 1f\n\tneg %1, %1\n1:"
                   : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5)
                   :
                   : "r6", "r7", "r8", "r9", "r10", "r11", "r12", "cr0", "ctr", "memory");
  return r3;
}
enum { sys_exit = 1, sys_write = 4, sys_exit_group = 234 };

static u32 length_of(const char* s) {
  u32 n = 0;
  while (s[n]) ++n;
  return n;
}
static void write_text(int fd, const char* s) { raw_syscall3(sys_write, fd, (long)s, length_of(s)); }
static int compare_text(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return (unsigned char)*a - (unsigned char)*b;
}
static char* format_unsigned(char* end, u32 value, u32 base) {
  *--end = 0;
  do {
    *--end = "0123456789abcdef"[value % base];
    value /= base;
  } while (value);
  return end;
}
static void print_number(const char* label, s32 value) {
  char buffer[16];
  write_text(1, label);
  if (value < 0) write_text(1, "-");
  write_text(1, format_unsigned(buffer + sizeof buffer, value < 0 ? 0u - (u32)value : (u32)value, 10));
  write_text(1, "\n");
}

static __attribute__((noinline)) s32 select_case(s32 which, s32 x) {
  switch (which) {
    case 0: return x + 1;
    case 1: return x * 3;
    case 2: return x - 7;
    case 3: return x ^ 0x55;
    case 4: return x << 2;
    case 5: return x >> 1;
    case 6: return -x;
    case 7: return x & 0xF0;
    default: return 0;
  }
}

/// Called from entered_inside: a recompiled function that code in the fallback interpreter calls.
void report_inside(void) { write_text(1, "inside\n"); }

/// entered_inside(x) = x + 1007; entered one instruction in, it skips the first addi and returns x + 7.
long entered_inside(long x);
__asm__(".text\n.globl entered_inside\n.type entered_inside,@function\nentered_inside:\n"
        "  addi 3,3,1000\n  stwu 1,-16(1)\n  mflr 0\n  stw 0,20(1)\n  stw 3,8(1)\n  bl report_inside\n"
        "  lwz 3,8(1)\n  lwz 0,20(1)\n  mtlr 0\n  addi 3,3,7\n  addi 1,1,16\n  blr\n");

/// argv[1] picks the case; the exit status is part of the comparison.
void start_c(long* sp) {
  long argc = sp[0];
  char** argv = (char**)(sp + 1);
  const char* which = argc > 1 ? argv[1] : "";
  int status = 2;
  if (!compare_text(which, "switch")) {
    s32 total = 0;
    for (s32 i = 0; i < 9; ++i) {
      const s32 v = select_case(i, 100 + i);
      print_number("case ", v);
      total += v;
    }
    status = total & 0x7F;
  } else if (!compare_text(which, "inside")) {
    // "inside" has 6 letters: the pointer is entered_inside + 4, computed at run time.
    long (*entry)(long) = (long (*)(long))((char*)entered_inside + 4 * (length_of(which) - 5));
    print_number("entered inside ", (s32)entry(5));
    print_number("entered at the top ", (s32)entered_inside(5));
    status = 0;
  } else if (!compare_text(which, "unknown")) {
    // An unknown system call fails with ENOSYS (38) and CR0[SO] set.
    print_number("unknown system call ", (s32)raw_syscall3(4095, 0, 0, 0));
    status = 0;
  } else {
    write_text(2, "usage: freestanding switch|inside|unknown\n");
  }
  raw_syscall3(sys_exit_group, status, 0, 0);
  for (;;) {}
}

// The entry: the kernel leaves argc at 0(r1); keep a 16-byte aligned frame with a back chain of 0.
__asm__(".text\n.globl _start\n.type _start,@function\n_start:\n  mr 3,1\n  clrrwi 1,1,4\n  li 0,0\n  stwu 0,-16(1)\n"
        "  bl start_c\n");
