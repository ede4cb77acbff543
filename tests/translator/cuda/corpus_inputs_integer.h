#pragma once
// Inputs and launch shapes of the integer corpus cases (see corpus_inputs.h).
#include <cmath>

#include "tests/translator/cuda/corpus_inputs_common.h"

namespace kiln::test::integer_inputs {

constexpr int n = 1000; // not a multiple of the block size: the last block has idle threads

inline Launch one_dimensional(std::vector<Argument> arguments) {
  Launch launch;
  launch.grid[0] = div_ceil_u32(n, launch.block[0]);
  launch.arguments = std::move(arguments);
  return launch;
}

inline std::vector<int32_t> ints(Random& random) {
  return generate<int32_t>(n, [&] { return random() % 4 == 0 ? random_int(random, -100, 100) : static_cast<int32_t>(random()); });
}
inline std::vector<uint32_t> uints(Random& random) {
  return generate<uint32_t>(n, [&] { return random() % 4 == 0 ? static_cast<uint32_t>(random() % 1000) : static_cast<uint32_t>(random()); });
}
inline std::vector<uint64_t> ulongs(Random& random) {
  return generate<uint64_t>(n, [&] { return random() % 4 == 0 ? random() % 100000 : random() >> (random() % 64); });
}

inline void add(std::vector<CorpusInput>& inputs) {
  inputs.push_back({"integer_arithmetic", "int_add_sub_mul",
                    [](Random& r) { return one_dimensional({input(ints(r)), input(ints(r)), output<int32_t>(n), scalar(n)}); }});
  inputs.push_back({"integer_arithmetic", "int_mul_high",
                    [](Random& r) { return one_dimensional({input(uints(r)), input(uints(r)), output<uint32_t>(2 * n), scalar(n)}); }});
  inputs.push_back({"integer_arithmetic", "int_divide_signed",
                    [](Random& r) {
                     auto a = ints(r);
                     for (auto& v : a) v = v == INT32_MIN ? 0 : v; // INT_MIN / -1 overflows in C++
                     return one_dimensional({input(a), input(ints(r)), output<int32_t>(2 * n), scalar(n)});
                   }});
  inputs.push_back({"integer_arithmetic", "int_divide_unsigned",
                    [](Random& r) { return one_dimensional({input(uints(r)), input(uints(r)), output<uint32_t>(2 * n), scalar(n)}); }});
  inputs.push_back({"integer_arithmetic", "int_divide_by_constant",
                    [](Random& r) { return one_dimensional({input(ints(r)), output<int32_t>(3 * n), scalar(n)}); }});
  inputs.push_back({"integer_arithmetic", "int_min_max_abs",
                    [](Random& r) { return one_dimensional({input(ints(r)), input(ints(r)), output<int32_t>(4 * n), scalar(n)}); }});
  inputs.push_back({"integer_arithmetic", "int_saturating_clamp",
                    [](Random& r) {
                     const int32_t lo = random_int(r, -100000, 0), hi = random_int(r, 1, 100000);
                     return one_dimensional({input(ints(r)), scalar(lo), scalar(hi), output<int32_t>(n), scalar(n)});
                   }});

  inputs.push_back({"integer_64bit", "int64_add_mul",
                    [](Random& r) { return one_dimensional({input(ulongs(r)), input(ulongs(r)), output<uint64_t>(n), scalar(n)}); }});
  inputs.push_back({"integer_64bit", "int64_shifts",
                    [](Random& r) { return one_dimensional({input(ulongs(r)), input(ints(r)), output<uint64_t>(3 * n), scalar(n)}); }});
  inputs.push_back({"integer_64bit", "int64_compare_select",
                    [](Random& r) {
                     auto a = ulongs(r), b = ulongs(r);
                     for (int i = 0; i < n; i += 7) b[i] = a[i]; // equal pairs
                     return one_dimensional({input(a), input(b), output<uint64_t>(n), scalar(n)});
                   }});
  inputs.push_back({"integer_64bit", "int64_divide",
                    [](Random& r) { return one_dimensional({input(ulongs(r)), input(ulongs(r)), output<uint64_t>(2 * n), scalar(n)}); }});
  inputs.push_back({"integer_64bit", "int64_wide_multiply",
                    [](Random& r) { return one_dimensional({input(uints(r)), input(uints(r)), output<uint64_t>(n), scalar(n)}); }});

  inputs.push_back({"bit_manipulation", "bits_logic",
                    [](Random& r) { return one_dimensional({input(uints(r)), input(uints(r)), input(uints(r)), output<uint32_t>(2 * n), scalar(n)}); }});
  inputs.push_back({"bit_manipulation", "bits_count",
                    [](Random& r) { return one_dimensional({input(uints(r)), output<uint32_t>(4 * n), scalar(n)}); }});
  inputs.push_back({"bit_manipulation", "bits_funnel_rotate",
                    [](Random& r) {
                     return one_dimensional({input(uints(r)), input(uints(r)), input(generate<int32_t>(n, [&] { return random_int(r, 0, 70); })),
                                             output<uint32_t>(3 * n), scalar(n)});
                   }});
  inputs.push_back({"bit_manipulation", "bits_byte_permute",
                    [](Random& r) { return one_dimensional({input(uints(r)), input(uints(r)), input(uints(r)), output<uint32_t>(2 * n), scalar(n)}); }});
  inputs.push_back({"bit_manipulation", "bits_field_extract_insert",
                    [](Random& r) { return one_dimensional({input(uints(r)), input(uints(r)), input(ints(r)), output<uint32_t>(2 * n), scalar(n)}); }});
}

} // namespace kiln::test::integer_inputs
