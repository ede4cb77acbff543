// Issue point 6c: corpus kernels (real ptxas sm_86 and sm_75 output) translated and run on lavapipe over random
// inputs (a fresh seed each run, printed; outputs poisoned first), against C++ references of the same CUDA
// source: bit-exact, or within the documented bounds for approximate operations.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>

#include "runtime/base/error.h"
#include "tests/translator/run/corpus_runner.h"

using namespace kiln;

namespace {

struct Totals {
  size_t passed = 0, run = 0;
  std::string missing;
};

// Runs every case against the cubins of one architecture; every kernel must translate.
Totals run_corpus(vulkan::Context& context, uint64_t seed, const char* arch) {
  Totals totals;
  const std::filesystem::path fixtures = std::filesystem::path(KILN_SOURCE_DIR) / "tests/translator/fixtures" / arch;
  std::map<std::string, sass::sm86::Cubin> cubins;
  std::set<std::string> covered;
  for (test::CorpusCase& corpus_case : test::corpus_cases()) {
    INFO(arch << ": " << corpus_case.file << ": " << corpus_case.kernel);
    auto [it, inserted] = cubins.try_emplace(corpus_case.file);
    if (inserted) it->second = sass::sm86::load_cubin(fixtures / (corpus_case.file + ".cubin"));
    const sass::sm86::Kernel* kernel = it->second.find_kernel(corpus_case.kernel);
    REQUIRE(kernel != nullptr);
    covered.insert(corpus_case.kernel);
    test::Random random(test::kernel_seed(seed, corpus_case.kernel));
    const test::Launch launch = corpus_case.make(random);
    const test::Launch actual = test::run_translated(context, it->second, *kernel, corpus_case.file, launch);
    test::Launch expected = launch;
    corpus_case.reference(expected);
    std::string report;
    const size_t mismatches = test::compare_outputs(expected, actual, report);
    INFO(report);
    CHECK(mismatches == 0);
    ++totals.run;
    totals.passed += mismatches == 0;
  }
  for (const auto& [file, cubin] : cubins) {
    for (const auto& kernel : cubin.kernels) {
      if (!covered.count(kernel.name)) totals.missing += " " + kernel.name;
    }
  }
  return totals;
}

} // namespace

TEST_CASE("corpus kernels on lavapipe match their C++ references", "[gpu][corpus]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  const uint64_t seed = (uint64_t{std::random_device()()} << 32) | std::random_device()();
  INFO("seed " << seed);
  WARN("corpus inputs seeded with " << seed);
  for (const char* arch : {"sm86", "sm75"}) {
    const Totals totals = run_corpus(context, seed, arch);
    WARN(arch << ": " << totals.passed << " of " << totals.run << " kernels run on lavapipe match their references"
              << (totals.missing.empty() ? "" : "; without a reference:" + totals.missing));
    CHECK(totals.missing.empty());
    CHECK(totals.run >= 64);
  }
  const auto messages = context.validation_log().messages();
  for (const auto& message : messages) UNSCOPED_INFO(message);
  CHECK(messages.empty());
}

namespace {

struct ArchitectureResult {
  size_t passed = 0, run = 0;
  std::vector<std::string> untranslated; ///< "kernel: error" for each kernel kiln cannot translate yet
  std::vector<std::string> wrong;        ///< kernels that ran and differ from their reference
  std::vector<std::string> absent;       ///< kernels the target's cubin does not hold
};

// The same cases and inputs against the CUDA 11.8 cubins of one Maxwell/Pascal target: a kernel the lowering
// cannot translate yet is listed with its error (which must name it and its code address), never skipped.
ArchitectureResult run_cuda118(vulkan::Context& context, uint64_t seed, const std::string& arch) {
  ArchitectureResult result;
  const std::filesystem::path fixtures = std::filesystem::path(KILN_SOURCE_DIR) / "tests/translator/fixtures/cuda11.8" / arch;
  std::map<std::string, sass::sm86::Cubin> cubins;
  for (test::CorpusCase& corpus_case : test::corpus_cases()) {
    INFO(arch << ": " << corpus_case.file << ": " << corpus_case.kernel);
    // The -G build holds only some of the corpus files (regenerate_cuda118.sh).
    const std::filesystem::path path = fixtures / (corpus_case.file + ".cubin");
    const bool debug_build = arch.ends_with("-G");
    if (debug_build && !std::filesystem::exists(path)) {
      result.absent.push_back(corpus_case.kernel);
      continue;
    }
    auto [it, inserted] = cubins.try_emplace(corpus_case.file);
    if (inserted) it->second = sass::sm86::load_cubin(path);
    REQUIRE(it->second.family == sass::sm86::InstructionSet::maxwell);
    const sass::sm86::Kernel* kernel = it->second.find_kernel(corpus_case.kernel);
    if (kernel == nullptr) {
      // half_double.cu compiles its half-precision kernels for sm_53 and later only (__CUDA_ARCH__ >= 530).
      CHECK((arch == "sm_50" || arch == "sm_52"));
      CHECK(corpus_case.file == "half_double");
      result.absent.push_back(corpus_case.kernel);
      continue;
    }
    ++result.run;
    test::Random random(test::kernel_seed(seed, corpus_case.kernel));
    const test::Launch launch = corpus_case.make(random);
    test::Launch actual;
    try {
      actual = test::run_translated(context, it->second, *kernel, corpus_case.file, launch);
    } catch (const Error& error) {
      const std::string message = error.what();
      CHECK(message.find("kernel " + corpus_case.kernel) != std::string::npos); // errors name the kernel
      result.untranslated.push_back(corpus_case.kernel + ": " + message);
      continue;
    }
    test::Launch expected = launch;
    corpus_case.reference(expected);
    std::string report;
    const size_t mismatches = test::compare_outputs(expected, actual, report);
    if (mismatches == 0) ++result.passed;
    else result.wrong.push_back(corpus_case.kernel + ":\n" + report);
  }
  return result;
}

} // namespace

TEST_CASE("maxwell and pascal corpus kernels on lavapipe match their C++ references", "[gpu][corpus][sm5x]") {
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  const uint64_t seed = (uint64_t{std::random_device()()} << 32) | std::random_device()();
  INFO("seed " << seed);
  WARN("corpus inputs seeded with " << seed);
  // Kernels of the 68 that must pass on each target: all that its cubin holds (sm_50/52 lack the two half kernels).
  // sm_53-G: the unoptimised (-G) build, whose kernels mostly do not translate yet (translator-sm5x.md).
  const std::pair<const char*, size_t> targets[] = {{"sm_53", 68}, {"sm_50", 66}, {"sm_52", 66}, {"sm_60", 68},
                                                    {"sm_61", 68}, {"sm_62", 68}, {"sm_53-G", 5}};
  for (const auto& [arch, required] : targets) {
    const ArchitectureResult result = run_cuda118(context, seed, arch);
    std::string listing;
    for (const std::string& line : result.untranslated) listing += "\n  not translated: " + line;
    for (const std::string& line : result.wrong) listing += "\n  differs: " + line;
    for (const std::string& name : result.absent) listing += "\n  not in the cubin: " + name;
    WARN(arch << ": " << result.passed << " of " << result.run << " kernels run on lavapipe match their references; "
              << result.untranslated.size() << " not translated, " << result.wrong.size() << " differ" << listing);
    CHECK(result.run + result.absent.size() == 68);
    CHECK(result.passed >= required);
    CHECK(result.wrong.empty()); // a kernel that translates must compute the reference's outputs
  }
  const auto messages = context.validation_log().messages();
  for (const auto& message : messages) UNSCOPED_INFO(message);
  CHECK(messages.empty());
}
