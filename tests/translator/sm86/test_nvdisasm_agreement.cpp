// Issue 4, test 6a: for every instruction NVIDIA's nvdisasm listed, kiln's disassembly of the same 128-bit word
// equals nvdisasm's text (after whitespace normalisation), and assembling the decoded form gives the word back.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <map>

#include "runtime/base/error.h"
#include "tests/translator/sm86/nvdisasm_listing.h"
#include "translator/sass/sm86/instruction.h"

namespace sm86 = kiln::sass::sm86;
namespace fs = std::filesystem;

namespace {

struct Agreement {
  size_t total = 0;
  size_t decoded = 0;
  size_t agreeing = 0;
  size_t round_trips = 0;
  std::map<std::string, size_t> failures_by_mnemonic;
  std::vector<std::string> examples;

  void check(const sm86::testing::ListedInstruction& listed, const std::string& file, sm86::Architecture architecture) {
    ++total;
    const std::string mnemonic = listed.text.substr(listed.text.starts_with('@') ? listed.text.find(' ') + 1 : 0);
    const std::string opcode = mnemonic.substr(0, mnemonic.find_first_of(" ."));
    std::string ours;
    try {
      const auto instruction = sm86::decode(listed.word, listed.offset, {file, listed.function, 0}, architecture);
      ++decoded;
      ours = sm86::disassemble(instruction);
      if (sm86::assemble(instruction) == listed.word) ++round_trips;
    } catch (const kiln::Error& error) {
      ours = std::string("error: ") + error.what();
    }
    if (ours == listed.text) {
      ++agreeing;
      return;
    }
    if (failures_by_mnemonic[opcode]++ < 3) {
      examples.push_back(fmt::format("{}:{:04x} 0x{:016x}{:016x}\n    nvdisasm: {}\n    kiln:     {}", fs::path(file).filename().string(),
                                     listed.offset, listed.word.high, listed.word.low, listed.text, ours));
    }
  }

  std::string report() const {
    std::string text = fmt::format("{} instructions, {} decoded, {} agree with nvdisasm, {} round-trip through assemble\n",
                                   total, decoded, agreeing, round_trips);
    for (const auto& [mnemonic, count] : failures_by_mnemonic) text += fmt::format("  {} disagreements: {}\n", mnemonic, count);
    for (const auto& example : examples) text += example + "\n";
    return text;
  }
};

fs::path corpus_folder() { return fs::path(KILN_SHARED_DIR) / "corpus" / "nvidia-headsurface" / "turing" / "nvdisasm"; }

} // namespace

TEST_CASE("sm86 decoder agrees with nvdisasm on NVIDIA's Turing headsurface programs", "[sm86][nvdisasm]") {
  const fs::path folder = corpus_folder();
  // The corpus is always present in CI; a missing folder there must fail, not skip.
  REQUIRE(fs::is_directory(folder));
  Agreement agreement;
  std::vector<fs::path> listings;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() == ".sass") listings.push_back(entry.path());
  }
  std::sort(listings.begin(), listings.end());
  REQUIRE(listings.size() == 34);
  for (const auto& path : listings) {
    for (const auto& listed : sm86::testing::read_nvdisasm_listing(path)) agreement.check(listed, path.string(), sm86::Architecture::sm75);
  }
  INFO(agreement.report());
  WARN(fmt::format("Turing corpus: {} instructions, {} agree with nvdisasm", agreement.total, agreement.agreeing));
  CHECK(agreement.total > 15000);
  CHECK(agreement.decoded == agreement.total);
  CHECK(agreement.round_trips == agreement.decoded);
  CHECK(agreement.agreeing == agreement.total);
}
