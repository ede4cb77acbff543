// References for memory_access.cu and control_flow.cu.
#include <cmath>

#include "tests/translator/run/corpus_case.h"

namespace kiln::test {
namespace {

constexpr int n = 1000;

Launch one_dimensional(std::vector<Argument> arguments, int elements = n) {
  Launch launch;
  launch.grid[0] = div_ceil_u32(elements, launch.block[0]);
  launch.arguments = std::move(arguments);
  return launch;
}
std::vector<float> floats(std::mt19937_64& random, size_t count = n) {
  return generate<float>(count, [&] { return random_float(random, -1000.0f, 1000.0f); });
}
std::vector<int32_t> ints(std::mt19937_64& random, int32_t low, int32_t high) {
  return generate<int32_t>(n, [&] { return random_int(random, low, high); });
}
uint32_t u(int32_t value) { return static_cast<uint32_t>(value); }

} // namespace

void add_memory_cases(std::vector<CorpusCase>& cases) {
  cases.push_back({"memory_access", "memory_strided_copy",
                   [](auto& r) { return one_dimensional({input(floats(r)), output<float>(n), scalar(n), scalar(random_int(r, 1, 100))}); },
                   [](Launch& l) {
                     const int64_t stride = scalar_value<int32_t>(l.arguments[3]);
                     for (int i = 0; i < n; ++i) l.arguments[1].as<float>()[i] = l.arguments[0].as<float>()[(i * stride) % n];
                   }});
  cases.push_back({"memory_access", "memory_vector4",
                   [](auto& r) { return one_dimensional({input(floats(r, 4 * n)), output<float>(4 * n), scalar(n)}); },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const float* v = &l.arguments[0].as<float>()[4 * i];
                       float* out = &l.arguments[1].as<float>()[4 * i];
                       out[0] = v[3], out[1] = v[2] + 1.0f, out[2] = v[1] * 2.0f, out[3] = v[0];
                     }
                   }});
  cases.push_back({"memory_access", "memory_bytes_shorts",
                   [](auto& r) {
                     return one_dimensional({input(generate<uint8_t>(n, [&] { return static_cast<uint8_t>(r()); })),
                                             input(generate<int16_t>(n, [&] { return static_cast<int16_t>(r()); })), output<int32_t>(n),
                                             output<int8_t>(n), output<uint16_t>(n), scalar(n)});
                   },
                   [](Launch& l) {
                     auto bytes = l.arguments[0].as<uint8_t>();
                     auto shorts = l.arguments[1].as<int16_t>();
                     for (int i = 0; i < n; ++i) {
                       l.arguments[2].as<int32_t>()[i] = bytes[i] + shorts[i] + static_cast<int8_t>(bytes[n - 1 - i]);
                       l.arguments[3].as<uint8_t>()[i] = static_cast<uint8_t>(bytes[i] ^ 0x5a);
                       l.arguments[4].as<uint16_t>()[i] = static_cast<uint16_t>(shorts[i] * 3);
                     }
                   }});
  cases.push_back({"memory_access", "memory_struct_of_three",
                   [](auto& r) { return one_dimensional({input(floats(r, 3 * n)), output<float>(3 * n), scalar(n)}); },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const float* v = &l.arguments[0].as<float>()[3 * i];
                       float* out = &l.arguments[1].as<float>()[3 * i];
                       out[0] = v[1] * v[2], out[1] = v[2] * v[0], out[2] = v[0] * v[1];
                     }
                   }});
  cases.push_back({"memory_access", "memory_int64_and_double",
                   [](auto& r) {
                     return one_dimensional({input(generate<uint64_t>(n, [&] { return r(); })),
                                             input(generate<double>(n, [&] { return std::uniform_real_distribution<double>(-1e6, 1e6)(r); })),
                                             output<uint64_t>(n), output<double>(n), scalar(n)});
                   },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       l.arguments[2].as<uint64_t>()[i] = l.arguments[0].as<uint64_t>()[i] + l.arguments[0].as<uint64_t>()[(i + 1) % n];
                       l.arguments[3].as<double>()[i] = l.arguments[1].as<double>()[i] * 3.0;
                     }
                   }});
  cases.push_back({"memory_access", "memory_local_array",
                   [](auto& r) { return one_dimensional({input(ints(r, -100000, 100000)), output<int32_t>(n), scalar(n)}); },
                   [](Launch& l) {
                     auto a = l.arguments[0].as<int32_t>();
                     for (int i = 0; i < n; ++i) {
                       int32_t table[16];
                       for (int k = 0; k < 16; ++k) table[k] = a[(i + k) % n] * k;
                       l.arguments[1].as<int32_t>()[i] = table[a[i] & 15] + table[(a[i] >> 4) & 15];
                     }
                   }});
  cases.push_back({"memory_access", "memory_unaligned_tail",
                   [](auto& r) { return one_dimensional({input(generate<uint8_t>(n, [&] { return static_cast<uint8_t>(r()); })), output<uint8_t>(n), scalar(n)}, n / 3 + 1); },
                   [](Launch& l) {
                     auto in = l.arguments[0].as<uint8_t>();
                     auto out = l.arguments[1].as<uint8_t>();
                     for (int i = 0; 3 * i + 2 < n; ++i) out[3 * i] = in[3 * i + 2], out[3 * i + 1] = in[3 * i + 1], out[3 * i + 2] = in[3 * i];
                   }});

  cases.push_back({"control_flow", "branch_divergent",
                   [](auto& r) { return one_dimensional({input(ints(r, -5000, 5000)), output<int32_t>(n), scalar(n)}); },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const int32_t x = l.arguments[0].as<int32_t>()[i];
                       int32_t result;
                       if (x & 1) {
                         result = x * 3 + 1;
                         if (result > 1000) result -= 1000;
                       } else {
                         result = x / 2;
                         for (int k = 0; k < (x & 7); ++k) result += k * x;
                       }
                       l.arguments[1].as<int32_t>()[i] = result;
                     }
                   }});
  cases.push_back({"control_flow", "loop_collatz",
                   [](auto& r) { return one_dimensional({input(generate<uint32_t>(n, [&] { return static_cast<uint32_t>(r()); })), output<uint32_t>(n), scalar(n)}); },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       uint32_t x = l.arguments[0].as<uint32_t>()[i] % 100000u + 1u, steps = 0;
                       while (x != 1u && steps < 1000u) x = (x & 1u) ? 3u * x + 1u : x >> 1, ++steps;
                       l.arguments[1].as<uint32_t>()[i] = steps;
                     }
                   }});
  cases.push_back({"control_flow", "loop_nested_early_exit",
                   [](auto& r) { return one_dimensional({input(ints(r, 0, 1000)), output<int32_t>(n), scalar(n), scalar(random_int(r, 10000, 40000))}); },
                   [](Launch& l) {
                     const int32_t limit = scalar_value<int32_t>(l.arguments[3]);
                     auto a = l.arguments[0].as<int32_t>();
                     for (int i = 0; i < n; ++i) {
                       int32_t sum = 0;
                       bool exited = false;
                       for (int row = 0; row < 8 && !exited; ++row) {
                         for (int column = 0; column < 8; ++column) {
                           sum += a[(i + row * 8 + column) % n] ^ (row * column);
                           if (sum > limit) {
                             l.arguments[1].as<int32_t>()[i] = -sum;
                             exited = true;
                             break;
                           }
                         }
                       }
                       if (!exited) l.arguments[1].as<int32_t>()[i] = sum;
                     }
                   }});
  cases.push_back({"control_flow", "branch_switch",
                   [](auto& r) { return one_dimensional({input(ints(r, -100000, 100000)), output<float>(n), scalar(n)}); },
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const int32_t a = l.arguments[0].as<int32_t>()[i];
                       float v = static_cast<float>(a);
                       switch (a & 7) {
                       case 0: v = v * 2.0f; break;
                       case 1: v = v + 100.0f; break;
                       case 2: v = -v; break;
                       case 3: v = v * v; break;
                       case 5: v = v - 7.5f; break;
                       default: v = 0.0f; break;
                       }
                       l.arguments[1].as<float>()[i] = v;
                     }
                   }});
  cases.push_back({"control_flow", "predicated_select",
                   [](auto& r) { return one_dimensional({input(floats(r)), input(floats(r)), output<float>(n), scalar(n), scalar(random_float(r, -500, 500))}); },
                   [](Launch& l) {
                     const float threshold = scalar_value<float>(l.arguments[4]);
                     for (int i = 0; i < n; ++i) {
                       const float x = l.arguments[0].as<float>()[i], y = l.arguments[1].as<float>()[i];
                       l.arguments[2].as<float>()[i] = x > threshold ? x - y : (y > threshold ? y : x + y);
                     }
                   }});
  (void)u;
}

} // namespace kiln::test
