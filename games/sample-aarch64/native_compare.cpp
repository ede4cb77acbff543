// The sample title's replacement for by_score_descending (games/sample-aarch64/kiln.toml): qsort's comparator
// as native C++. Player is { char name[16]; int score; double accuracy; }, so score is the 32-bit word at +16.
#include <cstdio>
#include <cstdlib>

#include "functions.h" // generated: Cpu, guest memory, native_by_score_descending_original()

void native_by_score_descending(Cpu* c) {
  const uint64_t a = c->x[0], b = c->x[1];
  const int32_t score_a = kiln::rt::load<int32_t>(kiln::rt::guest_base, a + 16);
  const int32_t score_b = kiln::rt::load<int32_t>(kiln::rt::guest_base, b + 16);
  const uint32_t result = static_cast<uint32_t>(score_b) - static_cast<uint32_t>(score_a); // the guest's `sub w0, w1, w0`
  static const bool check = std::getenv("KILN_SAMPLE_CHECK") != nullptr;
  if (check) {
    native_by_score_descending_original(c); // the guest code itself, for comparison
    if (static_cast<uint32_t>(c->x[0]) != result) {
      std::fprintf(stderr, "native_by_score_descending: %u, the guest code: %u\n", result, static_cast<uint32_t>(c->x[0]));
      std::abort();
    }
  }
  c->x[0] = result; // a W result zero-extends into X0
}
