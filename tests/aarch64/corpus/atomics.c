#include "corpus.h"
#include <stdatomic.h>
PROGRAM(atomics) {
  UNUSED_ARGS;
  _Atomic int counter = 0; _Atomic long wide = 5; _Atomic unsigned char byte = 250;
  for (int i = 0; i < 1000; ++i) atomic_fetch_add(&counter, i);
  int expected = 499500;
  int ok = atomic_compare_exchange_strong(&counter, &expected, 7);
  printf("counter %d ok %d\n", atomic_load(&counter), ok);
  expected = 1; ok = atomic_compare_exchange_strong(&counter, &expected, 9);
  printf("counter %d ok %d expected %d\n", atomic_load(&counter), ok, expected);
  printf("xchg %ld -> %ld\n", atomic_exchange(&wide, 77L), atomic_load(&wide));
  printf("or %ld and %ld xor %ld sub %ld\n", atomic_fetch_or(&wide, 0x100L), atomic_fetch_and(&wide, 0x1ffL), atomic_fetch_xor(&wide, 3L), atomic_fetch_sub(&wide, 1L));
  for (int i = 0; i < 10; ++i) atomic_fetch_add(&byte, 1);
  printf("byte %u wide %ld\n", atomic_load(&byte), atomic_load(&wide));
  atomic_flag flag = ATOMIC_FLAG_INIT;
  printf("flag %d %d\n", atomic_flag_test_and_set(&flag), atomic_flag_test_and_set(&flag));
  atomic_thread_fence(memory_order_seq_cst);
  return 0;
}
