#include "tests/translator/sm5x/corpus.h"

#include <filesystem>
#include <map>
#include <regex>

#include <catch2/catch.hpp>

#include "runtime/base/file_writer.h"

namespace kiln::sass::sm5x::test {
namespace {

/// index.json is a flat list of objects with string and number fields; a small pattern reader is enough.
std::vector<CorpusProgram> read_index(const std::filesystem::path& folder) {
  const std::vector<uint8_t> json_bytes = read_file(folder / "index.json");
  const std::string json(json_bytes.begin(), json_bytes.end());
  std::vector<CorpusProgram> programs;
  const std::regex object(R"(\{[^{}]*\})");
  const std::regex field(R"re("(\w+)"\s*:\s*("([^"]*)"|-?\d+))re");
  const size_t programs_at = json.find("\"programs\"");
  REQUIRE(programs_at != std::string::npos);
  for (auto it = std::sregex_iterator(json.begin() + static_cast<std::ptrdiff_t>(programs_at), json.end(), object);
       it != std::sregex_iterator(); ++it) {
    std::map<std::string, std::string> fields;
    const std::string text = it->str();
    for (auto f = std::sregex_iterator(text.begin(), text.end(), field); f != std::sregex_iterator(); ++f) {
      fields[(*f)[1]] = (*f)[3].matched ? (*f)[3].str() : (*f)[2].str();
    }
    CorpusProgram program;
    program.name = fields["name"];
    program.file = (folder / fields["file"]).string();
    program.type = fields["type"];
    program.stage = fields["stage"];
    program.register_count = std::stoi(fields["register_count"]);
    program.bytes = read_file(program.file);
    programs.push_back(std::move(program));
  }
  return programs;
}

} // namespace

const std::vector<CorpusProgram>& corpus(const std::string& architecture) {
  static std::map<std::string, std::vector<CorpusProgram>> cache;
  auto found = cache.find(architecture);
  if (found == cache.end()) {
    const std::filesystem::path folder = std::filesystem::path(KILN_SHARED_DIR) / "corpus/nvidia-headsurface" / architecture;
    INFO("corpus folder " << folder.string());
    REQUIRE(std::filesystem::exists(folder / "index.json"));  // CI always has it: fail loudly
    found = cache.emplace(architecture, read_index(folder)).first;
    REQUIRE(found->second.size() == 34);
  }
  return found->second;
}

} // namespace kiln::sass::sm5x::test
