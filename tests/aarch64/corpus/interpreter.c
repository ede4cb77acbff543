#include "corpus.h"
enum { PUSH, ADD, SUB, MUL, DUP, SWAP, JNZ, DEC, PRINT, HALT, OVER, DROP, MOD };
PROGRAM(interpreter) {
  UNUSED_ARGS;
  /* counts down from 20, printing n*n mod 7 and accumulating */
  static const long code[] = {PUSH, 0, PUSH, 20, DUP, DUP, MUL, PUSH, 7, MOD, PRINT, SWAP, OVER, ADD, SWAP, DEC, DUP, JNZ, 4, DROP, PRINT, HALT};
  long stack[64]; int sp = 0; long pc = 0; long steps = 0;
  for (;;) {
    ++steps;
    switch (code[pc++]) {
    case PUSH: stack[sp++] = code[pc++]; break;
    case ADD: sp--; stack[sp - 1] += stack[sp]; break;
    case SUB: sp--; stack[sp - 1] -= stack[sp]; break;
    case MUL: sp--; stack[sp - 1] *= stack[sp]; break;
    case MOD: sp--; stack[sp - 1] %= stack[sp]; break;
    case DUP: stack[sp] = stack[sp - 1]; sp++; break;
    case OVER: stack[sp] = stack[sp - 2]; sp++; break;
    case DROP: sp--; break;
    case SWAP: { long t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t; break; }
    case JNZ: { long target = code[pc++]; if (stack[--sp]) pc = target; break; }
    case DEC: stack[sp - 1]--; break;
    case PRINT: printf("%ld\n", stack[--sp]); break;
    case HALT: printf("steps %ld\n", steps); return 0;
    default: printf("bad opcode\n"); return 1;
    }
  }
}
