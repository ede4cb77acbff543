// References for memory_access.cu and control_flow.cu.
#include <cmath>

#include "tests/translator/run/corpus_case.h"

namespace kiln::test {

using namespace memory_inputs; // n, block sizes and helpers the inputs were made with

void add_memory_cases(std::vector<CorpusCase>& cases) {

  cases.push_back({"memory_access", "memory_strided_copy",
                   [](Launch& l) {
                     const int64_t stride = scalar_value<int32_t>(l.arguments[3]);
                     for (int i = 0; i < n; ++i) l.arguments[1].as<float>()[i] = l.arguments[0].as<float>()[(i * stride) % n];
                   }});
  cases.push_back({"memory_access", "memory_vector4",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const float* v = &l.arguments[0].as<float>()[4 * i];
                       float* out = &l.arguments[1].as<float>()[4 * i];
                       out[0] = v[3], out[1] = v[2] + 1.0f, out[2] = v[1] * 2.0f, out[3] = v[0];
                     }
                   }});
  cases.push_back({"memory_access", "memory_bytes_shorts",
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
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const float* v = &l.arguments[0].as<float>()[3 * i];
                       float* out = &l.arguments[1].as<float>()[3 * i];
                       out[0] = v[1] * v[2], out[1] = v[2] * v[0], out[2] = v[0] * v[1];
                     }
                   }});
  cases.push_back({"memory_access", "memory_int64_and_double",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       l.arguments[2].as<uint64_t>()[i] = l.arguments[0].as<uint64_t>()[i] + l.arguments[0].as<uint64_t>()[(i + 1) % n];
                       l.arguments[3].as<double>()[i] = l.arguments[1].as<double>()[i] * 3.0;
                     }
                   }});
  cases.push_back({"memory_access", "memory_local_array",
                   [](Launch& l) {
                     auto a = l.arguments[0].as<int32_t>();
                     for (int i = 0; i < n; ++i) {
                       int32_t table[16];
                       for (int k = 0; k < 16; ++k) table[k] = a[(i + k) % n] * k;
                       l.arguments[1].as<int32_t>()[i] = table[a[i] & 15] + table[(a[i] >> 4) & 15];
                     }
                   }});
  cases.push_back({"memory_access", "memory_unaligned_tail",
                   [](Launch& l) {
                     auto in = l.arguments[0].as<uint8_t>();
                     auto out = l.arguments[1].as<uint8_t>();
                     for (int i = 0; 3 * i + 2 < n; ++i) out[3 * i] = in[3 * i + 2], out[3 * i + 1] = in[3 * i + 1], out[3 * i + 2] = in[3 * i];
                   }});

  // local_memory.cu: arrays indexed at run time live in local memory (STL/LDL).
  cases.push_back({"local_memory", "local_array_dynamic_index",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint32_t x = static_cast<uint32_t>(l.arguments[0].as<int32_t>()[i]);
                       const auto indices = l.arguments[1].as<int32_t>().subspan(8 * i, 8);
                       uint32_t table[24];
                       for (uint32_t k = 0; k < 24; ++k) table[k] = x * (k + 1) - k;
                       uint32_t sum = 0;
                       for (int k = 0; k < 8; ++k) {
                         const int at = indices[k] % 24;
                         table[(at + 5) % 24] += table[at];
                         sum += table[at];
                       }
                       l.arguments[2].as<uint32_t>()[2 * i] = sum;
                       l.arguments[2].as<uint32_t>()[2 * i + 1] = table[indices[0] % 24];
                     }
                   }});
  cases.push_back({"local_memory", "local_array_bytes_and_doubles",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const double x = l.arguments[0].as<double>()[i];
                       const int index = l.arguments[1].as<int32_t>()[i];
                       double values[12];
                       uint8_t small[16];
                       for (int k = 0; k < 12; ++k) values[k] = x + k * 0.5; // k * 0.5 is exact: one rounding either way
                       for (int k = 0; k < 16; ++k) small[k] = static_cast<uint8_t>(i + 3 * k);
                       const int at = index % 12;
                       values[at] *= 2.0;
                       small[index % 16] ^= 0xff;
                       l.arguments[2].as<double>()[i] = values[at] + values[(at + 7) % 12];
                       l.arguments[3].as<uint8_t>()[i] = static_cast<uint8_t>(small[(index + 1) % 16] + small[index % 16]);
                     }
                   }});

  cases.push_back({"control_flow", "branch_divergent",
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
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       uint32_t x = l.arguments[0].as<uint32_t>()[i] % 100000u + 1u, steps = 0;
                       while (x != 1u && steps < 1000u) x = (x & 1u) ? 3u * x + 1u : x >> 1, ++steps;
                       l.arguments[1].as<uint32_t>()[i] = steps;
                     }
                   }});
  cases.push_back({"control_flow", "loop_nested_early_exit",
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
