// The corpus kernels as NVIDIA hardware ran them (tests/translator/fixtures/nvidia/<kernel>.out, recorded by
// tests/translator/cuda/run_on_nvidia.sh from the same inputs and seed) against kiln's translations of the sm_86
// and sm_75 cubins and of the CUDA 11.8 sm_50-62 cubins on lavapipe, with the tolerances used against the C++ references. Skipped, with a message,
// while no hardware outputs are committed.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "tests/translator/cuda/corpus_outputs.h"
#include "tests/translator/run/corpus_runner.h"

using namespace kiln;
namespace fs = std::filesystem;

TEST_CASE("corpus kernels on lavapipe match the outputs recorded on NVIDIA hardware", "[gpu][corpus][nvidia]") {
  const fs::path recorded_dir = fs::path(KILN_SOURCE_DIR) / "tests/translator/fixtures/nvidia";
  size_t recorded_files = 0;
  if (fs::is_directory(recorded_dir)) {
    for (const auto& entry : fs::directory_iterator(recorded_dir)) recorded_files += entry.path().extension() == ".out";
  }
  if (recorded_files == 0) {
    WARN("SKIPPED: no hardware outputs in " << recorded_dir.string()
         << " (run tests/translator/cuda/run_on_nvidia.sh on a machine with an NVIDIA GPU and commit the folder)");
    return;
  }

  vulkan::Context context({.validation = true, .synchronization_validation = true});
  const std::vector<test::CorpusCase> cases = test::corpus_cases();
  // The sm86/sm75 corpus builds, then the CUDA 11.8 Maxwell/Pascal builds of the same sources.
  for (const std::string arch : {"sm86", "sm75", "cuda11.8/sm_53", "cuda11.8/sm_50", "cuda11.8/sm_52", "cuda11.8/sm_60", "cuda11.8/sm_61", "cuda11.8/sm_62"}) {
    const fs::path fixtures = fs::path(KILN_SOURCE_DIR) / "tests/translator/fixtures" / arch;
    std::map<std::string, sass::sm86::Cubin> cubins;
    size_t agree = 0, compared = 0;
    for (const test::CorpusCase& corpus_case : cases) {
      INFO(arch << ": " << corpus_case.file << ": " << corpus_case.kernel);
      const fs::path path = recorded_dir / (corpus_case.kernel + ".out");
      REQUIRE(fs::exists(path)); // a partial set would hide kernels: run_on_nvidia.sh records all of them
      std::string error;
      const auto recorded = test::read_recorded_outputs(path.string(), error);
      INFO(error);
      REQUIRE(recorded.has_value());
        auto [it, inserted] = cubins.try_emplace(corpus_case.file);
      if (inserted) it->second = sass::sm86::load_cubin(fixtures / (corpus_case.file + ".cubin"));
      const sass::sm86::Kernel* kernel = it->second.find_kernel(corpus_case.kernel);
      // half_double.cu's half kernels exist from sm_53 on (__CUDA_ARCH__ >= 530).
      if (kernel == nullptr && (arch == "cuda11.8/sm_50" || arch == "cuda11.8/sm_52") && corpus_case.file == "half_double") continue;
      REQUIRE(kernel != nullptr);

      test::Random random(test::kernel_seed(recorded->run_seed, corpus_case.kernel));
      const test::Launch launch = corpus_case.make(random);
      test::Launch hardware = launch;
      size_t recorded_outputs = 0;
      for (auto& [index, bytes] : recorded->arguments) {
        REQUIRE(index < hardware.arguments.size());
        REQUIRE(hardware.arguments[index].bytes.size() == bytes.size());
        hardware.arguments[index].bytes = bytes;
        ++recorded_outputs;
      }
      size_t outputs = 0;
      for (const auto& argument : launch.arguments) outputs += argument.kind == test::Argument::Kind::Output || argument.kind == test::Argument::Kind::InOut;
      REQUIRE(recorded_outputs == outputs);

      const test::Launch translated = test::run_translated(context, it->second, *kernel, corpus_case.file, launch);
      std::string report;
      const size_t mismatches = test::compare_outputs(hardware, translated, report);
      INFO("seed " << recorded->run_seed << "\n" << report);
      CHECK(mismatches == 0);
      agree += mismatches == 0;
      ++compared;
    }
    WARN(arch << ": " << agree << " of " << compared << " kernels translated by kiln agree with NVIDIA hardware on lavapipe");
  }
  const auto messages = context.validation_log().messages();
  for (const auto& message : messages) UNSCOPED_INFO(message);
  CHECK(messages.empty());
}
