#pragma once
// What a corpus kernel is launched with: its launch shape and arguments (random inputs, poisoned outputs,
// scalars), produced from a seed. Shared by kiln's lavapipe tests (tests/translator/run) and the native CUDA
#include <cmath>
// runner (run_on_nvidia.cu), so both see the same inputs for the same seed: only the engine's raw output
// (std::mt19937_64's sequence is fixed by the C++ standard) and integer or exactly rounded arithmetic are used,
// never the library's distributions (their algorithms differ between standard libraries) and never a float
// expression a compiler could contract into a fused multiply-add with a different result.
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace kiln::test {

using Random = std::mt19937_64;

inline constexpr uint8_t poison_byte = 0xa5;

/// How an output buffer is compared: bit-exact, or element-wise within `ulps` units in the last place
/// (float or double) or an absolute `tolerance`.
struct Comparison {
  enum class Kind { Exact, Float32, Float64 } kind = Kind::Exact;
  uint32_t ulps = 0;
  double tolerance = 0;
};

struct Argument {
  enum class Kind { Input, Output, InOut, Scalar } kind = Kind::Input;
  std::vector<uint8_t> bytes; ///< inputs and scalars: the contents; outputs: poisoned, then what the kernel wrote
  Comparison comparison;

  template <typename T>
  std::span<T> as() {
    return {reinterpret_cast<T*>(bytes.data()), bytes.size() / sizeof(T)};
  }
};

struct Launch {
  std::array<uint32_t, 3> block{256, 1, 1};
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::vector<Argument> arguments;
};

/// One corpus kernel's inputs: tests/translator/cuda/<file>.cu, extern "C" kernel `kernel`.
struct CorpusInput {
  std::string file;
  std::string kernel;
  std::function<Launch(Random&)> make;
};

/// The seed a kernel's inputs are made from in a run seeded with `run_seed` (FNV-1a of the name, mixed by
/// SplitMix64's finalizer), so each kernel's inputs do not depend on which other kernels run.
inline uint64_t kernel_seed(uint64_t run_seed, const std::string& kernel) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : kernel) hash = (hash ^ c) * 0x100000001b3ull;
  uint64_t z = run_seed ^ hash;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Helpers for writing inputs.
template <typename T>
Argument input(std::vector<T> values) {
  Argument argument{.kind = Argument::Kind::Input};
  argument.bytes.resize(values.size() * sizeof(T));
  std::memcpy(argument.bytes.data(), values.data(), argument.bytes.size());
  return argument;
}
template <typename T>
Argument output(size_t count, Comparison comparison = {}) {
  Argument argument{.kind = Argument::Kind::Output, .comparison = comparison};
  argument.bytes.assign(count * sizeof(T), poison_byte);
  return argument;
}
template <typename T>
Argument in_out(std::vector<T> values, Comparison comparison = {}) {
  Argument argument = input(std::move(values));
  argument.kind = Argument::Kind::InOut;
  argument.comparison = comparison;
  return argument;
}
template <typename T>
Argument scalar(T value) {
  Argument argument{.kind = Argument::Kind::Scalar};
  argument.bytes.resize(sizeof(T));
  std::memcpy(argument.bytes.data(), &value, sizeof(T));
  return argument;
}
template <typename T>
T scalar_value(const Argument& argument) {
  T value;
  std::memcpy(&value, argument.bytes.data(), sizeof(T));
  return value;
}

template <typename T, typename Generate>
std::vector<T> generate(size_t count, Generate&& make) {
  std::vector<T> values(count);
  for (auto& value : values) value = make(); // in order: the engine's draws are consumed left to right
  return values;
}

/// Uniform in [low, high] (the modulo bias is irrelevant here).
inline int32_t random_int(Random& random, int32_t low, int32_t high) {
  const uint64_t span = static_cast<uint64_t>(static_cast<int64_t>(high) - low) + 1;
  return static_cast<int32_t>(low + static_cast<int64_t>(random() % span));
}
/// Uniform in [low, high]: a 24-bit fraction times the float span is exact in double, so contracting the
/// sum into an FMA cannot change the result; one rounding to float.
inline float random_float(Random& random, float low, float high) {
  const double unit = static_cast<double>(random() >> 40) * 0x1p-24;
  return static_cast<float>(static_cast<double>(low) + static_cast<double>(high - low) * unit);
}
/// Uniform in [low, high] for spans with at most 21 significant bits (1.0, 2e6, ...): the product of the
/// span and a 32-bit fraction is exact, for the same reason as above.
inline double random_double(Random& random, double low, double high) {
  const double unit = static_cast<double>(random() >> 32) * 0x1p-32;
  return low + (high - low) * unit;
}
inline uint32_t div_ceil_u32(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

} // namespace kiln::test
