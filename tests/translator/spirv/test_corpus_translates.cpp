// Issue point 6b: every kernel of the CUDA corpus decodes, lowers to IR (verified after every pass), compiles to
// SPIR-V and passes spirv-val for Vulkan 1.2, in both warp models, for the sm_86 and the sm_75 cubins alike.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>

#include "runtime/base/error.h"
#include "translator/sass/sm5x/lower.h"
#include "translator/sass/sm86/instruction.h"
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

namespace {

bool declares_float64(const std::vector<uint32_t>& module) {
  const auto capabilities = spirv::declared_capabilities(module);
  return std::find(capabilities.begin(), capabilities.end(), spv::Capability::Float64) != capabilities.end();
}

} // namespace

// Issue 19 point 4: shaderFloat64 only where the guest computes in double precision. A guest instruction is
// double precision by nvdisasm's text: a D-prefixed float op (DADD, DMUL, DFMA, DSETP, DMNMX), an .F64 type or a
// 64H MUFU seed.
TEST_CASE("corpus kernels without double-precision guest instructions declare no Float64 under the default FMA mode", "[spirv][corpus][fma]") {
  const std::regex double_precision(R"((^|\s|@\S+ )(DADD|DMUL|DFMA|DSETP|DMNMX)\b|\.F64\b|64H\b)");
  size_t single_kernels = 0, double_kernels = 0, needed_f64_before = 0;
  for (const char* arch : {"sm86", "sm75"}) {
    for (const auto& path : cubins(arch)) {
      const sass::sm86::Cubin cubin = sass::sm86::load_cubin(path);
      for (const auto& kernel : cubin.kernels) {
        bool has_double = false;
        for (const auto& instruction : sass::sm86::decode_all(kernel.code, kernel.location(path.string()), cubin.architecture)) {
          has_double = has_double || std::regex_search(sass::sm86::disassemble(instruction), double_precision);
        }
        const ir::Function function = sass::sm86::translate_kernel(kernel, path.string(), cubin.architecture);
        INFO(path.filename().string() << ": " << kernel.name);
        CHECK(declares_float64(spirv::emit_compute(function)) == has_double);
        CHECK(declares_float64(spirv::emit_compute(function, {.floats = {.fma = spirv::FmaMode::fused}})) == has_double);
        // exact_f64 (the earlier lowering) makes every f32 FFMA need FP64: what the default avoids.
        if (!has_double && declares_float64(spirv::emit_compute(function, {.floats = {.fma = spirv::FmaMode::exact_f64}}))) ++needed_f64_before;
        (has_double ? double_kernels : single_kernels) += 1;
      }
    }
  }
  WARN(single_kernels << " corpus kernels without and " << double_kernels << " with double-precision instructions; "
                      << needed_f64_before << " of the former need FP64 under --fma f64");
  CHECK(single_kernels >= 100);
  CHECK(needed_f64_before >= 10);
  CHECK(double_kernels >= 4);
}

namespace {

struct Sm5xTotals {
  size_t kernels = 0, translated = 0;
  std::vector<std::string> failures;
};

// Every kernel of every CUDA 11.8 cubin of one Maxwell/Pascal folder (the corpus cases' files and the others):
// translated, validated in both warp models and checked to need FP64 exactly when it has a double-precision guest
// instruction, or failing with an error that names its kernel and code address.
Sm5xTotals translate_cuda118(const std::string& folder) {
  const std::regex double_precision(R"((^|\s|@\S+ )(DADD|DMUL|DFMA|DSETP|DMNMX)\b|\.F64\b|64H\b)");
  Sm5xTotals totals;
  for (const auto& path : cubins(("cuda11.8/" + folder).c_str())) {
    const sass::sm86::Cubin cubin = sass::sm86::load_cubin(path);
    REQUIRE(cubin.family == sass::sm86::InstructionSet::maxwell);
    for (const auto& kernel : cubin.kernels) {
      ++totals.kernels;
      INFO(folder << ": " << path.filename().string() << ": " << kernel.name);
      try {
        const ir::Function function = sass::sm5x::lower_kernel(kernel, path.string());
        bool has_double = false;
        for (const auto& instruction : sass::sm5x::decode_program(kernel.code, kernel.name, sass::sm5x::ProgramKind::compute).instructions) {
          has_double = has_double || std::regex_search(sass::sm5x::disassemble(instruction), double_precision);
        }
        for (spirv::WarpModel model : {spirv::WarpModel::Emulated, spirv::WarpModel::Subgroup}) {
          const std::vector<uint32_t> module = spirv::emit_compute(function, {.warp_model = model});
          const auto messages = spirv::validate(module);
          INFO((messages.empty() ? std::string() : messages.front()));
          CHECK(messages.empty());
          CHECK(declares_float64(module) == has_double);
        }
        ++totals.translated;
      } catch (const Error& error) {
        const std::string message = error.what();
        CHECK(message.find("kernel " + kernel.name) != std::string::npos);
        CHECK(message.find("code address 0x") != std::string::npos);
        totals.failures.push_back(path.filename().string() + ": " + message);
      }
    }
  }
  return totals;
}

} // namespace

TEST_CASE("every sm_50-62 kernel of the CUDA 11.8 corpus translates or fails naming its kernel and address", "[spirv][corpus][sm5x]") {
  // Per folder: its kernels, and how many must translate (all but the forms translator-sm5x.md lists as not done).
  struct Folder {
    const char* name;
    size_t kernels, required;
  };
  const Folder folders[] = {{"sm_50", 92, 82}, {"sm_52", 92, 82}, {"sm_53", 94, 84}, {"sm_60", 95, 84},
                            {"sm_61", 95, 84}, {"sm_62", 95, 84}, {"sm_53-G", 59, 8}};
  for (const Folder& entry : folders) {
    const std::string folder = entry.name;
    const size_t required = entry.required;
    const Sm5xTotals totals = translate_cuda118(folder);
    std::string listing;
    for (const std::string& failure : totals.failures) listing += "\n  " + failure;
    WARN(folder << ": " << totals.translated << " of " << totals.kernels << " kernels translated and validated" << listing);
    CHECK(totals.kernels == entry.kernels);
    CHECK(totals.translated >= required);
  }
}
