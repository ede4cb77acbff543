// Build step of bench_maxwell: compiles the synthetic frame's macros to C++, as `kiln gpu compile-macros` does
// for a title's capture.
#include <cstdio>

#include "runtime/base/file_writer.h"
#include "runtime/gpu/maxwell/capture.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/mme/codegen.h"
#include "runtime/gpu/maxwell/replay.h"
#include "runtime/gpu/maxwell/synthetic_frame.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: generate_bench_macros OUTPUT.cpp\n");
    return 2;
  }
  using namespace kiln::maxwell;
  Gpu gpu;
  CaptureRecorder recorder(gpu);
  submit_synthetic_frame(gpu, SyntheticFrameOptions{1});
  gpu.run();
  const ReplayResult result = replay(recorder.finish());
  kiln::write_file_if_changed(argv[1], mme::compile_macro_file(result.uploaded_macros));
  return result.uploaded_macros.empty() ? 1 : 0;
}
