#pragma once
// Every corpus kernel's inputs (corpus_inputs_common.h says how they are made): the one definition that
// kiln's lavapipe tests and the native runner (run_on_nvidia.cu) share.
#include "tests/translator/cuda/corpus_inputs_common.h"
#include "tests/translator/cuda/corpus_inputs_float.h"
#include "tests/translator/cuda/corpus_inputs_integer.h"
#include "tests/translator/cuda/corpus_inputs_memory.h"
#include "tests/translator/cuda/corpus_inputs_parallel.h"

namespace kiln::test {

inline std::vector<CorpusInput> corpus_inputs() {
  std::vector<CorpusInput> inputs;
  integer_inputs::add(inputs);
  float_inputs::add(inputs);
  memory_inputs::add(inputs);
  parallel_inputs::add(inputs);
  return inputs;
}

} // namespace kiln::test
