/* Jump tables in the shapes compilers and hand-written code use beyond GCC's usual one, in assembly so each
 * shape is exact: a table base spilled to a stack slot and reloaded (with the index reloaded from another slot,
 * as at -O0), a base copied to another register, a base in a frame slot addressed from x29, absolute 8-byte
 * entries read with a scaled index or from a computed address, and entries relative to the table itself
 * (Clang's form). Entries are bytes, halfwords, words and absolute addresses. Each function returns a value per
 * case and -1 for indices the bounding compare sends to the default. jt_data_pointer's table address is data,
 * which analysis cannot trace: its cases run in the fallback interpreter and continue into compiled code. */
#include "corpus.h"

long jt_spilled_base(long index);   /* byte entries, base and index through stack slots */
long jt_copied_base(long index);    /* halfword entries, base moved to another register */
long jt_frame_slot(long index);     /* absolute entries with a scaled index, base in an x29 slot */
long jt_computed_address(long index); /* absolute entries at table + index * 8 */
long jt_table_relative(long index); /* word entries relative to the table (Clang) */
long jt_data_pointer(long index);   /* byte entries, base read from a pointer in .data: not traceable */

__asm__(
    ".text\n"
    ".p2align 2\n"
    ".globl jt_spilled_base\n.type jt_spilled_base, %function\n"
    "jt_spilled_base:\n"
    "  sub sp, sp, #32\n"
    "  adrp x1, .Ljt_bytes\n"
    "  add x1, x1, :lo12:.Ljt_bytes\n"
    "  str x1, [sp, #16]\n"
    "  str w0, [sp, #12]\n"
    "  mov x1, #7\n"              /* the register no longer holds the base */
    "  ldr w7, [sp, #12]\n"
    "  cmp w7, #4\n"
    "  b.hi .Ljt_bytes_default\n"
    "  ldr x3, [sp, #16]\n"
    "  ldr w6, [sp, #12]\n"
    "  ldrb w4, [x3, w6, uxtw]\n"
    "  adr x5, .Ljt_bytes_0\n"
    "  add x5, x5, w4, sxtb #2\n"
    "  br x5\n"
    ".Ljt_bytes_0: mov x0, #100\n  b .Ljt_bytes_end\n"
    ".Ljt_bytes_1: mov x0, #101\n  b .Ljt_bytes_end\n"
    ".Ljt_bytes_2: mov x0, #102\n  b .Ljt_bytes_end\n"
    ".Ljt_bytes_3: mov x0, #103\n  b .Ljt_bytes_end\n"
    ".Ljt_bytes_4: mov x0, #104\n  b .Ljt_bytes_end\n"
    ".Ljt_bytes_default: mov x0, #-1\n"
    ".Ljt_bytes_end: add sp, sp, #32\n"
    "  ret\n"
    ".size jt_spilled_base, .-jt_spilled_base\n"

    ".p2align 2\n"
    ".globl jt_copied_base\n.type jt_copied_base, %function\n"
    "jt_copied_base:\n"
    "  adrp x9, .Ljt_halves\n"
    "  add x9, x9, :lo12:.Ljt_halves\n"
    "  mov x10, x9\n"
    "  mov x9, #0\n"
    "  cmp w0, #3\n"
    "  b.hi .Ljt_halves_default\n"
    "  ldrh w4, [x10, w0, uxtw #1]\n"
    "  adr x5, .Ljt_halves_0\n"
    "  add x5, x5, w4, uxth #2\n"
    "  br x5\n"
    ".Ljt_halves_0: mov x0, #200\n  ret\n"
    ".Ljt_halves_1: mov x0, #201\n  ret\n"
    ".Ljt_halves_2: mov x0, #202\n  ret\n"
    ".Ljt_halves_3: mov x0, #203\n  ret\n"
    ".Ljt_halves_default: mov x0, #-1\n  ret\n"
    ".size jt_copied_base, .-jt_copied_base\n"

    ".p2align 2\n"
    ".globl jt_frame_slot\n.type jt_frame_slot, %function\n"
    "jt_frame_slot:\n"
    "  stp x29, x30, [sp, #-48]!\n"
    "  mov x29, sp\n"
    "  adrp x1, .Ljt_absolute\n"
    "  add x1, x1, :lo12:.Ljt_absolute\n"
    "  str x1, [x29, #32]\n"
    "  mov x1, #0\n"
    "  cmp x0, #3\n"
    "  b.hi .Ljt_absolute_default\n"
    "  ldr x3, [x29, #32]\n"
    "  ldr x2, [x3, x0, lsl #3]\n"
    "  br x2\n"
    ".Ljt_absolute_0: mov x0, #300\n  b .Ljt_absolute_end\n"
    ".Ljt_absolute_1: mov x0, #301\n  b .Ljt_absolute_end\n"
    ".Ljt_absolute_2: mov x0, #302\n  b .Ljt_absolute_end\n"
    ".Ljt_absolute_3: mov x0, #303\n  b .Ljt_absolute_end\n"
    ".Ljt_absolute_default: mov x0, #-1\n"
    ".Ljt_absolute_end: ldp x29, x30, [sp], #48\n"
    "  ret\n"
    ".size jt_frame_slot, .-jt_frame_slot\n"

    ".p2align 2\n"
    ".globl jt_computed_address\n.type jt_computed_address, %function\n"
    "jt_computed_address:\n"
    "  cmp x0, #4\n"
    "  b.hi .Ljt_computed_default\n"
    "  adrp x1, .Ljt_computed\n"
    "  add x1, x1, :lo12:.Ljt_computed\n"
    "  add x1, x1, x0, lsl #3\n"
    "  ldr x2, [x1]\n"
    "  br x2\n"
    ".Ljt_computed_0: mov x0, #400\n  ret\n"
    ".Ljt_computed_1: mov x0, #401\n  ret\n"
    ".Ljt_computed_2: mov x0, #402\n  ret\n"
    ".Ljt_computed_3: mov x0, #403\n  ret\n"
    ".Ljt_computed_4: mov x0, #404\n  ret\n"
    ".Ljt_computed_default: mov x0, #-1\n  ret\n"
    ".size jt_computed_address, .-jt_computed_address\n"

    ".p2align 2\n"
    ".globl jt_table_relative\n.type jt_table_relative, %function\n"
    "jt_table_relative:\n"
    "  cmp x0, #3\n"
    "  b.hi .Ljt_relative_default\n"
    "  adrp x1, .Ljt_relative\n"
    "  add x1, x1, :lo12:.Ljt_relative\n"
    "  ldrsw x4, [x1, x0, lsl #2]\n"
    "  add x4, x1, x4\n"
    "  br x4\n"
    ".Ljt_relative_0: mov x0, #500\n  ret\n"
    ".Ljt_relative_1: mov x0, #501\n  ret\n"
    ".Ljt_relative_2: mov x0, #502\n  ret\n"
    ".Ljt_relative_3: mov x0, #503\n  ret\n"
    ".Ljt_relative_default: mov x0, #-1\n  ret\n"
    ".size jt_table_relative, .-jt_table_relative\n"

    /* The BR stays unresolved (its table's address is data); each case then jumps back to a tail that the
     * function's compiled code also reaches, so the fallback interpreter must carry on inside compiled code. */
    ".p2align 2\n"
    ".globl jt_data_pointer\n.type jt_data_pointer, %function\n"
    "jt_data_pointer:\n"
    "  stp x29, x30, [sp, #-16]!\n"
    "  mov x29, sp\n"
    "  mov x3, #7\n"
    "  cmp x0, #3\n"
    "  b.hi .Ljt_pointer_tail\n"
    "  adrp x1, jt_pointer_base\n"
    "  ldr x1, [x1, :lo12:jt_pointer_base]\n"
    "  ldrb w4, [x1, x0]\n"
    "  adr x2, .Ljt_pointer_0\n"
    "  add x2, x2, w4, uxtb #2\n"
    "  br x2\n"
    ".Ljt_pointer_0: mov x3, #600\n  b .Ljt_pointer_tail\n"
    ".Ljt_pointer_1: mov x3, #601\n  b .Ljt_pointer_tail\n"
    ".Ljt_pointer_2: mov x3, #602\n  b .Ljt_pointer_tail\n"
    ".Ljt_pointer_3: mov x3, #603\n"
    ".Ljt_pointer_tail: add x0, x3, x0, lsl #16\n"
    "  ldp x29, x30, [sp], #16\n"
    "  ret\n"
    ".size jt_data_pointer, .-jt_data_pointer\n"

    ".section .rodata\n"
    ".Ljt_bytes: .byte (.Ljt_bytes_3 - .Ljt_bytes_0) / 4, (.Ljt_bytes_1 - .Ljt_bytes_0) / 4, (.Ljt_bytes_4 - .Ljt_bytes_0) / 4, 0, "
    "(.Ljt_bytes_2 - .Ljt_bytes_0) / 4\n"
    ".p2align 1\n"
    ".Ljt_halves: .hword (.Ljt_halves_2 - .Ljt_halves_0) / 4, 0, (.Ljt_halves_3 - .Ljt_halves_0) / 4, (.Ljt_halves_1 - .Ljt_halves_0) / 4\n"
    ".p2align 3\n"
    ".Ljt_absolute: .quad .Ljt_absolute_1, .Ljt_absolute_3, .Ljt_absolute_0, .Ljt_absolute_2\n"
    ".Ljt_pointer: .byte (.Ljt_pointer_2 - .Ljt_pointer_0) / 4, 0, (.Ljt_pointer_3 - .Ljt_pointer_0) / 4, "
    "(.Ljt_pointer_1 - .Ljt_pointer_0) / 4\n"
    ".data\n.p2align 3\n"
    "jt_pointer_base: .quad .Ljt_pointer\n"
    ".section .rodata\n"
    ".Ljt_computed: .quad .Ljt_computed_4, .Ljt_computed_2, .Ljt_computed_0, .Ljt_computed_3, .Ljt_computed_1\n"
    ".p2align 2\n"
    ".Ljt_relative: .word .Ljt_relative_3 - .Ljt_relative, .Ljt_relative_0 - .Ljt_relative, .Ljt_relative_2 - .Ljt_relative, "
    ".Ljt_relative_1 - .Ljt_relative\n"
    ".text\n");

PROGRAM(jump_tables) {
  UNUSED_ARGS;
  static long (*const shapes[])(long) = {jt_spilled_base, jt_copied_base, jt_frame_slot, jt_computed_address, jt_table_relative,
                                         jt_data_pointer};
  static const char* const names[] = {"spilled_base", "copied_base", "frame_slot", "computed_address", "table_relative", "data_pointer"};
  for (int s = 0; s < 6; ++s) {
    printf("%-16s", names[s]);
    for (long index = -2; index < 8; ++index) printf(" %ld", shapes[s](index));
    printf("\n");
  }
  /* each shape called directly too, so the calls are not only through the pointer table */
  printf("direct %ld %ld %ld %ld %ld\n", jt_spilled_base(2), jt_copied_base(3), jt_frame_slot(1), jt_computed_address(4), jt_table_relative(0));
  /* the unresolved table in a loop: every call enters the interpreter in the middle of compiled code */
  long sum = 0;
  for (long i = 0; i < 1000; ++i) sum += jt_data_pointer(i % 6);
  printf("data_pointer loop %ld\n", sum);
  return 0;
}
