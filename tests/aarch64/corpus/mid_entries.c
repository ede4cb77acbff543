/* Control entering compiled functions in their middle, at addresses analysis cannot find: each is formed at run
 * time from a function's address plus an offset kept in data. A BLR to a second entry that only such a pointer
 * reaches; a BR of one function into the middle of another; a RET to a return address the callee moved past
 * an instruction of its caller, from compiled code and from code the fallback interpreter runs; a call made by
 * interpreted code whose callee returns past an instruction of it; and longjmp from a function called by
 * interpreted code, 20000 times (each longjmp must unwind, not nest). The me_*_at labels are symbols without a
 * type (not functions), so analysis does not take them for entries; tests/aarch64/mid_entry_discovery.sh reads
 * their addresses to check the discovery log and `kiln discover apply`. */
#include <setjmp.h>

#include "corpus.h"

long me_squares(long n, long start);                       /* start + sum of i*i for i < n; start is 0 from the top */
long me_jump_into(long value, uintptr_t target);           /* value + 100, then BR target with x30 still the caller's */
long me_finish(long value);                                /* (value * value + 7) ^ 0x30 */
long me_caller(long value);                                /* BL me_skip_return, which returns past the doubling */
long me_caller_through(long value, uintptr_t callee);      /* BLR callee, which returns past the doubling */
long me_skip_twice(long value);                            /* value + 1000 + 50, returning past the caller's next instruction */
long me_interpreted_caller(long value);                    /* entered past its first instruction: BL me_skip_return */
long me_calls_longjmp(long value);                         /* entered past its first instruction: me_longjmp_back(value + 1) */

__asm__(
    ".text\n"
    ".p2align 2\n"
    ".globl me_squares\n.type me_squares, %function\n"
    "me_squares:\n"
    "  mov x1, #0\n"
    ".globl me_squares_at\n"
    "me_squares_at:\n"         /* not a branch target: the middle of a block */
    "  mov x2, #0\n"
    "1: cmp x2, x0\n"
    "  b.ge 2f\n"
    "  madd x1, x2, x2, x1\n"
    "  add x2, x2, #1\n"
    "  b 1b\n"
    "2: mov x0, x1\n"
    "  ret\n"
    ".size me_squares, .-me_squares\n"

    ".p2align 2\n"
    ".globl me_jump_into\n.type me_jump_into, %function\n"
    "me_jump_into:\n"
    "  add x0, x0, #100\n"
    "  br x1\n"
    ".size me_jump_into, .-me_jump_into\n"

    ".p2align 2\n"
    ".globl me_finish\n.type me_finish, %function\n"
    "me_finish:\n"
    "  mul x0, x0, x0\n"
    ".globl me_finish_at\n"
    "me_finish_at:\n"
    "  add x0, x0, #7\n"
    "  eor x0, x0, #0x30\n"
    "  ret\n"
    ".size me_finish, .-me_finish\n"

    ".p2align 2\n"
    ".globl me_caller\n.type me_caller, %function\n"
    "me_caller:\n"
    "  stp x29, x30, [sp, #-16]!\n"
    "  mov x29, sp\n"
    "  bl me_skip_return\n"
    "  lsl x0, x0, #1\n"
    ".globl me_caller_at\n"
    "me_caller_at:\n"
    "  add x0, x0, #1\n"
    "  ldp x29, x30, [sp], #16\n"
    "  ret\n"
    ".size me_caller, .-me_caller\n"

    ".p2align 2\n"
    ".type me_skip_return, %function\n"
    "me_skip_return:\n"
    "  add x0, x0, #40\n"
    "  add x30, x30, #4\n"      /* return one instruction past the call's return address */
    "  ret\n"
    ".size me_skip_return, .-me_skip_return\n"

    ".p2align 2\n"
    ".globl me_caller_through\n.type me_caller_through, %function\n"
    "me_caller_through:\n"
    "  stp x29, x30, [sp, #-16]!\n"
    "  mov x29, sp\n"
    "  blr x1\n"
    "  lsl x0, x0, #1\n"
    ".globl me_caller_through_at\n"
    "me_caller_through_at:\n"
    "  add x0, x0, #3\n"
    "  ldp x29, x30, [sp], #16\n"
    "  ret\n"
    ".size me_caller_through, .-me_caller_through\n"

    ".p2align 2\n"
    ".globl me_skip_twice\n.type me_skip_twice, %function\n"
    "me_skip_twice:\n"
    "  add x0, x0, #1000\n"
    ".globl me_skip_twice_at\n"
    "me_skip_twice_at:\n"
    "  add x30, x30, #4\n"
    "  add x0, x0, #50\n"
    "  ret\n"
    ".size me_skip_twice, .-me_skip_twice\n"

    ".p2align 2\n"
    ".globl me_interpreted_caller\n.type me_interpreted_caller, %function\n"
    "me_interpreted_caller:\n"
    "  mov x0, #0\n"
    ".globl me_interpreted_caller_at\n"
    "me_interpreted_caller_at:\n"
    "  stp x29, x30, [sp, #-16]!\n"
    "  mov x29, sp\n"
    "  bl me_skip_return\n"
    "  lsl x0, x0, #1\n"        /* skipped: me_skip_return returns to the add */
    "  add x0, x0, #2\n"
    "  ldp x29, x30, [sp], #16\n"
    "  ret\n"
    ".size me_interpreted_caller, .-me_interpreted_caller\n"

    ".p2align 2\n"
    ".globl me_calls_longjmp\n.type me_calls_longjmp, %function\n"
    "me_calls_longjmp:\n"
    "  mov x0, #0\n"
    ".globl me_calls_longjmp_at\n"
    "me_calls_longjmp_at:\n"
    "  stp x29, x30, [sp, #-16]!\n"
    "  mov x29, sp\n"
    "  add x0, x0, #1\n"
    "  bl me_longjmp_back\n"
    "  ldp x29, x30, [sp], #16\n"
    "  ret\n"
    ".size me_calls_longjmp, .-me_calls_longjmp\n");

/* The distance from a function's start to its me_*_at label, read from data so that no instruction or data word
 * holds the label's address. */
static volatile uintptr_t me_label_offset = 4;

static uintptr_t me_inside(uintptr_t function) { return function + me_label_offset; }

static jmp_buf me_env;

void me_longjmp_back(long value);
void me_longjmp_back(long value) { longjmp(me_env, (int)value); }

PROGRAM(mid_entries) {
  UNUSED_ARGS;
  long (*const squares_at)(long, long) = (long (*)(long, long))me_inside((uintptr_t)me_squares);
  printf("squares: from the top %ld, second entry %ld\n", me_squares(10, 7), squares_at(10, 1000));
  long sum = 0;
  for (long i = 0; i < 2000; ++i) sum += squares_at(i % 50, i);
  printf("squares: second entry in a loop %ld\n", sum);

  printf("jump_into: start %ld, middle %ld\n", me_jump_into(5, (uintptr_t)me_finish), me_jump_into(5, me_inside((uintptr_t)me_finish)));

  printf("caller: %ld %ld\n", me_caller(2), me_caller(-50));
  printf("caller_through: start %ld, middle %ld\n", me_caller_through(5, (uintptr_t)me_skip_twice),
         me_caller_through(5, me_inside((uintptr_t)me_skip_twice)));

  long (*const interpreted_caller_at)(long) = (long (*)(long))me_inside((uintptr_t)me_interpreted_caller);
  printf("interpreted_caller: %ld %ld\n", interpreted_caller_at(7), interpreted_caller_at(-100));

  long (*const calls_longjmp_at)(long) = (long (*)(long))me_inside((uintptr_t)me_calls_longjmp);
  static volatile long jumps_total;
  static volatile long jump_round;
  jumps_total = 0;
  for (jump_round = 0; jump_round < 20000; ++jump_round) {
    const int value = setjmp(me_env);
    if (value == 0) calls_longjmp_at(jump_round);
    else jumps_total += value;
  }
  printf("longjmp from interpreted code: %ld rounds, total %ld\n", (long)jump_round, (long)jumps_total);
  return 0;
}
