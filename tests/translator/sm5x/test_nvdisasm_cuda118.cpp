// Every instruction word of the CUDA 11.8 corpus listings for sm_50-62 (tests/translator/fixtures/cuda11.8, made
// by tests/translator/cuda/regenerate_cuda118.sh) decodes with kiln's SM5x decoder, prints exactly as NVIDIA's
// nvdisasm printed it and assembles back to its word (the TEXS/TLDS/TLD4S lines also from their text, through kiln's
// text assembler); the counts per architecture are printed.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>

#include "runtime/base/error.h"
#include "tests/translator/sm86/nvdisasm_listing.h"
#include "translator/sass/sm5x/instruction.h"
#include "translator/sass/sm5x/text_assembler.h"
#include "translator/sass/sm86/cubin.h"

namespace fs = std::filesystem;
namespace sm5x = kiln::sass::sm5x;
namespace sm86 = kiln::sass::sm86;

namespace {

struct Counts {
  size_t total = 0, decoded = 0, agreeing = 0, round_trips = 0;
  size_t scalar_texture_listed = 0, scalar_texture_assembled = 0;  // TEXS/TLDS/TLD4S lines, those kiln's text assembler reads
  std::map<std::string, size_t> failures_by_opcode;
  std::vector<std::string> examples;
};

bool is_scalar_texture(const std::string& text) {
  return text.starts_with("TEXS") || text.starts_with("TLDS") || text.starts_with("TLD4S");
}

/// Texture instructions print the control word's reuse flags as .T/.P; the instruction word does not hold them.
std::string without_reuse_flags(std::string text) {
  for (const std::string_view flag : {".T ", ".P "}) {
    for (size_t at; (at = text.find(flag)) != std::string::npos;) text.erase(at, 2);
  }
  return text;
}

void check(Counts& counts, const sm86::testing::ListedInstruction& listed, const std::string& file, uint8_t reuse) {
  ++counts.total;
  std::string ours;
  try {
    const sm5x::Instruction instruction = sm5x::decode(listed.word.low, listed.offset, file);
    ++counts.decoded;
    ours = sm5x::disassemble(instruction, reuse);
    if (sm5x::assemble(instruction) == listed.word.low) ++counts.round_trips;
  } catch (const kiln::Error& error) {
    ours = std::string("error: ") + error.what();
  }
  if (is_scalar_texture(listed.text)) {
    ++counts.scalar_texture_listed;
    try {
      if (sm5x::assemble_sass(without_reuse_flags(listed.text)) == listed.word.low) ++counts.scalar_texture_assembled;
    } catch (const kiln::Error& error) {
      counts.examples.push_back(fmt::format("{}:{:04x} text assembler: {}", file, listed.offset, error.what()));
    }
  }
  if (ours == listed.text) {
    ++counts.agreeing;
    return;
  }
  if (const char* path = std::getenv("KILN_NVDISASM_FAILURES")) {
    std::ofstream(path, std::ios::app) << fmt::format("{}\t{:04x}\t{:016x}\t{}\t{}\n", file, listed.offset, listed.word.low,
                                                    listed.text, ours);
  }
  const std::string text = listed.text.substr(listed.text.starts_with('@') ? listed.text.find(' ') + 1 : 0);
  const std::string opcode = text.substr(0, text.find_first_of(" ."));
  if (counts.failures_by_opcode[opcode]++ < 2) {
    counts.examples.push_back(fmt::format("{}:{:04x} 0x{:016x}\n    nvdisasm: {}\n    kiln:     {}", file, listed.offset,
                                          listed.word.low, listed.text, ours));
  }
}

std::string report(const Counts& counts) {
  std::string text;
  for (const auto& [opcode, count] : counts.failures_by_opcode) text += fmt::format("  {}: {}\n", opcode, count);
  for (const auto& example : counts.examples) text += example + "\n";
  return text;
}

} // namespace

TEST_CASE("sm5x decoder agrees with nvdisasm 11.8 on every word of the sm_50-62 corpus listings", "[sm5x][nvdisasm]") {
  for (const char* folder : {"sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_53-G"}) {
    Counts counts;
    size_t kernels = 0;
    const std::vector<fs::path> cubins = sm86::testing::cuda118_cubins(folder);
    for (const auto& path : cubins) {
      const std::string name = fmt::format("{}/{}", folder, path.filename().string());
      INFO(name);
      const sm86::Cubin cubin = sm86::load_cubin(path);
      REQUIRE(cubin.family == sm86::InstructionSet::maxwell);
      REQUIRE(fmt::format("sm_{}", cubin.sm_version) == std::string(folder).substr(0, 5));
      const auto listing = sm86::testing::read_nvdisasm_listing(fs::path(path).replace_extension(".sass"),
                                                                sm86::testing::ListingLayout::maxwell);
      for (const auto& kernel : cubin.kernels) {
        ++kernels;
        size_t listed_in_kernel = 0;
        for (const auto& listed : listing) {
          if (listed.function != kernel.name) continue;
          ++listed_in_kernel;
          // The listing and the cubin hold the same word at the same offset (never a control word's slot).
          REQUIRE(listed.offset % 32 != 0);
          REQUIRE(listed.offset + 8 <= kernel.code.size());
          uint64_t word = 0;
          std::memcpy(&word, kernel.code.data() + listed.offset, 8);
          REQUIRE(word == listed.word.low);
          uint64_t control = 0;
          std::memcpy(&control, kernel.code.data() + (listed.offset & ~uint64_t{31}), 8);
          const uint8_t reuse = sm5x::decode_control_word(control).at((listed.offset % 32) / 8 - 1).reuse;
          sm86::testing::ListedInstruction compared = listed;
          if (sm86::testing::replace_relocated_operands(compared.text)) {
            // A relocated operand (MOV32I R20, 32@lo(__cudart_i2opi_f)): the cubin must relocate this word.
            CHECK(std::ranges::count(kernel.code_relocations, listed.offset) == 1);
          }
          check(counts, compared, name, reuse);
        }
        CHECK(listed_in_kernel * 32 == kernel.code.size() * 3);
      }
    }
    WARN(fmt::format("{}: {} cubins, {} kernels, {} instructions, {} decoded, {} print as nvdisasm does, {} round-trip; TEXS/TLDS/TLD4S: {} listed, {} assemble from their text",
                     folder, cubins.size(), kernels, counts.total, counts.decoded, counts.agreeing, counts.round_trips, counts.scalar_texture_listed,
                     counts.scalar_texture_assembled));
    INFO(report(counts));
    CHECK(kernels >= 50);
    CHECK(counts.round_trips == counts.decoded);
    // The text assembler reads nvdisasm's notation of the scalar texture forms back to the listed words.
    CHECK(counts.scalar_texture_assembled == counts.scalar_texture_listed);
    if (std::string(folder) != "sm_53-G") CHECK(counts.scalar_texture_listed >= 4);
    // Every listed word decodes, prints exactly as nvdisasm printed it and assembles back to itself.
    CHECK(counts.decoded == counts.total);
    CHECK(counts.agreeing == counts.total);
  }
}
