#pragma once
// One corpus kernel as a test runs it: its launch shape, its arguments (random inputs, poisoned outputs,
// scalars) and a C++ reference of the same CUDA source that computes the expected outputs.
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace kiln::test {

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
  std::vector<uint8_t> bytes; ///< inputs and scalars: the contents; outputs: filled by the reference
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

struct CorpusCase {
  std::string file;   ///< corpus file stem (tests/translator/cuda/<file>.cu)
  std::string kernel;
  std::function<Launch(std::mt19937_64&)> make;
  std::function<void(Launch&)> reference; ///< computes the expected outputs in place (outputs start poisoned)
};

/// All cases, from the corpus_*.cpp files.
std::vector<CorpusCase> corpus_cases();
void add_integer_cases(std::vector<CorpusCase>& cases);
void add_float_cases(std::vector<CorpusCase>& cases);
void add_memory_cases(std::vector<CorpusCase>& cases);
void add_parallel_cases(std::vector<CorpusCase>& cases);

// Helpers for writing cases.
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
  for (auto& value : values) value = make();
  return values;
}

inline float random_float(std::mt19937_64& random, float low, float high) {
  return std::uniform_real_distribution<float>(low, high)(random);
}
inline int32_t random_int(std::mt19937_64& random, int32_t low, int32_t high) {
  return std::uniform_int_distribution<int32_t>(low, high)(random);
}
inline uint32_t div_ceil_u32(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

} // namespace kiln::test
