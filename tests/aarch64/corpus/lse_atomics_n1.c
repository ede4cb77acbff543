/* LSE atomics (ARMv8.1): every LD<op>/SWP/CAS/CASP form by inline assembly, with distinct registers, Rs = Rt,
 * XZR as source and destination (the ST<op> aliases), and signed/unsigned extremes; then C11 atomics that GCC
 * inlines as LSE instructions at -O3 -mcpu=neoverse-n1 (this file's build flags, from its _n1 suffix). */
#include "corpus.h"
#include <stdatomic.h>

typedef uint64_t (*AtomicForm)(void* memory, uint64_t source);

/* LD<op>/SWP Ws|Xs, Wt|Xt, [Xn]: the result register is read back as 64 bits so a W write that does not clear
 * bits 63:32 shows. */
#define LOAD_OP_W(name, insn) \
  static uint64_t name(void* memory, uint64_t source) { \
    uint64_t old; \
    __asm__ volatile(insn " %w[s], %w[t], [%[n]]" : [t] "=&r"(old) : [s] "r"(source), [n] "r"(memory) : "memory"); \
    return old; \
  }
#define LOAD_OP_X(name, insn) \
  static uint64_t name(void* memory, uint64_t source) { \
    uint64_t old; \
    __asm__ volatile(insn " %x[s], %x[t], [%[n]]" : [t] "=&r"(old) : [s] "r"(source), [n] "r"(memory) : "memory"); \
    return old; \
  }
/* CAS Ws|Xs, Wt|Xt, [Xn]: compares with Rs, stores Rt, Rs receives the old value. The compare value and the new
 * value travel as one argument: low half compare, high half new (W, B and H forms); the X form takes `source` as
 * the compare value and its bitwise complement as the new value. */
#define CAS_W(name, insn) \
  static uint64_t name(void* memory, uint64_t source) { \
    uint64_t compare = (uint32_t)source, value = source >> 32; \
    __asm__ volatile(insn " %w[s], %w[t], [%[n]]" : [s] "+&r"(compare) : [t] "r"(value), [n] "r"(memory) : "memory"); \
    return compare; \
  }
#define CAS_X(name, insn) \
  static uint64_t name(void* memory, uint64_t source) { \
    uint64_t compare = source, value = ~source; \
    __asm__ volatile(insn " %x[s], %x[t], [%[n]]" : [s] "+&r"(compare) : [t] "r"(value), [n] "r"(memory) : "memory"); \
    return compare; \
  }

#define ORDERS(MACRO, op, size) \
  MACRO(op##size, #op #size) MACRO(op##a##size, #op "a" #size) MACRO(op##l##size, #op "l" #size) MACRO(op##al##size, #op "al" #size)
#define ORDERS_X(MACRO, op) \
  MACRO(op##_x, #op) MACRO(op##a_x, #op "a") MACRO(op##l_x, #op "l") MACRO(op##al_x, #op "al")

#define ORDERS_W(MACRO, op) \
  MACRO(op##_w, #op) MACRO(op##a_w, #op "a") MACRO(op##l_w, #op "l") MACRO(op##al_w, #op "al")
#define ALL_SIZES(MACRO_W, MACRO_X, op) ORDERS(MACRO_W, op, b) ORDERS(MACRO_W, op, h) ORDERS_W(MACRO_W, op) ORDERS_X(MACRO_X, op)

ALL_SIZES(LOAD_OP_W, LOAD_OP_X, ldadd)
ALL_SIZES(LOAD_OP_W, LOAD_OP_X, ldclr)
ALL_SIZES(LOAD_OP_W, LOAD_OP_X, ldeor)
ALL_SIZES(LOAD_OP_W, LOAD_OP_X, ldset)
ALL_SIZES(LOAD_OP_W, LOAD_OP_X, ldsmax)
ALL_SIZES(LOAD_OP_W, LOAD_OP_X, ldsmin)
ALL_SIZES(LOAD_OP_W, LOAD_OP_X, ldumax)
ALL_SIZES(LOAD_OP_W, LOAD_OP_X, ldumin)
ALL_SIZES(LOAD_OP_W, LOAD_OP_X, swp)
ALL_SIZES(CAS_W, CAS_X, cas)

struct Form {
  const char* name;
  AtomicForm run;
  unsigned bytes;
  int compare_and_swap;
};
#define ENTRY_ORDERS(op, size, bytes, cas) \
  {#op #size, op##size, bytes, cas}, {#op "a" #size, op##a##size, bytes, cas}, {#op "l" #size, op##l##size, bytes, cas}, \
  {#op "al" #size, op##al##size, bytes, cas}
#define ENTRY_ORDERS_SUFFIX(op, suffix, bytes, cas) \
  {#op #suffix, op##suffix, bytes, cas}, {#op "a" #suffix, op##a##suffix, bytes, cas}, {#op "l" #suffix, op##l##suffix, bytes, cas}, \
  {#op "al" #suffix, op##al##suffix, bytes, cas}
#define ENTRIES(op, cas) \
  ENTRY_ORDERS(op, b, 1, cas), ENTRY_ORDERS(op, h, 2, cas), ENTRY_ORDERS_SUFFIX(op, _w, 4, cas), ENTRY_ORDERS_SUFFIX(op, _x, 8, cas)

static const struct Form forms[] = {
    ENTRIES(ldadd, 0), ENTRIES(ldclr, 0), ENTRIES(ldeor, 0), ENTRIES(ldset, 0), ENTRIES(ldsmax, 0),
    ENTRIES(ldsmin, 0), ENTRIES(ldumax, 0), ENTRIES(ldumin, 0), ENTRIES(swp, 0), ENTRIES(cas, 1),
};

/* Memory and source values per size: signed and unsigned extremes, equal values, and mixed bit patterns. */
static const uint64_t edge_values[4][7] = {
    {0x00, 0x01, 0x7f, 0x80, 0xff, 0x5a, 0xa5},
    {0x0000, 0x0001, 0x7fff, 0x8000, 0xffff, 0x1234, 0xedcb},
    {0x00000000, 0x00000001, 0x7fffffff, 0x80000000, 0xffffffff, 0x12345678, 0x9abcdef0},
    {0, 1, 0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffffffffffffull, 0x0123456789abcdefull, 0xfedcba9876543210ull},
};

static unsigned size_index(unsigned bytes) { return bytes == 1 ? 0 : bytes == 2 ? 1 : bytes == 4 ? 2 : 3; }

/* The operand sits at the start of a 16-byte buffer whose other bytes are a guard pattern: a store of the wrong
 * width shows in the second half of the printed buffer. */
static void run_form(const struct Form* form) {
  const uint64_t* values = edge_values[size_index(form->bytes)];
  uint64_t checksum = 0;
  printf("%-9s", form->name);
  for (int m = 0; m < 7; ++m)
    for (int s = 0; s < 7; ++s) {
      uint8_t buffer[16] __attribute__((aligned(16)));
      memset(buffer, 0xc3, sizeof buffer);
      memcpy(buffer, &values[m], form->bytes);
      uint64_t source = values[s];
      if (form->compare_and_swap) {
        /* compare with the memory value itself (m == s succeeds) or another one; the new value is the source */
        source = form->bytes == 8 ? values[s] : (values[s] | ((uint64_t)(uint32_t)~values[s] << 32));
      }
      const uint64_t old = form->run(buffer, source);
      uint64_t low, high;
      memcpy(&low, buffer, 8);
      memcpy(&high, buffer + 8, 8);
      checksum = checksum * 1000003u ^ old ^ (low * 31) ^ (high * 17);
      if ((m == 2 && s == 3) || (m == 3 && s == 4) || (m == 4 && s == 1) || (m == s && m == 5))
        printf(" [%llx,%llx]->%llx:%llx", (unsigned long long)values[m], (unsigned long long)values[s], (unsigned long long)old,
               (unsigned long long)low);
    }
  printf(" sum %016llx\n", (unsigned long long)checksum);
}

/* Rs = Rt: the register is both the operand and the old value's destination. */
#define SAME_REGISTER(name, insn, reg) \
  static uint64_t name(void* memory, uint64_t value) { \
    __asm__ volatile(insn " %" reg "[v], %" reg "[v], [%[n]]" : [v] "+r"(value) : [n] "r"(memory) : "memory"); \
    return value; \
  }
SAME_REGISTER(same_ldadd_w, "ldadd", "w")
SAME_REGISTER(same_ldclral_x, "ldclral", "x")
SAME_REGISTER(same_ldeorl_w, "ldeorl", "w")
SAME_REGISTER(same_ldseta_x, "ldseta", "x")
SAME_REGISTER(same_ldsmaxb, "ldsmaxb", "w")
SAME_REGISTER(same_ldsminh, "ldsminh", "w")
SAME_REGISTER(same_ldumaxal_w, "ldumaxal", "w")
SAME_REGISTER(same_lduminl_x, "lduminl", "x")
SAME_REGISTER(same_swpal_x, "swpal", "x")
SAME_REGISTER(same_swpb, "swpb", "w")
SAME_REGISTER(same_casal_x, "casal", "x")
SAME_REGISTER(same_cash, "cash", "w")

/* XZR as the destination (the ST<op> aliases and LD<op>A with XZR, which has no alias) and as the source. */
#define STORE_ALIAS(name, insn, reg) \
  static uint64_t name(void* memory, uint64_t value) { \
    __asm__ volatile(insn " %" reg "[v], [%[n]]" : : [v] "r"(value), [n] "r"(memory) : "memory"); \
    return 0; \
  }
#define STORE_ALIASES(op) \
  STORE_ALIAS(op##b, #op "b", "w") STORE_ALIAS(op##lb, #op "lb", "w") STORE_ALIAS(op##h, #op "h", "w") STORE_ALIAS(op##lh, #op "lh", "w") \
  STORE_ALIAS(op##_w, #op, "w") STORE_ALIAS(op##l_w, #op "l", "w") STORE_ALIAS(op##_x, #op, "x") STORE_ALIAS(op##l_x, #op "l", "x")
STORE_ALIASES(stadd)
STORE_ALIASES(stclr)
STORE_ALIASES(steor)
STORE_ALIASES(stset)
STORE_ALIASES(stsmax)
STORE_ALIASES(stsmin)
STORE_ALIASES(stumax)
STORE_ALIASES(stumin)
#define XZR_DESTINATION(name, insn, reg, zero) \
  static uint64_t name(void* memory, uint64_t value) { \
    __asm__ volatile(insn " %" reg "[v], " zero ", [%[n]]" : : [v] "r"(value), [n] "r"(memory) : "memory"); \
    return 0; \
  }
XZR_DESTINATION(ldadda_xzr, "ldadda", "x", "xzr")
XZR_DESTINATION(ldeoral_wzr, "ldeoral", "w", "wzr")
XZR_DESTINATION(swp_xzr, "swp", "x", "xzr")
XZR_DESTINATION(swpalh_wzr, "swpalh", "w", "wzr")
XZR_DESTINATION(ldsmaxab_wzr, "ldsmaxab", "w", "wzr")
#define XZR_SOURCE(name, insn, reg, zero) \
  static uint64_t name(void* memory, uint64_t unused) { \
    uint64_t old; \
    (void)unused; \
    __asm__ volatile(insn " " zero ", %" reg "[t], [%[n]]" : [t] "=r"(old) : [n] "r"(memory) : "memory"); \
    return old; \
  }
XZR_SOURCE(swp_from_xzr, "swp", "x", "xzr")
XZR_SOURCE(ldumin_from_wzr, "ldumin", "w", "wzr")
XZR_SOURCE(ldsmaxlh_from_wzr, "ldsmaxlh", "w", "wzr")
XZR_SOURCE(ldset_from_xzr, "ldset", "x", "xzr")

#define SPECIAL_ALIASES(op) \
  {#op "b", op##b, 1, 0}, {#op "lb", op##lb, 1, 0}, {#op "h", op##h, 2, 0}, {#op "lh", op##lh, 2, 0}, {#op "_w", op##_w, 4, 0}, \
  {#op "l_w", op##l_w, 4, 0}, {#op "_x", op##_x, 8, 0}, {#op "l_x", op##l_x, 8, 0}
static const struct Form special_forms[] = {
    {"same_ldadd_w", same_ldadd_w, 4, 0}, {"same_ldclral_x", same_ldclral_x, 8, 0}, {"same_ldeorl_w", same_ldeorl_w, 4, 0},
    {"same_ldseta_x", same_ldseta_x, 8, 0}, {"same_ldsmaxb", same_ldsmaxb, 1, 0}, {"same_ldsminh", same_ldsminh, 2, 0},
    {"same_ldumaxal_w", same_ldumaxal_w, 4, 0}, {"same_lduminl_x", same_lduminl_x, 8, 0}, {"same_swpal_x", same_swpal_x, 8, 0},
    {"same_swpb", same_swpb, 1, 0}, {"same_casal_x", same_casal_x, 8, 0}, {"same_cash", same_cash, 2, 0},
    SPECIAL_ALIASES(stadd), SPECIAL_ALIASES(stclr), SPECIAL_ALIASES(steor), SPECIAL_ALIASES(stset),
    SPECIAL_ALIASES(stsmax), SPECIAL_ALIASES(stsmin), SPECIAL_ALIASES(stumax), SPECIAL_ALIASES(stumin),
    {"ldadda_xzr", ldadda_xzr, 8, 0}, {"ldeoral_wzr", ldeoral_wzr, 4, 0}, {"swp_xzr", swp_xzr, 8, 0},
    {"swpalh_wzr", swpalh_wzr, 2, 0}, {"ldsmaxab_wzr", ldsmaxab_wzr, 1, 0}, {"swp_from_xzr", swp_from_xzr, 8, 0},
    {"ldumin_from_wzr", ldumin_from_wzr, 4, 0}, {"ldsmaxlh_from_wzr", ldsmaxlh_from_wzr, 2, 0},
    {"ldset_from_xzr", ldset_from_xzr, 8, 0},
};

/* CASP Ws, Ws+1, Wt, Wt+1, [Xn] (and X): even/odd register pairs, so the registers are named explicitly; two
 * different pair choices per size. */
#define CASP_FORM(name, insn, reg, s0, s1, t0, t1, n) \
  static void name(void* memory, uint64_t* compare, const uint64_t* value) { \
    register uint64_t compare_low __asm__(s0) = compare[0], compare_high __asm__(s1) = compare[1]; \
    register uint64_t value_low __asm__(t0) = value[0], value_high __asm__(t1) = value[1]; \
    register void* address __asm__(n) = memory; \
    __asm__ volatile(insn " %" reg "[sl], %" reg "[sh], %" reg "[tl], %" reg "[th], [%[a]]" \
                     : [sl] "+r"(compare_low), [sh] "+r"(compare_high) \
                     : [tl] "r"(value_low), [th] "r"(value_high), [a] "r"(address) : "memory"); \
    compare[0] = compare_low; compare[1] = compare_high; \
  }
CASP_FORM(casp_w, "casp", "w", "x4", "x5", "x10", "x11", "x2")
CASP_FORM(caspa_w, "caspa", "w", "x12", "x13", "x0", "x1", "x7")
CASP_FORM(caspl_w, "caspl", "w", "x6", "x7", "x8", "x9", "x3")
CASP_FORM(caspal_w, "caspal", "w", "x14", "x15", "x2", "x3", "x9")
CASP_FORM(casp_x, "casp", "x", "x4", "x5", "x10", "x11", "x2")
CASP_FORM(caspa_x, "caspa", "x", "x12", "x13", "x0", "x1", "x7")
CASP_FORM(caspl_x, "caspl", "x", "x6", "x7", "x8", "x9", "x3")
CASP_FORM(caspal_x, "caspal", "x", "x14", "x15", "x2", "x3", "x9")

typedef void (*PairForm)(void*, uint64_t*, const uint64_t*);
static void run_pair(const char* name, PairForm run, unsigned bytes) {
  static const uint64_t patterns[][2] = {
      {0x0123456789abcdefull, 0xfedcba9876543210ull}, {0xffffffffffffffffull, 0}, {0x8000000000000000ull, 0x7fffffffffffffffull}};
  printf("%-9s", name);
  for (int m = 0; m < 3; ++m)
    for (int c = 0; c < 3; ++c) {
      uint8_t buffer[32] __attribute__((aligned(16)));
      memset(buffer, 0xc3, sizeof buffer);
      uint64_t mask = bytes == 8 ? ~0ull : 0xffffffffull;
      uint64_t stored[2] = {patterns[m][0] & mask, patterns[m][1] & mask};
      for (int k = 0; k < 2; ++k) memcpy(buffer + k * bytes, &stored[k], bytes);
      uint64_t compare[2] = {patterns[c][0] | (bytes == 4 ? 0xabcd000000000000ull : 0), patterns[c][1]};
      const uint64_t value[2] = {~patterns[m][1], patterns[c][0] ^ 0x5555555555555555ull};
      if (bytes == 4) { compare[0] &= mask | 0xabcd000000000000ull; compare[1] &= mask; }
      run(buffer, compare, value);
      uint64_t words[4];
      memcpy(words, buffer, sizeof words);
      printf(" %llx:%llx|%llx:%llx:%llx", (unsigned long long)compare[0], (unsigned long long)compare[1], (unsigned long long)words[0],
             (unsigned long long)words[1], (unsigned long long)words[2]);
    }
  printf("\n");
}

/* C atomics GCC inlines as LSE at this file's flags. */
static _Atomic unsigned char shared_byte = 0xf0;
static _Atomic short shared_half = -2;
static _Atomic int shared_word = 0x7ffffff0;
static _Atomic long shared_long = -5;

__attribute__((noinline)) static void c_atomics(void) {
  for (int i = 0; i < 40; ++i) {
    unsigned char b = atomic_fetch_add(&shared_byte, 7);
    short h = atomic_fetch_sub(&shared_half, 3000);
    int w = atomic_fetch_xor(&shared_word, 0x5a5a5a5a + i);
    long l = atomic_fetch_or(&shared_long, 1L << i);
    if (i % 8 == 0) printf("c %d: %u %d %d %ld\n", i, b, h, w, l);
  }
  printf("and %ld\n", atomic_fetch_and(&shared_long, 0x0f0f0f0f0f0fL));
  printf("xchg %d -> %d\n", atomic_exchange(&shared_word, -1), atomic_load(&shared_word));
  printf("xchg byte %u -> %u\n", atomic_exchange(&shared_byte, 0x81), atomic_load(&shared_byte));
  int expected = -1;
  printf("cas %d", atomic_compare_exchange_strong(&shared_word, &expected, 12345));
  expected = 7;
  printf(" %d expected %d now %d\n", atomic_compare_exchange_strong(&shared_word, &expected, 1), expected, atomic_load(&shared_word));
  short hexp = atomic_load(&shared_half);
  printf("cas half %d", atomic_compare_exchange_weak(&shared_half, &hexp, (short)-32768));
  printf(" now %d\n", atomic_load(&shared_half));
  /* a counter toggled with LDEOR: the loop ends only if the old value comes back right */
  _Atomic unsigned toggle = 0;
  unsigned rounds = 0;
  while (atomic_fetch_xor(&toggle, 3u) != 3u || rounds < 5) ++rounds;
  printf("toggle rounds %u value %u\n", rounds, atomic_load(&toggle));
  /* clear bits (LDCLR from atomic_fetch_and with a complement), unsigned max by CAS loop */
  _Atomic unsigned long bits = ~0ul;
  for (int i = 0; i < 64; i += 5) atomic_fetch_and(&bits, ~(1ul << i));
  printf("bits %lx\n", atomic_load(&bits));
  __atomic_store_n(&shared_long, 42, __ATOMIC_RELEASE);
  printf("release/acquire %ld\n", __atomic_load_n(&shared_long, __ATOMIC_ACQUIRE));
}

PROGRAM(lse_atomics) {
  UNUSED_ARGS;
  for (size_t i = 0; i < sizeof forms / sizeof forms[0]; ++i) run_form(&forms[i]);
  for (size_t i = 0; i < sizeof special_forms / sizeof special_forms[0]; ++i) run_form(&special_forms[i]);
  run_pair("casp_w", casp_w, 4);
  run_pair("caspa_w", caspa_w, 4);
  run_pair("caspl_w", caspl_w, 4);
  run_pair("caspal_w", caspal_w, 4);
  run_pair("casp_x", casp_x, 8);
  run_pair("caspa_x", caspa_x, 8);
  run_pair("caspl_x", caspl_x, 8);
  run_pair("caspal_x", caspal_x, 8);
  c_atomics();
  return 0;
}
