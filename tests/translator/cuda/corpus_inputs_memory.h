#pragma once
// Inputs and launch shapes of the memory corpus cases (see corpus_inputs.h).
#include <cmath>

#include "tests/translator/cuda/corpus_inputs_common.h"

namespace kiln::test::memory_inputs {

constexpr int n = 1000;

inline Launch one_dimensional(std::vector<Argument> arguments, int elements = n) {
  Launch launch;
  launch.grid[0] = div_ceil_u32(elements, launch.block[0]);
  launch.arguments = std::move(arguments);
  return launch;
}
inline std::vector<float> floats(Random& random, size_t count = n) {
  return generate<float>(count, [&] { return random_float(random, -1000.0f, 1000.0f); });
}
inline std::vector<int32_t> ints(Random& random, int32_t low, int32_t high) {
  return generate<int32_t>(n, [&] { return random_int(random, low, high); });
}
inline uint32_t u(int32_t value) { return static_cast<uint32_t>(value); }

inline void add(std::vector<CorpusInput>& inputs) {
  inputs.push_back({"memory_access", "memory_strided_copy",
                    [](Random& r) { return one_dimensional({input(floats(r)), output<float>(n), scalar(n), scalar(random_int(r, 1, 100))}); }});
  inputs.push_back({"memory_access", "memory_vector4",
                    [](Random& r) { return one_dimensional({input(floats(r, 4 * n)), output<float>(4 * n), scalar(n)}); }});
  inputs.push_back({"memory_access", "memory_bytes_shorts",
                    [](Random& r) {
                     return one_dimensional({input(generate<uint8_t>(n, [&] { return static_cast<uint8_t>(r()); })),
                                             input(generate<int16_t>(n, [&] { return static_cast<int16_t>(r()); })), output<int32_t>(n),
                                             output<int8_t>(n), output<uint16_t>(n), scalar(n)});
                   }});
  inputs.push_back({"memory_access", "memory_struct_of_three",
                    [](Random& r) { return one_dimensional({input(floats(r, 3 * n)), output<float>(3 * n), scalar(n)}); }});
  inputs.push_back({"memory_access", "memory_int64_and_double",
                    [](Random& r) {
                     return one_dimensional({input(generate<uint64_t>(n, [&] { return r(); })),
                                             input(generate<double>(n, [&] { return random_double(r, -1e6, 1e6); })),
                                             output<uint64_t>(n), output<double>(n), scalar(n)});
                   }});
  inputs.push_back({"memory_access", "memory_local_array",
                    [](Random& r) { return one_dimensional({input(ints(r, -100000, 100000)), output<int32_t>(n), scalar(n)}); }});
  inputs.push_back({"memory_access", "memory_unaligned_tail",
                    [](Random& r) { return one_dimensional({input(generate<uint8_t>(n, [&] { return static_cast<uint8_t>(r()); })), output<uint8_t>(n), scalar(n)}, n / 3 + 1); }});

  inputs.push_back({"local_memory", "local_array_dynamic_index",
                    [](Random& r) { return one_dimensional({input(ints(r, -100000, 100000)), input(generate<int32_t>(8 * n, [&] { return random_int(r, 0, 10000); })),
                                                            output<int32_t>(2 * n), scalar(n)}); }});
  inputs.push_back({"local_memory", "local_array_bytes_and_doubles",
                    [](Random& r) {
                      return one_dimensional({input(generate<double>(n, [&] { return random_double(r, -1000.0, 1000.0); })), input(ints(r, 0, 10000)),
                                              output<double>(n), output<uint8_t>(n), scalar(n)});
                    }});

  inputs.push_back({"control_flow", "branch_divergent",
                    [](Random& r) { return one_dimensional({input(ints(r, -5000, 5000)), output<int32_t>(n), scalar(n)}); }});
  inputs.push_back({"control_flow", "loop_collatz",
                    [](Random& r) { return one_dimensional({input(generate<uint32_t>(n, [&] { return static_cast<uint32_t>(r()); })), output<uint32_t>(n), scalar(n)}); }});
  inputs.push_back({"control_flow", "loop_nested_early_exit",
                    [](Random& r) { return one_dimensional({input(ints(r, 0, 1000)), output<int32_t>(n), scalar(n), scalar(random_int(r, 10000, 40000))}); }});
  inputs.push_back({"control_flow", "branch_switch",
                    [](Random& r) { return one_dimensional({input(ints(r, -100000, 100000)), output<float>(n), scalar(n)}); }});
  inputs.push_back({"control_flow", "predicated_select",
                    [](Random& r) { return one_dimensional({input(floats(r)), input(floats(r)), output<float>(n), scalar(n), scalar(random_float(r, -500, 500))}); }});
  (void)u;
}

} // namespace kiln::test::memory_inputs
