// The C++ a porter adds to the test title (porter/kiln.toml): a hook that changes scale()'s argument, one that
// returns from compute() early, and a replacement of compute() that still runs the guest code.
#include "functions.h" // generated: Cpu, kiln::rt::HookResult, compute_plus_100_original()

using kiln::rt::HookResult;

// Before scale's first instruction: the argument becomes 21, so scale returns 42.
HookResult scale_argument_21(Cpu* c) {
  c->x[0] = 21;
  return HookResult::proceed();
}

// Before compute's `add x0, x0, #1`: return what x0 holds (a * 3), skipping the +1.
HookResult compute_skip_increment(Cpu*) { return HookResult::return_to_caller(); }

// Replaces compute(): the guest code, then 100 more.
void compute_plus_100(Cpu* c) {
  compute_plus_100_original(c);
  c->x[0] += 100;
}
