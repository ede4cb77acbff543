// Runs every corpus kernel natively on an NVIDIA GPU with the inputs kiln's lavapipe tests use (corpus_inputs.h,
// same seeds) and records each kernel's outputs (corpus_outputs.h), so that kiln's translations can be checked
// against the hardware (tests/translator/run/test_corpus_against_nvidia.cpp). Host code only, CUDA driver API:
// the kernels come from cubins that run_on_nvidia.sh compiles for the GPU at hand.
//   run_on_nvidia CUBIN_DIR OUT_DIR SEED [KERNEL...]
#include <cuda.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "tests/translator/cuda/corpus_inputs.h"
#include "tests/translator/cuda/corpus_outputs.h"

namespace {

void check(CUresult result, const char* what, const std::string& kernel) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  std::fprintf(stderr, "run_on_nvidia: %s: %s failed: %s\n", kernel.c_str(), what, name ? name : "unknown error");
  std::exit(1);
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: run_on_nvidia CUBIN_DIR OUT_DIR SEED [KERNEL...]\n");
    return 2;
  }
  const std::string cubin_dir = argv[1], out_dir = argv[2];
  const uint64_t seed = std::strtoull(argv[3], nullptr, 0);
  const std::vector<std::string> only(argv + 4, argv + argc);

  check(cuInit(0), "cuInit", "-");
  CUdevice device;
  check(cuDeviceGet(&device, 0), "cuDeviceGet", "-");
  char device_name[256] = {};
  cuDeviceGetName(device_name, sizeof(device_name), device);
  CUcontext context;
  check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain", "-");
  check(cuCtxSetCurrent(context), "cuCtxSetCurrent", "-");
  std::printf("run_on_nvidia: %s, seed %llu\n", device_name, static_cast<unsigned long long>(seed));

  std::map<std::string, CUmodule> modules;
  size_t recorded = 0;
  for (const kiln::test::CorpusInput& input : kiln::test::corpus_inputs()) {
    if (!only.empty() && std::find(only.begin(), only.end(), input.kernel) == only.end()) continue;
    auto [module, inserted] = modules.try_emplace(input.file);
    if (inserted) check(cuModuleLoad(&module->second, (cubin_dir + "/" + input.file + ".cubin").c_str()), "cuModuleLoad", input.kernel);
    CUfunction function;
    check(cuModuleGetFunction(&function, module->second, input.kernel.c_str()), "cuModuleGetFunction", input.kernel);

    kiln::test::Random random(kiln::test::kernel_seed(seed, input.kernel));
    kiln::test::Launch launch = input.make(random);
    std::vector<CUdeviceptr> pointers(launch.arguments.size(), 0);
    std::vector<void*> parameters(launch.arguments.size(), nullptr);
    for (size_t i = 0; i < launch.arguments.size(); ++i) {
      kiln::test::Argument& argument = launch.arguments[i];
      if (argument.kind == kiln::test::Argument::Kind::Scalar) {
        parameters[i] = argument.bytes.data();
        continue;
      }
      check(cuMemAlloc(&pointers[i], argument.bytes.size() + 16), "cuMemAlloc", input.kernel);
      check(cuMemcpyHtoD(pointers[i], argument.bytes.data(), argument.bytes.size()), "cuMemcpyHtoD", input.kernel); // outputs poisoned
      parameters[i] = &pointers[i];
    }
    check(cuLaunchKernel(function, launch.grid[0], launch.grid[1], launch.grid[2], launch.block[0], launch.block[1], launch.block[2], 0,
                         nullptr, parameters.data(), nullptr),
          "cuLaunchKernel", input.kernel);
    check(cuCtxSynchronize(), "cuCtxSynchronize", input.kernel);
    for (size_t i = 0; i < launch.arguments.size(); ++i) {
      kiln::test::Argument& argument = launch.arguments[i];
      if (argument.kind == kiln::test::Argument::Kind::Scalar) continue;
      if (argument.kind != kiln::test::Argument::Kind::Input) {
        check(cuMemcpyDtoH(argument.bytes.data(), pointers[i], argument.bytes.size()), "cuMemcpyDtoH", input.kernel);
      }
      check(cuMemFree(pointers[i]), "cuMemFree", input.kernel);
    }
    const std::string path = out_dir + "/" + input.kernel + ".out";
    if (!kiln::test::write_recorded_outputs(path, seed, launch)) {
      std::fprintf(stderr, "run_on_nvidia: cannot write %s\n", path.c_str());
      return 1;
    }
    ++recorded;
  }
  std::printf("run_on_nvidia: %zu kernels recorded in %s\n", recorded, out_dir.c_str());
  return 0;
}
