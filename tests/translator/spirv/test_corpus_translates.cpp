// Issue point 6b: every kernel of the CUDA corpus decodes, lowers to IR (verified after every pass), compiles to
// SPIR-V and passes spirv-val for Vulkan 1.2, in both warp models, for the sm_86 and the sm_75 cubins alike.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "translator/sass/sm86/lower.h"
#include "translator/spirv/emit_compute.h"
#include "translator/spirv/validate.h"

using namespace kiln;

namespace {

struct Outcome {
  bool translated = false;
  std::string error;
};

Outcome translate(const sass::sm86::Kernel& kernel, const std::filesystem::path& path, sass::sm86::Architecture architecture) {
  try {
    const ir::Function function = sass::sm86::translate_kernel(kernel, path.string(), architecture);
    for (spirv::WarpModel model : {spirv::WarpModel::Emulated, spirv::WarpModel::Subgroup}) {
      const auto messages = spirv::validate(spirv::emit_compute(function, {.warp_model = model}));
      if (!messages.empty()) return {false, "spirv-val: " + messages.front()};
    }
    return {true, {}};
  } catch (const std::exception& e) {
    return {false, e.what()};
  }
}

std::vector<std::filesystem::path> cubins(const char* arch) {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(KILN_SOURCE_DIR) / "tests/translator/fixtures" / arch)) {
    if (entry.path().extension() == ".cubin") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

// Translates every kernel of every cubin for `arch`; all must translate. Returns the number of kernels.
size_t require_all_translate(const char* arch) {
  size_t translated = 0, total = 0;
  for (const auto& path : cubins(arch)) {
    const sass::sm86::Cubin cubin = sass::sm86::load_cubin(path);
    for (const auto& kernel : cubin.kernels) {
      ++total;
      const Outcome outcome = translate(kernel, path, cubin.architecture);
      INFO(path.filename().string() << ": " << kernel.name << ": " << outcome.error);
      CHECK(outcome.translated);
      translated += outcome.translated;
    }
  }
  CHECK(total >= 64);
  CHECK(translated == total);
  WARN(arch << " corpus: " << translated << " of " << total << " kernels translated and validated");
  return total;
}

} // namespace

TEST_CASE("every sm_86 corpus kernel translates to SPIR-V that passes spirv-val", "[spirv][corpus]") {
  require_all_translate("sm86");
}

TEST_CASE("every sm_75 corpus kernel translates to SPIR-V that passes spirv-val", "[spirv][corpus]") {
  require_all_translate("sm75");
}
