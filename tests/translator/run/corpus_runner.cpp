// Translation, dispatch on Vulkan and comparison of one corpus kernel (corpus_runner.h).
#include "tests/translator/run/corpus_runner.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "tests/gpu/compute/compute_dispatch.h"
#include "translator/sass/sm5x/lower.h"
#include "translator/sass/sm86/constant_buffer.h"
#include "translator/sass/sm86/lower.h"
#include "translator/spirv/emit_compute.h"
#include "translator/spirv/validate.h"

namespace kiln::test {
namespace {

int64_t ulp_distance(double expected, double actual, bool is_double) {
  const auto ordered = [&](double value) -> int64_t {
    if (is_double) {
      const auto bits = std::bit_cast<int64_t>(value);
      return bits < 0 ? INT64_MIN - bits : bits;
    }
    const auto bits = std::bit_cast<int32_t>(static_cast<float>(value));
    return bits < 0 ? INT32_MIN - static_cast<int64_t>(bits) : bits;
  };
  return std::abs(ordered(expected) - ordered(actual));
}

} // namespace

size_t compare(const Argument& expected, const Argument& actual, std::string& report) {
  size_t mismatches = 0;
  const auto note = [&](size_t index, const std::string& text) {
    if (++mismatches <= 4) report += fmt::format("  [{}] {}\n", index, text);
  };
  switch (expected.comparison.kind) {
  case Comparison::Kind::Exact:
    for (size_t i = 0; i + 4 <= expected.bytes.size(); i += 4) {
      uint32_t e, a;
      std::memcpy(&e, expected.bytes.data() + i, 4);
      std::memcpy(&a, actual.bytes.data() + i, 4);
      if (e != a) note(i / 4, fmt::format("word {:#010x}, expected {:#010x}", a, e));
    }
    for (size_t i = expected.bytes.size() / 4 * 4; i < expected.bytes.size(); ++i) {
      if (expected.bytes[i] != actual.bytes[i]) note(i, fmt::format("byte {:#04x}, expected {:#04x}", actual.bytes[i], expected.bytes[i]));
    }
    break;
  case Comparison::Kind::Float32:
  case Comparison::Kind::Float64: {
    const bool is_double = expected.comparison.kind == Comparison::Kind::Float64;
    const size_t size = is_double ? 8 : 4;
    for (size_t i = 0; i + size <= expected.bytes.size(); i += size) {
      double e, a;
      if (is_double) {
        std::memcpy(&e, expected.bytes.data() + i, 8);
        std::memcpy(&a, actual.bytes.data() + i, 8);
      } else {
        float ef, af;
        std::memcpy(&ef, expected.bytes.data() + i, 4);
        std::memcpy(&af, actual.bytes.data() + i, 4);
        e = ef, a = af;
      }
      const bool both_nan = std::isnan(e) && std::isnan(a);
      const bool close = std::abs(e - a) <= expected.comparison.tolerance || ulp_distance(e, a, is_double) <= expected.comparison.ulps;
      if (!both_nan && !close) note(i / size, fmt::format("{} expected {} ({} ulps)", a, e, ulp_distance(e, a, is_double)));
    }
    break;
  }
  }
  return mismatches;
}

std::vector<uint8_t> driver_constant_bank0(const sass::sm86::Kernel& kernel, const Launch& launch, const std::vector<uint64_t>& addresses,
                                           sass::sm86::InstructionSet family) {
  // CUDA's layout: the driver area (launch shape, local-memory stack top), then the parameters at the offsets
  // .nv.info gives.
  const sass::sm86::DriverConstants driver = sass::sm86::driver_constants(family);
  std::vector<uint8_t> bank(std::max<size_t>(kernel.constant0.size(), kernel.parameter_base + kernel.parameter_size), 0);
  std::copy(kernel.constant0.begin(), kernel.constant0.end(), bank.begin());
  const auto put = [&](size_t offset, const void* data, size_t size) {
    if (offset + size > bank.size()) throw Error(fmt::format("kernel {}: constant bank 0 too small for {} bytes at {:#x}", kernel.name, size, offset));
    std::memcpy(bank.data() + offset, data, size);
  };
  put(driver.block_dim, launch.block.data(), 12);
  put(driver.grid_dim, launch.grid.data(), 12);
  put(driver.stack_top, &kernel.local_memory_size, 4);
  if (kernel.parameters.size() != launch.arguments.size()) {
    throw Error(fmt::format("kernel {}: {} parameters, {} arguments", kernel.name, kernel.parameters.size(), launch.arguments.size()));
  }
  for (size_t i = 0; i < launch.arguments.size(); ++i) {
    const auto& parameter = kernel.parameters[i];
    const auto& argument = launch.arguments[i];
    if (argument.kind == Argument::Kind::Scalar) {
      if (parameter.size != argument.bytes.size()) throw Error(fmt::format("kernel {}: parameter {} has {} bytes, the argument {}", kernel.name, i, parameter.size, argument.bytes.size()));
      put(kernel.parameter_base + parameter.offset, argument.bytes.data(), argument.bytes.size());
    } else {
      if (parameter.size != 8) throw Error(fmt::format("kernel {}: parameter {} is not a pointer", kernel.name, i));
      put(kernel.parameter_base + parameter.offset, &addresses[i], 8);
    }
  }
  return bank;
}

Launch run_translated(vulkan::Context& context, const sass::sm86::Cubin& cubin, const sass::sm86::Kernel& kernel,
                      const std::string& file, const Launch& launch) {
  const bool maxwell = cubin.family == sass::sm86::InstructionSet::maxwell;
  const std::vector<uint32_t> module =
      spirv::emit_compute(maxwell ? sass::sm5x::lower_kernel(kernel, file) : sass::sm86::translate_kernel(kernel, file, cubin.architecture));
  const auto messages = spirv::validate(module);
  if (!messages.empty()) throw Error(fmt::format("{}: {}: spirv-val: {}", file, kernel.name, messages.front()));
  std::vector<gpu::AddressableBuffer> buffers(launch.arguments.size());
  std::vector<uint64_t> addresses(launch.arguments.size(), 0);
  for (size_t i = 0; i < launch.arguments.size(); ++i) {
    const auto& argument = launch.arguments[i];
    if (argument.kind == Argument::Kind::Scalar) continue;
    buffers[i] = gpu::create_addressable_buffer(context, std::max<size_t>(argument.bytes.size(), 16));
    std::memcpy(buffers[i].mapped, argument.bytes.data(), argument.bytes.size()); // outputs come poisoned
    addresses[i] = buffers[i].address;
  }
  // The module's global memory (tables that constant-bank relocations point at), fresh for each run.
  gpu::AddressableBuffer globals = gpu::create_addressable_buffer(context, std::max<uint64_t>(cubin.global_size, 16));
  std::memset(globals.mapped, 0, globals.size);
  std::copy(cubin.global_init.begin(), cubin.global_init.end(), globals.mapped);
  const std::vector<uint8_t> bank = sass::sm86::pack_constant_buffer(kernel, driver_constant_bank0(kernel, launch, addresses, cubin.family), globals.address);
  gpu::run_compute(context, {.spirv = module, .entry_point = kernel.name, .block = launch.block, .grid = launch.grid, .constant_bank = bank});

  Launch result = launch;
  for (size_t i = 0; i < launch.arguments.size(); ++i) {
    Argument& argument = result.arguments[i];
    if (argument.kind == Argument::Kind::Output || argument.kind == Argument::Kind::InOut) {
      std::memcpy(argument.bytes.data(), buffers[i].mapped, argument.bytes.size());
    }
  }
  return result;
}

size_t compare_outputs(const Launch& expected, const Launch& actual, std::string& report) {
  size_t mismatches = 0;
  for (size_t i = 0; i < expected.arguments.size(); ++i) {
    const Argument& argument = expected.arguments[i];
    if (argument.kind != Argument::Kind::Output && argument.kind != Argument::Kind::InOut) continue;
    std::string buffer_report;
    const size_t wrong = compare(argument, actual.arguments[i], buffer_report);
    if (wrong != 0) report += fmt::format(" argument {}: {} element(s) differ\n{}", i, wrong, buffer_report);
    mismatches += wrong;
  }
  return mismatches;
}

} // namespace kiln::test
