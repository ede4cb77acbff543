// Cubin parsing on the committed fixtures (facts checked against CUDA's ABI and the kernels' sources) and
// malformed input, and the decoder's error for unknown words.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "translator/sass/sm86/cubin.h"
#include "translator/sass/sm86/instruction.h"

namespace sm86 = kiln::sass::sm86;
namespace fs = std::filesystem;

namespace {

fs::path fixture(const char* architecture, const char* stem) {
  return fs::path(KILN_SOURCE_DIR) / "tests" / "translator" / "fixtures" / architecture / (std::string(stem) + ".cubin");
}

std::string error_of(const std::vector<uint8_t>& bytes) {
  try {
    (void)sm86::parse_cubin(bytes, "broken.cubin");
  } catch (const kiln::Error& error) {
    return error.what();
  }
  return "no error";
}

} // namespace

TEST_CASE("cubin: kernels, parameters and attributes of integer_arithmetic.cu", "[sm86][cubin]") {
  const auto cubin = sm86::load_cubin(fixture("sm86", "integer_arithmetic"));
  CHECK(cubin.sm_version == 86);
  CHECK(cubin.architecture == sm86::Architecture::sm86);
  REQUIRE(cubin.kernels.size() == 7);
  const sm86::Kernel* kernel = cubin.find_kernel("int_saturating_clamp");
  REQUIRE(kernel != nullptr);
  // (const int* a, int lo, int hi, int* out, int n): CUDA's ABI aligns pointers to 8 bytes.
  REQUIRE(kernel->parameters.size() == 5);
  const uint32_t offsets[] = {0, 8, 12, 16, 24};
  const uint32_t sizes[] = {8, 4, 4, 8, 4};
  for (size_t i = 0; i < 5; ++i) {
    CHECK(kernel->parameters[i].ordinal == i);
    CHECK(kernel->parameters[i].offset == offsets[i]);
    CHECK(kernel->parameters[i].size == sizes[i]);
  }
  CHECK(kernel->parameter_size == 28);
  CHECK(kernel->parameter_base == 0x160);  // sm_8x driver constants occupy c[0x0][0x0..0x160)
  CHECK(kernel->constant0.size() >= kernel->parameter_base + kernel->parameter_size);
  CHECK(kernel->register_count > 0);
  CHECK(kernel->shared_memory_size == 0);
  // Every EXIT the driver is told about is an EXIT instruction for the decoder.
  REQUIRE(!kernel->exit_offsets.empty());
  const auto instructions = sm86::decode_all(kernel->code, kernel->location(cubin.file));
  for (uint32_t exit : kernel->exit_offsets) CHECK(instructions[exit / 16].opcode == sm86::Opcode::EXIT);
}

TEST_CASE("cubin: static shared memory sizes follow the declarations", "[sm86][cubin]") {
  for (const char* architecture : {"sm86", "sm75"}) {
    const auto cubin = sm86::load_cubin(fixture(architecture, "shared_memory"));
    CHECK(cubin.find_kernel("shared_reduce_sum")->shared_memory_size == 256 * 4);
    CHECK(cubin.find_kernel("shared_prefix_sum")->shared_memory_size == 2 * 256 * 4);
    CHECK(cubin.find_kernel("shared_transpose_tile")->shared_memory_size == 16 * 17 * 4);
    CHECK(cubin.find_kernel("shared_histogram")->shared_memory_size == 256 * 4);
  }
}

TEST_CASE("cubin: malformed files give errors naming the file and what is wrong", "[sm86][cubin]") {
  const auto good = kiln::read_file(fixture("sm86", "atomics"));
  CHECK_THAT(error_of({}), Catch::Contains("broken.cubin") && Catch::Contains("not an ELF"));
  CHECK_THAT(error_of(std::vector<uint8_t>(good.begin(), good.begin() + 100)), Catch::Contains("broken.cubin"));
  auto wrong_class = good;
  wrong_class[4] = 1;
  CHECK_THAT(error_of(wrong_class), Catch::Contains("ELF64"));
  auto wrong_machine = good;
  wrong_machine[0x12] = 3;
  CHECK_THAT(error_of(wrong_machine), Catch::Contains("not NVIDIA CUDA"));
  auto far_sections = good;
  far_sections[0x2f] = 0x7f;  // section header table offset far past the end
  CHECK_THAT(error_of(far_sections), Catch::Contains("past the end"));
  // Truncating anywhere before the end of the section header table (ELF64: e_shoff at 0x28, e_shnum at 0x3c)
  // is an error, never a crash. (What follows it, the program headers, the parser does not need.)
  const size_t header_table_end = kiln::load<uint64_t>(good.data() + 0x28, kiln::Endian::little) +
                                  size_t{64} * kiln::load<uint16_t>(good.data() + 0x3c, kiln::Endian::little);
  REQUIRE(header_table_end <= good.size());
  for (size_t size = 0; size < header_table_end; size += 97) {
    CHECK_THAT(error_of(std::vector<uint8_t>(good.begin(), good.begin() + static_cast<ptrdiff_t>(size))),
               Catch::Contains("broken.cubin"));
  }
}

TEST_CASE("cubin: a corrupt .nv.info record is reported at its offset", "[sm86][cubin]") {
  auto bytes = kiln::read_file(fixture("sm86", "atomics"));
  const auto cubin = sm86::parse_cubin(bytes, "ok.cubin");
  REQUIRE(!cubin.kernels.empty());
  // Find the first "04 17 0c 00" (EIATTR_KPARAM_INFO, 12 bytes) record and claim it is longer than its section.
  const uint8_t pattern[] = {0x04, 0x17, 0x0c, 0x00};
  auto at = std::search(bytes.begin(), bytes.end(), std::begin(pattern), std::end(pattern));
  REQUIRE(at != bytes.end());
  at[2] = 0xff;
  at[3] = 0x7f;
  CHECK_THAT(error_of(bytes), Catch::Contains(".nv.info") && Catch::Contains("claims"));
}

TEST_CASE("decoder: an unknown word is an error naming file, kernel, offset and the word", "[sm86][decoder]") {
  const sm86::Word128 word{0x0000000000000fffull, 0x0000000000000000ull};
  try {
    (void)sm86::decode(word, 0x40, {"k.cubin", "my_kernel", 0x1000});
    FAIL("decoded an unknown opcode");
  } catch (const kiln::Error& error) {
    const std::string text = error.what();
    CHECK_THAT(text, Catch::Contains("k.cubin") && Catch::Contains("my_kernel") && Catch::Contains("0x0040") &&
                         Catch::Contains("0x00000000000000000000000000000fff") && Catch::Contains("0x1040"));
  }
}

TEST_CASE("assembler: an instruction built from a decoded form encodes as nvdisasm shows it", "[sm86][assembler]") {
  // IADD3 R22, R22, 0x1, RZ (word from NVIDIA's listing), then with other operands: the word changes only in the
  // fields of those operands, and the text follows.
  const sm86::Word128 word{0x0000000116167810ull, 0x000fe40007ffe0ffull};
  auto instruction = sm86::decode(word, 0, {"test", "", 0});
  REQUIRE(sm86::disassemble(instruction) == "IADD3 R22, R22, 0x1, RZ");
  instruction.operands[0].index = 5;             // destination R5
  instruction.operands[5].index = 7;             // third source R7
  instruction.operands[4].value = -2;            // immediate -0x2
  const sm86::Word128 assembled = sm86::assemble(instruction);
  CHECK(assembled.field(16, 8) == 5);
  CHECK(assembled.field(64, 8) == 7);
  CHECK(assembled.field(32, 32) == 0xfffffffe);
  CHECK((assembled.low & 0xffff) == (word.low & 0xffff));
  CHECK(sm86::disassemble(sm86::decode(assembled, 0, {"test", "", 0})) == "IADD3 R5, R22, -0x2, R7");
}

TEST_CASE("cubin: module constant banks, their relocations and module globals (sinf's 2/pi table)", "[sm86][cubin]") {
  for (const char* architecture : {"sm86", "sm75"}) {
    INFO(architecture);
    const auto cubin = sm86::load_cubin(fixture(architecture, "transcendental"));
    const sm86::Kernel* kernel = cubin.find_kernel("transcendental_accurate");
    REQUIRE(kernel != nullptr);
    // sinf's Payne-Hanek reduction reads a table of 2/pi's bits, 0.a2f9836e 4e441529 fc2757d1 f534ddc0 db629599
    // 3c439041 in hex, stored least significant word first, through a pointer in constant bank 4; its DMUL
    // literal (a double ptxas cannot encode as an immediate) lives in the kernel's bank 2.
    const uint32_t two_over_pi[] = {0x3c439041, 0xdb629599, 0xf534ddc0, 0xfc2757d1, 0x4e441529, 0xa2f9836e};
    REQUIRE(cubin.global_init.size() == sizeof(two_over_pi));
    CHECK(std::equal(std::begin(two_over_pi), std::end(two_over_pi), reinterpret_cast<const uint32_t*>(cubin.global_init.data())));
    CHECK(cubin.global_size == sizeof(two_over_pi));
    REQUIRE(kernel->constant_banks.size() == 2);
    CHECK(kernel->constant_banks[0].bank == 2);
    CHECK(kernel->constant_banks[0].bytes.size() == 8);
    const sm86::ConstantBank& bank4 = kernel->constant_banks[1];
    CHECK(bank4.bank == 4);
    REQUIRE(bank4.relocations.size() == 1);
    CHECK(bank4.relocations[0].symbol == "__cudart_i2opi_f");
    CHECK(bank4.relocations[0].offset == 0);
    CHECK(bank4.relocations[0].symbol_offset == 0);
    // The other kernels of the file see the module bank but have no bank 2.
    const sm86::Kernel* fast = cubin.find_kernel("transcendental_fast");
    REQUIRE(fast != nullptr);
    REQUIRE(fast->constant_banks.size() == 1);
    CHECK(fast->constant_banks[0].bank == 4);
  }
}

TEST_CASE("cubin: a constant-bank relocation kiln cannot apply is an error at its offset", "[sm86][cubin]") {
  auto bytes = kiln::read_file(fixture("sm86", "transcendental"));
  (void)sm86::parse_cubin(bytes, "ok.cubin");
  // The one .rel.nv.constant4 entry: offset 0, then info = (symbol << 32) | R_CUDA_64 (2). Make its type 7.
  const uint8_t entry[] = {0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0};
  auto at = std::search(bytes.begin(), bytes.end(), std::begin(entry), std::end(entry));
  REQUIRE(at != bytes.end());
  at[8] = 0x07;
  CHECK_THAT(error_of(bytes), Catch::Contains("broken.cubin") && Catch::Contains(".rel.nv.constant4") && Catch::Contains("relocation type 7"));
}
