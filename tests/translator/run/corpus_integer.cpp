// References for integer_arithmetic.cu, integer_64bit.cu and bit_manipulation.cu (same arithmetic in C++,
// with wrap-around done in unsigned types where C++ would overflow).
#include <bit>
#include <stdexcept>

#include "tests/translator/run/corpus_case.h"

namespace kiln::test {

using namespace integer_inputs; // n, block sizes and helpers the inputs were made with
namespace {
int32_t wrap(int64_t value) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(value))); }

template <typename T>
T read(Argument& argument, size_t index) {
  return argument.as<T>()[index];
}
} // namespace

void add_integer_cases(std::vector<CorpusCase>& cases) {

  cases.push_back({"integer_arithmetic", "int_add_sub_mul",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint32_t x = static_cast<uint32_t>(read<int32_t>(l.arguments[0], i)), y = static_cast<uint32_t>(read<int32_t>(l.arguments[1], i));
                       l.arguments[2].as<uint32_t>()[i] = x * y + (x - y) * 3 - (y << 2) + 12345;
                     }
                   }});
  cases.push_back({"integer_arithmetic", "int_mul_high",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint64_t x = read<uint32_t>(l.arguments[0], i), y = read<uint32_t>(l.arguments[1], i);
                       l.arguments[2].as<uint32_t>()[2 * i] = static_cast<uint32_t>((x * y) >> 32);
                       const int64_t sx = static_cast<int32_t>(x), sy = static_cast<int32_t>(y);
                       l.arguments[2].as<uint32_t>()[2 * i + 1] = static_cast<uint32_t>(static_cast<uint64_t>(sx * sy) >> 32);
                     }
                   }});
  cases.push_back({"integer_arithmetic", "int_divide_signed",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const int32_t a = read<int32_t>(l.arguments[0], i), b = read<int32_t>(l.arguments[1], i);
                       const int32_t y = b == 0 ? 1 : b;
                       l.arguments[2].as<int32_t>()[2 * i] = a / y;
                       l.arguments[2].as<int32_t>()[2 * i + 1] = a % y;
                     }
                   }});
  cases.push_back({"integer_arithmetic", "int_divide_unsigned",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint32_t a = read<uint32_t>(l.arguments[0], i), b = read<uint32_t>(l.arguments[1], i);
                       const uint32_t y = b == 0 ? 1 : b;
                       l.arguments[2].as<uint32_t>()[2 * i] = a / y;
                       l.arguments[2].as<uint32_t>()[2 * i + 1] = a % y;
                     }
                   }});
  cases.push_back({"integer_arithmetic", "int_divide_by_constant",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const int32_t a = read<int32_t>(l.arguments[0], i);
                       l.arguments[1].as<int32_t>()[3 * i] = a / 7;
                       l.arguments[1].as<int32_t>()[3 * i + 1] = static_cast<int32_t>(static_cast<uint32_t>(a) / 10u);
                       l.arguments[1].as<int32_t>()[3 * i + 2] = a % 1000;
                     }
                   }});
  cases.push_back({"integer_arithmetic", "int_min_max_abs",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const int32_t x = read<int32_t>(l.arguments[0], i), y = read<int32_t>(l.arguments[1], i);
                       auto out = l.arguments[2].as<int32_t>();
                       out[4 * i] = std::min(x, y);
                       out[4 * i + 1] = std::max(x, y);
                       out[4 * i + 2] = static_cast<int32_t>(std::min(static_cast<uint32_t>(x), static_cast<uint32_t>(y)));
                       const uint32_t magnitude = x < 0 ? 0u - static_cast<uint32_t>(x) : static_cast<uint32_t>(x);
                       out[4 * i + 3] = static_cast<int32_t>(magnitude + static_cast<uint32_t>(x > y ? x : y));
                     }
                   }});
  cases.push_back({"integer_arithmetic", "int_saturating_clamp",
                   [](Launch& l) {
                     const int32_t lo = scalar_value<int32_t>(l.arguments[1]), hi = scalar_value<int32_t>(l.arguments[2]);
                     for (int i = 0; i < n; ++i) {
                       const int32_t v = wrap(static_cast<int64_t>(static_cast<uint32_t>(read<int32_t>(l.arguments[0], i)) * 5u) - 17);
                       l.arguments[3].as<int32_t>()[i] = std::max(lo, std::min(hi, v));
                     }
                   }});

  cases.push_back({"integer_64bit", "int64_add_mul",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint64_t a = read<uint64_t>(l.arguments[0], i), b = read<uint64_t>(l.arguments[1], i);
                       l.arguments[2].as<uint64_t>()[i] = a * b + (a - b) * 3 + 0x123456789ull;
                     }
                   }});
  cases.push_back({"integer_64bit", "int64_shifts",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint64_t a = read<uint64_t>(l.arguments[0], i);
                       const unsigned shift = static_cast<unsigned>(read<int32_t>(l.arguments[1], i)) & 63u;
                       auto out = l.arguments[2].as<uint64_t>();
                       out[3 * i] = a << shift;
                       out[3 * i + 1] = a >> shift;
                       out[3 * i + 2] = static_cast<uint64_t>(static_cast<int64_t>(a) >> shift);
                     }
                   }});
  cases.push_back({"integer_64bit", "int64_compare_select",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint64_t ux = read<uint64_t>(l.arguments[0], i), uy = read<uint64_t>(l.arguments[1], i);
                       const int64_t x = static_cast<int64_t>(ux), y = static_cast<int64_t>(uy);
                       l.arguments[2].as<uint64_t>()[i] = static_cast<uint64_t>(x < y ? x : y) + (ux > uy ? 1 : 0) + (x == y ? 100 : 0);
                     }
                   }});
  cases.push_back({"integer_64bit", "int64_divide",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint64_t a = read<uint64_t>(l.arguments[0], i), b = read<uint64_t>(l.arguments[1], i);
                       const uint64_t y = b == 0 ? 1 : b;
                       l.arguments[2].as<uint64_t>()[2 * i] = a / y;
                       l.arguments[2].as<uint64_t>()[2 * i + 1] = a % y;
                     }
                   }});
  cases.push_back({"integer_64bit", "int64_wide_multiply",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint64_t a = read<uint32_t>(l.arguments[0], i), b = read<uint32_t>(l.arguments[1], i);
                       l.arguments[2].as<uint64_t>()[i] = a * b; // __umul64hi of two values below 2^32 is 0
                     }
                   }});

  cases.push_back({"bit_manipulation", "bits_logic",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint32_t x = read<uint32_t>(l.arguments[0], i), y = read<uint32_t>(l.arguments[1], i), z = read<uint32_t>(l.arguments[2], i);
                       l.arguments[3].as<uint32_t>()[2 * i] = (x & y) ^ (~z | (x >> 3));
                       l.arguments[3].as<uint32_t>()[2 * i + 1] = (x & ~y) | (y & z) | (x ^ (z << 7));
                     }
                   }});
  cases.push_back({"bit_manipulation", "bits_count",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint32_t x = read<uint32_t>(l.arguments[0], i);
                       auto out = l.arguments[1].as<uint32_t>();
                       out[4 * i] = std::popcount(x);
                       out[4 * i + 1] = std::countl_zero(x);
                       out[4 * i + 2] = x == 0 ? 0 : std::countr_zero(x) + 1; // __ffs
                       out[4 * i + 3] = [&] {
                         uint32_t reversed = 0;
                         for (int bit = 0; bit < 32; ++bit) reversed |= ((x >> bit) & 1u) << (31 - bit);
                         return reversed;
                       }();
                     }
                   }});
  cases.push_back({"bit_manipulation", "bits_funnel_rotate",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint32_t a = read<uint32_t>(l.arguments[0], i), b = read<uint32_t>(l.arguments[1], i);
                       const uint32_t shift = static_cast<uint32_t>(read<int32_t>(l.arguments[2], i));
                       const uint64_t both = (uint64_t{b} << 32) | a;
                       auto out = l.arguments[3].as<uint32_t>();
                       out[3 * i] = static_cast<uint32_t>((both << (shift & 31)) >> 32);            // __funnelshift_l: wraps
                       out[3 * i + 1] = static_cast<uint32_t>(both >> std::min(shift, 32u));         // __funnelshift_rc: clamps
                       out[3 * i + 2] = std::rotl(a, static_cast<int>(shift & 31));
                     }
                   }});
  cases.push_back({"bit_manipulation", "bits_byte_permute",
                   [](Launch& l) {
                     // __byte_perm (CUDA Math API): bytes 0-3 from x, 4-7 from y, each result byte chosen by the low
                     // three bits of its selector nibble (ptxas masks the selector with 0x7777 before PRMT).
                     const auto permute = [](uint32_t x, uint32_t y, uint32_t selector) {
                       const uint64_t bytes = (uint64_t{y} << 32) | x;
                       uint32_t result = 0;
                       for (int k = 0; k < 4; ++k) {
                         const uint32_t nibble = (selector >> (4 * k)) & 0xf;
                         const uint32_t byte = static_cast<uint32_t>(bytes >> (8 * (nibble & 7))) & 0xff;
                         result |= byte << (8 * k);
                       }
                       return result;
                     };
                     for (int i = 0; i < n; ++i) {
                       const uint32_t a = read<uint32_t>(l.arguments[0], i), b = read<uint32_t>(l.arguments[1], i), s = read<uint32_t>(l.arguments[2], i);
                       l.arguments[3].as<uint32_t>()[2 * i] = permute(a, b, s & 0xffff);
                       l.arguments[3].as<uint32_t>()[2 * i + 1] = permute(a, 0, 0x0123);
                     }
                   }});
  cases.push_back({"bit_manipulation", "bits_field_extract_insert",
                   [](Launch& l) {
                     for (int i = 0; i < n; ++i) {
                       const uint32_t a = read<uint32_t>(l.arguments[0], i), b = read<uint32_t>(l.arguments[1], i);
                       const uint32_t pos = static_cast<uint32_t>(read<int32_t>(l.arguments[2], i));
                       const uint32_t p = pos & 31u, width = 1 + (pos >> 5) % 16u, mask = (1u << width) - 1u;
                       const uint32_t field = (a >> p) & mask;
                       l.arguments[3].as<uint32_t>()[2 * i] = field;
                       l.arguments[3].as<uint32_t>()[2 * i + 1] = (b & ~(mask << p)) | ((field ^ 0x5u) & mask) << p;
                     }
                   }});
}

std::vector<CorpusCase> corpus_cases() {
  std::vector<CorpusCase> cases;
  add_integer_cases(cases);
  add_float_cases(cases);
  add_memory_cases(cases);
  add_parallel_cases(cases);
  const std::vector<CorpusInput> inputs = corpus_inputs();
  for (CorpusCase& corpus_case : cases) {
    for (const CorpusInput& input : inputs) {
      if (input.kernel == corpus_case.kernel && input.file == corpus_case.file) corpus_case.make = input.make;
    }
    if (!corpus_case.make) throw std::runtime_error("corpus case " + corpus_case.kernel + " has no inputs in corpus_inputs.h");
  }
  if (inputs.size() != cases.size()) throw std::runtime_error("corpus_inputs.h lists kernels without a reference");
  return cases;
}

} // namespace kiln::test
