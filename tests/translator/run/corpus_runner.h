#pragma once
// Runs one corpus kernel, translated by kiln, on a Vulkan device (lavapipe in the tests) and compares outputs
// element by element: what the lavapipe tests against the C++ references and against NVIDIA hardware share.
#include <string>

#include "runtime/gpu/vulkan/context.h"
#include "tests/translator/run/corpus_case.h"
#include "translator/sass/sm86/cubin.h"

namespace kiln::test {

/// Constant bank 0 as CUDA's driver fills it for `launch`: the kernel's .nv.constant0 with the driver area
/// (blockDim, gridDim and the local-memory stack top where `family` has them: sass::sm86::driver_constants) and the parameters, pointer arguments
/// given by `addresses` (one per argument; scalars' entries are unused).
std::vector<uint8_t> driver_constant_bank0(const sass::sm86::Kernel& kernel, const Launch& launch, const std::vector<uint64_t>& addresses,
                                           sass::sm86::InstructionSet family = sass::sm86::InstructionSet::volta);

/// Translates `kernel` (its module must pass spirv-val), runs it on `launch` (outputs come poisoned) and
/// returns the launch with every output and in-out argument as the device left it.
Launch run_translated(vulkan::Context& context, const sass::sm86::Cubin& cubin, const sass::sm86::Kernel& kernel,
                      const std::string& file, const Launch& launch);

/// Elements of `actual` outside `expected.comparison`'s bounds; the first few are described in `report`.
size_t compare(const Argument& expected, const Argument& actual, std::string& report);

/// compare() over every output and in-out argument; `report` names each argument that differs.
size_t compare_outputs(const Launch& expected, const Launch& actual, std::string& report);

} // namespace kiln::test
