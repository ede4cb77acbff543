#pragma once
// The nvidia-headsurface corpus (../shared/corpus/nvidia-headsurface): NVIDIA's own Maxwell and Pascal
// compiles of the same 34 programs.
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::sass::sm5x::test {

struct CorpusProgram {
  std::string name;   ///< index.json "name"
  std::string file;   ///< full path
  std::string type;   ///< index.json "type" (NV3D_SHADER_TYPE_VERTEX / _PIXEL)
  std::string stage;  ///< index.json "stage"
  int register_count = 0;
  std::vector<uint8_t> bytes;
};

/// The programs of `architecture` ("maxwell" or "pascal"); fails the test when the corpus is missing.
const std::vector<CorpusProgram>& corpus(const std::string& architecture);

} // namespace kiln::sass::sm5x::test
