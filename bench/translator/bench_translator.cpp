// Translation throughput over the CUDA corpus (sm_86 cubins): kernels per second for decode + lower (IR passes
// included) + SPIR-V emission + in-process validation, per FMA mode (spirv::FmaMode) side by side, with the
// modules' size and how many need Float64. Not a test.
#include <algorithm>
#include <array>
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
  // Decode and lower do not depend on the FMA mode; emission and validation run once per mode on each function.
  constexpr std::array modes{kiln::spirv::FmaMode::exact_f32, kiln::spirv::FmaMode::fused, kiln::spirv::FmaMode::exact_f64};
  struct ModeCost {
    double emit = 0, validate = 0;
    size_t words = 0, float64_modules = 0;
  };
  std::array<ModeCost, modes.size()> costs{};
  double decode = 0, lower = 0;
  for (int round = 0; round < rounds; ++round) {
    for (const Entry& entry : kernels) {
      auto start = Clock::now();
      const auto code = kiln::sass::sm86::decode_all(entry.kernel->code, entry.kernel->location(entry.file), entry.architecture);
      decode += seconds_since(start);
      start = Clock::now();
      const kiln::ir::Function function = kiln::sass::sm86::lower_kernel(*entry.kernel, code, entry.file);
      lower += seconds_since(start);
      for (size_t m = 0; m < modes.size(); ++m) {
        start = Clock::now();
        const std::vector<uint32_t> module = kiln::spirv::emit_compute(function, {.floats = {.fma = modes[m]}});
        costs[m].emit += seconds_since(start);
        start = Clock::now();
        if (!kiln::spirv::validate(module).empty()) return fmt::print(stderr, "invalid module\n"), 1;
        costs[m].validate += seconds_since(start);
        if (round == 0) {
          costs[m].words += module.size();
          const auto capabilities = kiln::spirv::declared_capabilities(module);
          costs[m].float64_modules += std::count(capabilities.begin(), capabilities.end(), spv::Capability::Float64);
        }
      }
    }
  }
  const double translated = static_cast<double>(kernels.size()) * rounds;
  fmt::print("corpus: {} kernels, {} instructions, {} rounds\n", kernels.size(), instructions, rounds);
  fmt::print("decode {:.1f} us/kernel, lower {:.1f} us/kernel (IR construction, structurizer, verifier after every pass, folding, DCE)\n",
             1e6 * decode / translated, 1e6 * lower / translated);
  fmt::print("{:<7} {:>10} {:>10} {:>14} {:>12} {:>12} {:>8}\n", "--fma", "emit us", "val us", "kernels/s", "instr/s", "SPIR-V words", "Float64");
  for (size_t m = 0; m < modes.size(); ++m) {
    const double total = decode + lower + costs[m].emit + costs[m].validate;
    fmt::print("{:<7} {:>10.1f} {:>10.1f} {:>14.0f} {:>12.0f} {:>12} {:>8}\n", kiln::spirv::fma_mode_name(modes[m]), 1e6 * costs[m].emit / translated,
               1e6 * costs[m].validate / translated, translated / total, instructions * rounds / total, costs[m].words, costs[m].float64_modules);
  }
  fmt::print("(kernels/s and instr/s: decode + lower + emit + validate; Float64: modules that declare it)\n");
  return 0;
}
