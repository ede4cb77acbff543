// The C++ a porter adds to the test title (porter/kiln.toml): a hook that branches past scale()'s shift, one
// that returns from compute() early, one after offset()'s add, and a replacement of compute() that still runs
// the guest code.
#include "functions.h" // generated: Cpu, kiln::rt::HookResult, compute_plus_100_original()

using kiln::rt::HookResult;

// Before scale's `lsl x0, x0, #1`: x0 = 43 and on to its `ret` at 0x400244, so scale returns 43 (the shift
// could only give an even number).
HookResult scale_skip_shift(Cpu* c) {
  c->x[0] = 43;
  return HookResult::branch_to(0x400244);
}

// Before compute's `add x0, x0, #1`: return what x0 holds (a * 3), skipping the +1.
HookResult compute_skip_increment(Cpu*) { return HookResult::return_to_caller(); }

// After offset's `add x0, x0, #...`: 1000 more.
HookResult offset_plus_1000(Cpu* c) {
  c->x[0] += 1000;
  return HookResult::proceed();
}

// Replaces compute(): the guest code, then 100 more.
void compute_plus_100(Cpu* c) {
  compute_plus_100_original(c);
  c->x[0] += 100;
}
