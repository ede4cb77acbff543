#pragma once
// The timing rule every kiln benchmark uses: one warm-up run (caches, page faults), then the best of at least
// three runs and as many more as fit in `budget` seconds (at most 1000), so a loaded machine disturbs it least.
#include <algorithm>
#include <chrono>

namespace kiln::bench {

inline double best_seconds_per_run(const auto& run, double budget) {
  using clock = std::chrono::steady_clock;
  run();
  double best = 1e30;
  const auto start = clock::now();
  int runs = 0;
  while (runs < 3 || std::chrono::duration<double>(clock::now() - start).count() < budget) {
    const auto before = clock::now();
    run();
    best = std::min(best, std::chrono::duration<double>(clock::now() - before).count());
    if (++runs >= 1000) break;
  }
  return best;
}

} // namespace kiln::bench
