// A freestanding MIPS32r2 o32 Linux program (no libc): raw system calls, integer arithmetic, a switch that GCC
// compiles to a jump table, string functions and decimal/hex printing of our own. Built with
// mipsel-linux-gnu-gcc -march=mips32r2 -O2 -nostdlib -static; its output under qemu-mipsel is the reference.
// MIPS32r2 interlocks loads, so no load-delay behaviour is involved (the compiler never relies on it).
typedef unsigned int u32;
typedef int s32;
typedef unsigned long long u64;

static long raw_syscall3(long number, long a0, long a1, long a2) {
  register long v0 __asm__("$2") = number;
  register long r4 __asm__("$4") = a0;
  register long r5 __asm__("$5") = a1;
  register long r6 __asm__("$6") = a2;
  register long r7 __asm__("$7");
  __asm__ volatile("syscall" : "+r"(v0), "=r"(r7) : "r"(r4), "r"(r5), "r"(r6)
                   : "$1", "$3", "$8", "$9", "$10", "$11", "$12", "$13", "$14", "$15", "$24", "$25", "hi", "lo", "memory");
  return r7 ? -v0 : v0;
}
enum { sys_exit = 4001, sys_write = 4004, sys_exit_group = 4246 };

static u32 length_of(const char* s) {
  u32 n = 0;
  while (s[n]) ++n;
  return n;
}
static void write_text(int fd, const char* s) { raw_syscall3(sys_write, fd, (long)s, length_of(s)); }

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
  write_text(1, " 0x");
  write_text(1, format_unsigned(buffer + sizeof buffer, (u32)value, 16));
  write_text(1, "\n");
}

static int compare_text(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return (unsigned char)*a - (unsigned char)*b;
}
static void copy_text(char* to, const char* from) { while ((*to++ = *from++)) {} }
static void reverse_text(char* s) {
  for (u32 i = 0, j = length_of(s); i + 1 < j; ++i, --j) { char t = s[i]; s[i] = s[j - 1]; s[j - 1] = t; }
}

__attribute__((noinline)) static s32 classify(u32 k, s32 x) {
  switch (k) {
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

static volatile s32 inputs[] = {12345, -678, 0x7FFFFFFF, -2147483647 - 1, 40000, 3};

static void arithmetic(void) {
  s32 a = inputs[0], b = inputs[1], big = inputs[2], min = inputs[3], c = inputs[4], d = inputs[5];
  print_number("add ", a + b);
  print_number("sub ", b - a);
  print_number("mul ", a * b);
  print_number("mul wrap ", big * d);
  print_number("div ", a / b);
  print_number("mod ", a % b);
  print_number("udiv ", (s32)((u32)min / (u32)c));
  print_number("shift ", (b >> 3) + (s32)((u32)b >> 28));
  u64 wide = (u64)(u32)a * (u32)c;
  print_number("wide hi ", (s32)(wide >> 32));
  print_number("wide lo ", (s32)wide);
  print_number("byte ", (signed char)(a + b));
  print_number("half ", (short)(a * 7));
  print_number("bits ", (a >> 4 & 0x3F) | (b & 0x3F) << 6);
  print_number("min ", a < b ? a : b);
}

static s32 jump_table(void) {
  s32 total = 0;
  for (u32 k = 0; k < 10; ++k) total += classify(k, inputs[0] + (s32)k);
  print_number("switch ", total);
  return total;
}

static void strings(void) {
  char text[32];
  copy_text(text, "kiln mips32");
  reverse_text(text);
  write_text(1, text);
  write_text(1, "\n");
  print_number("strlen ", (s32)length_of(text));
  print_number("strcmp ", compare_text("abc", "abd"));
  print_number("strcmp eq ", compare_text(text, "23spim nlik"));
  write_text(2, "to stderr\n");
}

/// Called from entered_inside: a recompiled function that code in the fallback interpreter calls.
void report_inside(void) { write_text(1, "inside\n"); }

/// entered_inside(x) = x + 1007; entered one instruction in (through a pointer discovery cannot see), it skips the
/// first ADDIU and returns x + 7. The recompiled program runs that entry in the fallback interpreter, which calls
/// the recompiled report_inside and returns to the caller.
long entered_inside(long x);
__asm__(".text\n.globl entered_inside\n.ent entered_inside\nentered_inside:\n  .set noreorder\n"
        "  addiu $a0, $a0, 1000\n  addiu $sp, $sp, -24\n  sw $ra, 20($sp)\n  sw $a0, 16($sp)\n  jal report_inside\n  nop\n"
        "  lw $v0, 16($sp)\n  lw $ra, 20($sp)\n  addiu $v0, $v0, 7\n  jr $ra\n  addiu $sp, $sp, 24\n  .set reorder\n.end entered_inside\n");

/// argv[1] picks the case (one multi-call program); argv[0] differs between qemu and the native build, so it
/// is not printed. The exit status is part of the comparison.
void __start_c(long* sp) {
  long argc = sp[0];
  char** argv = (char**)(sp + 1);
  char** envp = argv + argc + 1;
  int status = 2;
  const char* which = argc > 1 ? argv[1] : "";
  if (!compare_text(which, "arithmetic")) arithmetic(), status = 0;
  else if (!compare_text(which, "switch")) status = jump_table() & 0x7F;
  else if (!compare_text(which, "strings")) strings(), status = 3;
  else if (!compare_text(which, "inside")) {
    // "inside" has 6 letters: the pointer is entered_inside + 4, computed at run time.
    long (*entry)(long) = (long (*)(long))((char*)entered_inside + 4 * (length_of(which) - 5));
    print_number("entered inside ", (s32)entry(5));
    print_number("entered at the top ", (s32)entered_inside(5));
    status = 0;
  }
  else if (!compare_text(which, "arguments")) {
    print_number("argc ", (s32)argc);
    for (long i = 1; i < argc; ++i) { write_text(1, "arg ["); write_text(1, argv[i]); write_text(1, "]\n"); }
    for (char** e = envp; *e; ++e)
      if (!compare_text(*e, "KILN_CORPUS_VARIABLE=set-for-test")) write_text(1, "environment variable found\n");
    status = 0;
  } else write_text(2, "usage: freestanding arithmetic|switch|strings|inside|arguments [ARGS]\n");
  raw_syscall3(sys_exit_group, status, 0, 0);
  for (;;) {}
}

// The o32 entry: the kernel leaves argc at 0($sp); keep the stack 8-byte aligned and reserve the argument area.
__asm__(".text\n.globl __start\n.ent __start\n__start:\n  .set noreorder\n  move $a0, $sp\n  addiu $sp, $sp, -32\n"
        "  jal __start_c\n  nop\n  .set reorder\n.end __start\n");
