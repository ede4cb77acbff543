// Every nvidia-headsurface program of maxwell/ and pascal/ decodes, lowers to IR, emits SPIR-V and passes
// spirv-val, without the Float64 capability and without constant-bank data (BRX jump tables); a program that
// fails is listed with the reason.
#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "translator/graphics/graphics.h"
#include "translator/spirv/validate.h"

namespace {

namespace fs = std::filesystem;

fs::path corpus_dir(const char* arch) { return fs::path(KILN_SHARED_DIR) / "corpus" / "nvidia-headsurface" / arch; }

struct Counts {
  int translated = 0;
  int failed = 0;
  std::vector<std::string> failures;
};

Counts translate_all(const char* arch, kiln::graphics::Arch target, kiln::spirv::FmaMode fma = kiln::spirv::FmaMode::exact_f32) {
  Counts counts;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(corpus_dir(arch))) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 3 && name[2] == '_' && entry.path().extension() == ".bin") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() == 34);
  for (const fs::path& file : files) {
    try {
      const auto bytes = kiln::read_file(file);
      kiln::graphics::TranslateOptions options;
      options.backend.floats.fma = fma;
      const auto result = kiln::graphics::translate_graphics(bytes, target, file.filename().string(), options);
      CHECK(!result.spirv.empty());
      // No program of the corpus computes in double precision, so none may need shaderFloat64 in the FP64-free
      // and the fused FMA modes (issue 19).
      const auto capabilities = kiln::spirv::declared_capabilities(result.spirv);
      CHECK(std::find(capabilities.begin(), capabilities.end(), spv::Capability::Float64) == capabilities.end());
      ++counts.translated;
    } catch (const kiln::Error& error) {
      ++counts.failed;
      counts.failures.push_back(error.what());
    }
  }
  return counts;
}

} // namespace

TEST_CASE("maxwell and pascal corpus programs translate to valid SPIR-V", "[sm5x_lower]") {
  if (!fs::exists(corpus_dir("maxwell"))) FAIL("corpus folder missing: " << corpus_dir("maxwell"));
  for (auto [arch, target] : {std::pair{"maxwell", kiln::graphics::Arch::sm53}, std::pair{"pascal", kiln::graphics::Arch::sm60}}) {
    for (const auto fma : {kiln::spirv::FmaMode::exact_f32, kiln::spirv::FmaMode::fused}) {
      const Counts counts = translate_all(arch, target, fma);
      INFO(arch << " --fma " << kiln::spirv::fma_mode_name(fma) << ": " << counts.translated << " translated");
      for (const std::string& failure : counts.failures) UNSCOPED_INFO(failure);
      // The 14 customSampling programs switch through BRX jump tables in c[1], which the translator is not given
      // here (an offline shader cache does not have them): BRX is lowered over every block start it can reach.
      CHECK(counts.translated == 34);
      CHECK(counts.failed == 0);
    }
  }
}

TEST_CASE("turing corpus programs translate to valid SPIR-V through the SM86 decoder family", "[sm5x_lower]") {
  if (!fs::exists(corpus_dir("turing"))) FAIL("corpus folder missing: " << corpus_dir("turing"));
  // Turing compiles the customSampling switch into compare-and-branch chains (no BRX), so all 34 translate
  // without constant-bank data.
  const Counts counts = translate_all("turing", kiln::graphics::Arch::sm75);
  for (const std::string& failure : counts.failures) UNSCOPED_INFO(failure);
  CHECK(counts.translated == 34);
  CHECK(counts.failed == 0);
}
