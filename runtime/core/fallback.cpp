#include "runtime/core/fallback.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "runtime/core/dispatch.h"
#include "runtime/core/guest_log.h"

namespace kiln::rt {
namespace {

const FallbackStep* steps_begin = nullptr;
const FallbackStep* steps_end = nullptr;

const FallbackStep* find_step(uint64_t address) {
  const FallbackStep* it = std::lower_bound(steps_begin, steps_end, address, [](const FallbackStep& s, uint64_t a) { return s.address < a; });
  return it != steps_end && it->address == address ? it : nullptr;
}

/// Once per entry address: a line in kiln's log, and a TOML entry in $KILN_DISCOVERY_LOG for `kiln discover apply`.
void report_entry(uint64_t address) {
  static std::vector<uint64_t> reported;
  if (std::find(reported.begin(), reported.end(), address) != reported.end()) return;
  reported.push_back(address);
  guest_log("kiln: guest address %#llx was not recompiled; running it in the fallback interpreter\n", static_cast<unsigned long long>(address));
  if (const char* log = std::getenv("KILN_DISCOVERY_LOG")) {
    if (std::FILE* file = std::fopen(log, "a")) {
      std::fprintf(file, "[[reached]]\naddress = %#llx\n\n", static_cast<unsigned long long>(address));
      std::fclose(file);
    }
  }
}

} // namespace

void set_fallback_steps(const FallbackStep* steps, size_t count) {
  steps_begin = steps;
  steps_end = steps + count;
  set_missing_function_handler(run_fallback);
}

bool run_fallback(Cpu* cpu, uint64_t address) {
  const FallbackStep* step = find_step(address);
  if (!step) return false;
  report_entry(address);
  // Where the code entered here returns to, as compiled functions keep it (c->link, set by call_guest and
  // branch_guest): a RET anywhere else is a non-local return (longjmp, the unwinder) that the frames further
  // up take over.
  const uint64_t link = cpu->link;
  cpu->pc = address;
  for (;;) {
    if (step->step(cpu) == StepResult::returned) {
      if (cpu->pc != link) cpu->unwind_target = cpu->pc;
      return true;
    }
    // Straight-line code: the next step is the next table entry.
    if (step + 1 < steps_end && step[1].address == cpu->pc) ++step;
    else if (const FallbackStep* found = find_step(cpu->pc)) step = found;
    else if (find_function(cpu->pc)) {
      branch_guest(cpu, cpu->pc, link); // a branch into compiled code is a tail call: its return is ours
      return true;
    } else {
      guest_log("kiln: control reached guest address %#llx, which was neither recompiled nor covered by the fallback interpreter\n",
                   static_cast<unsigned long long>(cpu->pc));
      _exit(70);
    }
  }
}

} // namespace kiln::rt
