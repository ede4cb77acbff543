// Method words per second through the Maxwell command processor for a draw-heavy synthetic stream (state
// changes, constant buffer updates, direct draws and MME draw macros), next to references measured in the same
// run: copying the words, and decoding their headers without acting on them.
// Usage: bench_maxwell [--quick]
#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/gpu/maxwell/capture.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/mme/interpreter.h"
#include "runtime/gpu/maxwell/mme/macro_registry.h"
#include "runtime/gpu/maxwell/mme/program.h"
#include "runtime/gpu/maxwell/replay.h"
#include "runtime/gpu/maxwell/pushbuffer.h"
#include "runtime/gpu/maxwell/synthetic_frame.h"

using namespace kiln::maxwell;
using clock_type = std::chrono::steady_clock;

namespace {

struct Measurement {
  double seconds = 1e30;
  uint64_t words = 0, draws = 0;
};

Measurement measure_processor(uint32_t draws, const MacroRegistry* registry, int repetitions) {
  Measurement best;
  for (int i = 0; i < repetitions; ++i) {
    CountingBackend backend;
    Gpu gpu(&backend);
    gpu.set_macro_registry(registry);
    const uint64_t words = submit_synthetic_frame(gpu, SyntheticFrameOptions{draws});
    const auto start = clock_type::now();
    const RunResult result = gpu.run();
    const double seconds = std::chrono::duration<double>(clock_type::now() - start).count();
    if (!result.idle || gpu.error_count() != 0) {
      fmt::print(stderr, "processor failed: {}\n", gpu.diagnostics().empty() ? "" : gpu.diagnostics()[0].describe());
      std::exit(1);
    }
    if (seconds < best.seconds) best = Measurement{seconds, words, backend.draws};
  }
  return best;
}

// The least any processor must do: look at every header and skip over its data.
double measure_header_walk(const std::vector<uint32_t>& words, int repetitions, uint64_t& checksum) {
  double best = 1e30;
  for (int i = 0; i < repetitions; ++i) {
    const auto start = clock_type::now();
    uint64_t sum = 0;
    for (size_t at = 0; at < words.size();) {
      const MethodHeader header = MethodHeader::decode(words[at]);
      sum += header.method;
      const size_t data = header.kind == HeaderKind::immediate ? 0 : header.count;
      for (size_t k = 1; k <= data && at + k < words.size(); ++k) sum += words[at + k];
      at += 1 + data;
    }
    checksum += sum;
    best = std::min(best, std::chrono::duration<double>(clock_type::now() - start).count());
  }
  return best;
}

// The macro alone: its methods go to a host that only sums them.
struct SummingHost final : mme::MacroHost {
  uint64_t sum = 0;
  uint32_t read_state(uint32_t method) override { return method; }
  void emit(uint32_t method, uint32_t value) override { sum += method ^ value; }
};

void measure_macro(int repetitions) {
  Gpu gpu;
  CaptureRecorder recorder(gpu);
  submit_synthetic_frame(gpu, SyntheticFrameOptions{1});
  gpu.run();
  const std::vector<uint32_t> macro = replay(recorder.finish()).uploaded_macros.at(0);
  const CompiledMacro native = MacroRegistry::global().find(mme::macro_hash(macro));
  if (!native) {
    fmt::print(stderr, "the synthetic frame's macro is not compiled in\n");
    std::exit(1);
  }
  constexpr int calls = 1000000;
  SummingHost host;
  auto time = [&](auto&& call) {
    double best = 1e30;
    for (int r = 0; r < repetitions; ++r) {
      const auto start = clock_type::now();
      for (int i = 0; i < calls; ++i) {
        const uint32_t parameters[] = {6, static_cast<uint32_t>(i)};
        mme::MacroContext context(host, parameters);
        call(context);
      }
      best = std::min(best, std::chrono::duration<double>(clock_type::now() - start).count());
    }
    return best / calls * 1e9;
  };
  const double interpreted = time([&](mme::MacroContext& context) { mme::interpret(macro, 0, context); });
  const double compiled = time([&](mme::MacroContext& context) { native(context); });
  fmt::print("draw macro alone ({} instructions, 4 methods): interpreted {:.1f} ns, compiled {:.1f} ns, {:.1f}x "
             "(sum {:x})\n", macro.size(), interpreted, compiled, interpreted / compiled, host.sum & 0xff);
}

} // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  const uint32_t draws = quick ? 2000 : 50000;
  const int repetitions = quick ? 2 : 5;
  MacroRegistry empty;
  const Measurement native = measure_processor(draws, &MacroRegistry::global(), repetitions);
  const Measurement interpreted = measure_processor(draws, &empty, repetitions);

  // The same words for the references.
  Gpu gpu;
  submit_synthetic_frame(gpu, SyntheticFrameOptions{draws});
  std::vector<uint32_t> words(native.words);
  gpu.memory().read(0x200000000, std::span<uint8_t>(reinterpret_cast<uint8_t*>(words.data()), words.size() * 4));
  uint64_t checksum = 0;
  const double walk = measure_header_walk(words, repetitions, checksum);
  std::vector<uint32_t> copy(words.size());
  double copy_seconds = 1e30;
  for (int i = 0; i < repetitions; ++i) {
    const auto start = clock_type::now();
    std::memcpy(copy.data(), words.data(), words.size() * 4);
    checksum += copy[i % copy.size()];
    copy_seconds = std::min(copy_seconds, std::chrono::duration<double>(clock_type::now() - start).count());
  }

  const double n = static_cast<double>(native.words);
  fmt::print("synthetic frame: {} method words, {} draws ({} direct, {} through the MME)\n", native.words,
             native.draws, draws, draws);
  fmt::print("{:<40} {:>14} {:>12} {:>10}\n", "", "Mwords/s", "draws/s", "vs walk");
  fmt::print("{:<40} {:>14.1f} {:>12.0f} {:>10.2f}\n", "processor, macros compiled to C++", n / native.seconds / 1e6,
             native.draws / native.seconds, walk / native.seconds);
  fmt::print("{:<40} {:>14.1f} {:>12.0f} {:>10.2f}\n", "processor, macros interpreted", n / interpreted.seconds / 1e6,
             interpreted.draws / interpreted.seconds, walk / interpreted.seconds);
  fmt::print("{:<40} {:>14.1f} {:>12} {:>10.2f}\n", "reference: header walk (no effects)", n / walk / 1e6, "-", 1.0);
  fmt::print("{:<40} {:>14.1f} {:>12} {:>10.2f}\n", "reference: memcpy of the words", n / copy_seconds / 1e6, "-",
             walk / copy_seconds);
  fmt::print("(checksum {:x})\n", checksum & 0xffff);
  measure_macro(repetitions);
  return 0;
}
