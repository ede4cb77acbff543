#pragma once
// One corpus kernel as a test runs it: its inputs (tests/translator/cuda/corpus_inputs.h, shared with the
// native runner) and a C++ reference of the same CUDA source that computes the expected outputs.
#include <bit>
#include <functional>

#include "tests/translator/cuda/corpus_inputs.h"

namespace kiln::test {

struct CorpusCase {
  std::string file;   ///< corpus file stem (tests/translator/cuda/<file>.cu)
  std::string kernel;
  std::function<void(Launch&)> reference; ///< computes the expected outputs in place (outputs start poisoned)
  std::function<Launch(Random&)> make = {}; ///< filled by corpus_cases() from corpus_inputs()
};

/// All cases, each with its inputs; throws if a kernel has inputs but no reference or the reverse.
std::vector<CorpusCase> corpus_cases();
void add_integer_cases(std::vector<CorpusCase>& cases);
void add_float_cases(std::vector<CorpusCase>& cases);
void add_memory_cases(std::vector<CorpusCase>& cases);
void add_parallel_cases(std::vector<CorpusCase>& cases);

} // namespace kiln::test
