// The score-bonus patch set's hook (patch.toml): runs before main's printf of each league-table row.
#include "functions.h" // generated: Cpu, kiln::rt::HookResult

// w2 is printf's `%4d` argument, the row's score; the write keeps the upper half zero as a 32-bit write does.
kiln::rt::HookResult show_score_bonus(Cpu* c) {
  c->x[2] = static_cast<uint32_t>(c->x[2] + 100);
  return kiln::rt::HookResult::proceed();
}
