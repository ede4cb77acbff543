// Translation throughput over the CUDA corpus (sm_86 cubins): kernels per second for decode + lower (IR passes
// included) + SPIR-V emission + in-process validation, each stage's share, and the ratio against spirv-val alone
// on the same modules (the reference measured in the same run). Not a test.
#include <chrono>
#include <filesystem>

#include <fmt/format.h>

#include "translator/sass/sm86/cubin.h"
#include "translator/sass/sm86/lower.h"
#include "translator/spirv/emit_compute.h"
#include "translator/spirv/validate.h"

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

struct Entry {
  std::string file;
  const kiln::sass::sm86::Kernel* kernel;
  kiln::sass::sm86::Architecture architecture;
};

} // namespace

int main(int argc, char** argv) {
  const std::filesystem::path fixtures = argc > 1 ? argv[1] : std::filesystem::path(KILN_SOURCE_DIR) / "tests/translator/fixtures/sm86";
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 20;
  std::vector<kiln::sass::sm86::Cubin> cubins;
  for (const auto& entry : std::filesystem::directory_iterator(fixtures)) {
    if (entry.path().extension() == ".cubin") cubins.push_back(kiln::sass::sm86::load_cubin(entry.path()));
  }
  // Only kernels that translate (the corpus test lists the others).
  std::vector<Entry> kernels;
  size_t instructions = 0;
  for (const auto& cubin : cubins) {
    for (const auto& kernel : cubin.kernels) {
      try {
        kiln::spirv::emit_compute(kiln::sass::sm86::translate_kernel(kernel, cubin.file, cubin.architecture));
        kernels.push_back({cubin.file, &kernel, cubin.architecture});
        instructions += kernel.code.size() / 16;
      } catch (const std::exception&) {
      }
    }
  }
  double decode = 0, lower = 0, emit = 0, validate = 0;
  std::vector<std::vector<uint32_t>> modules;
  for (int round = 0; round < rounds; ++round) {
    modules.clear();
    for (const Entry& entry : kernels) {
      auto start = Clock::now();
      const auto code = kiln::sass::sm86::decode_all(entry.kernel->code, entry.kernel->location(entry.file), entry.architecture);
      decode += seconds_since(start);
      start = Clock::now();
      const kiln::ir::Function function = kiln::sass::sm86::lower_kernel(*entry.kernel, code, entry.file);
      lower += seconds_since(start);
      start = Clock::now();
      modules.push_back(kiln::spirv::emit_compute(function));
      emit += seconds_since(start);
      start = Clock::now();
      if (!kiln::spirv::validate(modules.back()).empty()) return fmt::print(stderr, "invalid module\n"), 1;
      validate += seconds_since(start);
    }
  }
  const double total = decode + lower + emit + validate;
  const double translated = static_cast<double>(kernels.size()) * rounds;
  fmt::print("corpus: {} kernels, {} instructions, {} rounds\n", kernels.size(), instructions, rounds);
  fmt::print("decode+translate+validate: {:.0f} kernels/s, {:.0f} instructions/s\n", translated / total, instructions * rounds / total);
  fmt::print("  decode   {:5.1f}%\n  lower    {:5.1f}% (IR construction, structurizer, verifier after every pass, folding, DCE)\n"
             "  emit     {:5.1f}%\n  validate {:5.1f}%\n",
             100 * decode / total, 100 * lower / total, 100 * emit / total, 100 * validate / total);
  fmt::print("ratio to spirv-val alone on the same modules: {:.2f}x\n", total / validate);
  return 0;
}
