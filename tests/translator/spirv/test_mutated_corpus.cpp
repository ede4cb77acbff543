// Robustness: corpus kernels with random bits flipped in their instruction words either translate to SPIR-V that
// passes spirv-val or fail with a kiln::Error (decoder or lowering), never crash or emit an invalid module.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>

#include "runtime/base/error.h"
#include "translator/sass/sm86/lower.h"
#include "translator/spirv/emit_compute.h"
#include "translator/spirv/validate.h"

using namespace kiln;

TEST_CASE("mutated corpus kernels translate to valid SPIR-V or give a kiln::Error", "[spirv][corpus]") {
  const uint32_t seed = std::random_device()();
  INFO("seed " << seed);
  std::mt19937 random(seed);
  const std::filesystem::path fixtures = std::filesystem::path(KILN_SOURCE_DIR) / "tests/translator/fixtures/sm86";
  size_t translated = 0, rejected = 0;
  for (const char* file : {"control_flow", "integer_arithmetic", "float_arithmetic", "warp_operations", "shared_memory", "memory_access"}) {
    const sass::sm86::Cubin cubin = sass::sm86::load_cubin(fixtures / (std::string(file) + ".cubin"));
    for (const auto& original : cubin.kernels) {
      for (int attempt = 0; attempt < 12; ++attempt) {
        sass::sm86::Kernel kernel = original;
        // Flip a few bits of operand and modifier fields (bits 12-104), where most flips still decode.
        for (int flips = 0; flips < 1 + static_cast<int>(random() % 3); ++flips) {
          const size_t instruction = random() % (kernel.code.size() / 16);
          const unsigned bit = 12 + random() % 93;
          kernel.code[instruction * 16 + bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
        }
        try {
          const ir::Function function = sass::sm86::translate_kernel(kernel, file, cubin.architecture);
          const auto messages = spirv::validate(spirv::emit_compute(function));
          for (const auto& message : messages) UNSCOPED_INFO(kernel.name << ": " << message);
          CHECK(messages.empty());
          ++translated;
        } catch (const Error& e) {
          ++rejected; // a clear error is the other acceptable outcome
        }
      }
    }
  }
  WARN("mutated kernels: " << translated << " translated and valid, " << rejected << " rejected with an error");
  CHECK(translated > 0);
}

TEST_CASE("translation is deterministic: the same kernel gives the same words", "[spirv][corpus]") {
  const auto path = std::filesystem::path(KILN_SOURCE_DIR) / "tests/translator/fixtures/sm86/control_flow.cubin";
  const sass::sm86::Cubin cubin = sass::sm86::load_cubin(path);
  for (const auto& kernel : cubin.kernels) {
    const auto first = spirv::emit_compute(sass::sm86::translate_kernel(kernel, path.string(), cubin.architecture));
    const auto second = spirv::emit_compute(sass::sm86::translate_kernel(kernel, path.string(), cubin.architecture));
    CHECK(first == second);
  }
}
