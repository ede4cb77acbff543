// The Ampere classes (3D C797, copy C7B5, host C56F; compute C7C0 is in test_engines.cpp) on the command
// processor with a recording backend. Offsets, fields and values are the ones of NVIDIA's open-gpu-doc headers
// (clc797.h, clc7b5.h, clc56f.h) as the generated tables give them by name; expected memory follows the field
// descriptions there.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <variant>

#include <fmt/format.h>

#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/classes/methods_c56f.h"
#include "runtime/gpu/maxwell/classes/methods_c797.h"
#include "runtime/gpu/maxwell/classes/methods_c7b5.h"
#include "runtime/gpu/maxwell/semaphore.h"
#include "tests/gpu/maxwell/maxwell_test_support.h"

using namespace kiln::maxwell;
using namespace kiln::maxwell::test;

namespace {

uint32_t high(uint64_t address) { return static_cast<uint32_t>(address >> 32); }
uint32_t low(uint64_t address) { return static_cast<uint32_t>(address); }

/// The methods of `maxwell` (B197, B0B5, B06F) that `ampere` does not have under the same name at the same offset:
/// the only places where the one implementation has to tell the classes apart. (By name, since the tables infer
/// array lengths from the distance to the next method, which differs between the headers.)
std::vector<std::string> methods_that_differ(ClassId maxwell, ClassId ampere) {
  std::vector<std::string> differ;
  for (uint32_t offset = 0; offset < 0x4000; offset += 4) {
    if (!is_known_method(static_cast<uint32_t>(maxwell), offset)) continue;
    const std::string name = method_name(static_cast<uint32_t>(maxwell), offset);
    const std::string family = name.substr(0, name.find('('));
    if (std::find(differ.begin(), differ.end(), family) != differ.end()) continue;
    if (find_method(static_cast<uint32_t>(ampere), family) != find_method(static_cast<uint32_t>(maxwell), family)) {
      differ.push_back(family);
    }
  }
  return differ;
}

} // namespace

TEST_CASE("the Ampere classes have the Maxwell classes' methods at the same offsets but for a known few", "[maxwell][ampere]") {
  // The 3D engine decodes both classes with B197's names; these are the B197 methods C797 does not have (it sets
  // programs by address and buffer ends by size, and dropped the rest): engine_3d.cpp/draw_state.cpp read the
  // C797 replacements of the first three groups per class and use none of the others.
  CHECK(methods_that_differ(ClassId::threed, ClassId::threed_ampere) ==
        std::vector<std::string>{"SET_PRIM_CIRCULAR_BUFFER_THROTTLE", "SET_IEEE_CLEAN_UPDATE", "SET_ALPHA_FRACTION",
                                 "SET_ISBE_SAVE_RESTORE_PROGRAM", "SET_COLOR_TARGET_MARK", "SET_ZT_MARK",
                                 "SET_SELECT_MAXWELL_TEXTURE_HEADERS", "SET_TILED_CACHE_BUNDLE_CONTROL",
                                 "INVALIDATE_SAMPLER_CACHE_ALL", "INVALIDATE_TEXTURE_HEADER_CACHE_ALL", "SET_ALPHA_HYSTERESIS",
                                 "SET_PROGRAM_REGION_A", "SET_PROGRAM_REGION_B", "SET_INDEX_BUFFER_C", "SET_INDEX_BUFFER_D",
                                 "SET_VERTEX_STREAM_LIMIT_A_A", "SET_VERTEX_STREAM_LIMIT_A_B", "SET_VERTEX_STREAM_LIMIT_B_A",
                                 "SET_VERTEX_STREAM_LIMIT_B_B", "SET_PIPELINE_PROGRAM", "SET_PIPELINE_RESERVED_B",
                                 "SET_PIPELINE_RESERVED_C", "SET_PIPELINE_RESERVED_D", "SET_BINDLESS_TEXTURE", "SET_TRAP_HANDLER"});
  // Copy and host: every Maxwell method is there (C56F drops only CRC_CHECK, which the channel refuses on it).
  CHECK(methods_that_differ(ClassId::copy, ClassId::copy_ampere).empty());
  CHECK(methods_that_differ(ClassId::host, ClassId::host_ampere) == std::vector<std::string>{"CRC_CHECK"});
  // Ampere-only methods are unknown to the Maxwell tables (and so refused on a Maxwell channel).
  CHECK(is_known_method(0xc797, 0x0168)); // REPORT_SEMAPHORE_EXECUTE
  CHECK_FALSE(is_known_method(0xb197, 0x0168));
  CHECK(method_name(0xc56f, host_method::sem_execute) == "SEM_EXECUTE");
  CHECK(method_name(0xc7b5, 0x024c) == "SET_SEMAPHORE_PAYLOAD_UPPER");
  CHECK(class_name(0xc797) == "3D (C797)");
  CHECK(program_isa_of(0xc797) == ProgramIsa::sm86);
  CHECK(program_isa_of(0xb197) == ProgramIsa::sm5x);
}

TEST_CASE("a C797 draw takes program addresses and buffer sizes from the Ampere methods", "[maxwell][ampere]") {
  TestGpu t;
  const uint64_t vertex_program = data + 0x1000, pixel_program = data + 0x2000, indices = data + 0x3000, vertices = data + 0x4000;
  StreamBuilder s;
  s.bind(0, ClassId::threed_ampere);
  s.method(0, "SET_PIPELINE_SHADER", 1, 1u | (1u << 4));
  s.method(0, "SET_PIPELINE_PROGRAM_ADDRESS_A", 1, high(vertex_program)).method(0, "SET_PIPELINE_PROGRAM_ADDRESS_B", 1, low(vertex_program));
  s.method(0, "SET_PIPELINE_SHADER", 5, 1u | (5u << 4));
  s.method(0, "SET_PIPELINE_PROGRAM_ADDRESS_A", 5, high(pixel_program)).method(0, "SET_PIPELINE_PROGRAM_ADDRESS_B", 5, low(pixel_program));
  const uint32_t stream[] = {16u | (1u << 12), high(vertices), low(vertices)};
  s.incrementing(0, "SET_VERTEX_STREAM_A_FORMAT", stream);
  s.method(0, "SET_VERTEX_STREAM_SIZE_A", 0, 0).method(0, "SET_VERTEX_STREAM_SIZE_B", 0, 0x300);
  s.method(0, "SET_INDEX_BUFFER_A", high(indices)).method(0, "SET_INDEX_BUFFER_B", low(indices));
  s.method(0, "SET_INDEX_BUFFER_E", 1).method(0, "SET_INDEX_BUFFER_SIZE_A", 0).method(0, "SET_INDEX_BUFFER_SIZE_B", 12);
  s.method(0, "BEGIN", 4).method(0, "DRAW_INDEX_BUFFER", 6).method(0, "END", 0);
  t.submit(s);
  REQUIRE(t.run().idle);
  REQUIRE(t.gpu.diagnostics().empty());
  REQUIRE(t.backend.draws == 1);
  const auto& draw = *std::get<std::shared_ptr<const DrawSnapshot>>(t.backend.events.back());
  CHECK(draw.class_id == 0xc797);
  CHECK(draw.programs[1].address == vertex_program);
  CHECK(draw.programs[5].address == pixel_program);
  CHECK(draw.index_address == indices);
  CHECK(draw.index_limit == indices + 12 - 1);       // a size of 12 bytes: the last byte
  CHECK(draw.vertex_streams[0].limit == vertices + 0x300 - 1);
  CHECK(draw.index_size == 2);
  CHECK(draw.count == 6);
}

TEST_CASE("C797 report semaphores through REPORT_SEMAPHORE_EXECUTE", "[maxwell][ampere]") {
  TestGpu t;
  t.backend.simulated_samples_passed = 77;
  const uint64_t one = data, four = data + 0x100, report = data + 0x200, counter = data + 0x300;
  t.gpu.memory().write_u32(counter, 10);
  namespace v = class_c797::value;
  auto at = [](StreamBuilder& s, uint64_t address, uint64_t payload) {
    s.method(0, "SET_REPORT_SEMAPHORE_ADDRESS_UPPER", high(address)).method(0, "SET_REPORT_SEMAPHORE_ADDRESS_LOWER", low(address));
    s.method(0, "SET_REPORT_SEMAPHORE_PAYLOAD_UPPER", high(payload)).method(0, "SET_REPORT_SEMAPHORE_PAYLOAD_LOWER", low(payload));
  };
  namespace f = class_c797::field;
  auto field = [](BitField bits, uint32_t value) { return value << bits.low; };
  StreamBuilder s;
  s.bind(0, ClassId::threed_ampere);
  // RELEASE, one word.
  at(s, one, 0x1234);
  s.method(0, "REPORT_SEMAPHORE_EXECUTE",
           field(f::report_semaphore_execute_structure_size, v::report_semaphore_execute_structure_size_semaphore_one_word));
  // RELEASE, four words with a 64-bit payload: {payload, timestamp}.
  at(s, four, 0x0000000500000006);
  s.method(0, "REPORT_SEMAPHORE_EXECUTE", field(f::report_semaphore_execute_payload_size64, 1));
  // REPORT_ONLY of ZPASS_PIXEL_CNT64, four words: {samples, timestamp}.
  at(s, report, 0);
  s.method(0, "REPORT_SEMAPHORE_EXECUTE",
           field(f::report_semaphore_execute_operation, v::report_semaphore_execute_operation_report_only) |
               field(f::report_semaphore_execute_report, v::report_semaphore_execute_report_zpass_pixel_cnt64));
  // RELEASE with reduction ADD (RED_ADD 0), one word: 10 + 7.
  at(s, counter, 7);
  s.method(0, "REPORT_SEMAPHORE_EXECUTE",
           field(f::report_semaphore_execute_structure_size, v::report_semaphore_execute_structure_size_semaphore_one_word) |
               field(f::report_semaphore_execute_reduction_enable, 1));
  t.submit(s);
  REQUIRE(t.run().idle);
  REQUIRE(t.gpu.diagnostics().empty());
  CHECK(t.gpu.memory().read_u32(one) == 0x1234);
  CHECK(t.gpu.memory().read_u32(one + 4) == 0); // one word only
  CHECK(t.gpu.memory().read_u64(four) == 0x0000000500000006);
  CHECK(t.gpu.memory().read_u64(four + 8) != 0); // the timestamp
  CHECK(t.gpu.memory().read_u64(report) == 77);
  CHECK(t.gpu.memory().read_u32(counter) == 17);

  // ACQUIRE has no documented comparison: refused, naming the method.
  TestGpu refused;
  StreamBuilder acquire;
  acquire.bind(0, ClassId::threed_ampere);
  acquire.method(0, "REPORT_SEMAPHORE_EXECUTE", v::report_semaphore_execute_operation_acquire);
  refused.submit(acquire);
  refused.run();
  REQUIRE(refused.gpu.diagnostics().size() == 1);
  CHECK(refused.gpu.diagnostics()[0].class_id == 0xc797);
  CHECK(refused.gpu.diagnostics()[0].method == 0x0168);
  CHECK(refused.gpu.diagnostics()[0].message == "REPORT_SEMAPHORE_EXECUTE OPERATION_ACQUIRE is not implemented");
}

TEST_CASE("what the Ampere 3D class does that kiln does not is reported with class, method and address", "[maxwell][ampere]") {
  struct Case {
    const char* name;
    uint32_t value;
    const char* message;
  };
  const Case cases[] = {
      {"CALL_MME_MACRO", 0, "CALL_MME_MACRO/CALL_MME_DATA(0) on 3D (C797): macros of the MME64 are not implemented"},
      {"DRAW_VERTEX_ARRAY_BEGIN_END_B", 3, "DRAW_VERTEX_ARRAY_BEGIN_END_B is not implemented yet"},
      {"MME_DMA_READ", 0, "MME_DMA_READ is not implemented yet"},
  };
  for (const Case& c : cases) {
    TestGpu t;
    StreamBuilder s;
    s.bind(0, ClassId::threed_ampere);
    const uint64_t word = pushbuffers + s.size() * 4; // the method's header: an immediate-form method is one word
    s.method(0, c.name, c.value);
    t.submit(s);
    t.run();
    INFO(c.name);
    REQUIRE(t.gpu.diagnostics().size() == 1);
    const Diagnostic& d = t.gpu.diagnostics()[0];
    CHECK(d.class_id == 0xc797);
    CHECK(d.method == *find_method(0xc797, c.name));
    CHECK(d.gpu_address == word);
    CHECK(d.message == c.message);
  }
}

TEST_CASE("a method no class header defines faults the channel with class, method and address", "[maxwell][ampere]") {
  // 0x0168 is REPORT_SEMAPHORE_EXECUTE on C797 and nothing on B197; 0x016c is nothing on either.
  for (const auto& [class_id, method] : {std::pair{ClassId::threed, 0x0168u}, std::pair{ClassId::threed_ampere, 0x016cu},
                                         std::pair{ClassId::copy_ampere, 0x0104u}}) {
    REQUIRE_FALSE(is_known_method(static_cast<uint32_t>(class_id), method));
    TestGpu t;
    StreamBuilder s;
    s.bind(1, class_id);
    const uint64_t data_word = pushbuffers + (s.size() + 1) * 4;
    s.header(HeaderKind::increasing, 1, method, 1).word(0x55);
    s.semaphore_release(data, 1); // never reached: the channel stopped
    t.submit(s);
    t.run();
    REQUIRE(t.gpu.diagnostics().size() == 1);
    const Diagnostic& d = t.gpu.diagnostics()[0];
    CHECK(d.class_id == static_cast<uint32_t>(class_id));
    CHECK(d.method == method);
    CHECK(d.gpu_address == data_word);
    CHECK(d.message == fmt::format("method 0x{:04x} is not a method of {}", method, class_name(static_cast<uint32_t>(class_id))));
    CHECK(t.gpu.channel(0).state() == Channel::State::faulted);
    CHECK(t.gpu.memory().read_u32(data) == 0);
  }
}

TEST_CASE("C56F SEM_EXECUTE releases, acquires and reduces", "[maxwell][ampere]") {
  TestGpu t;
  t.host = ClassId::host_ampere;
  namespace f = class_c56f::field;
  namespace v = class_c56f::value;
  auto field = [](BitField bits, uint32_t value) { return value << bits.low; };
  auto sem = [](StreamBuilder& s, uint64_t address, uint64_t payload, uint32_t execute) {
    s.host(host_method::sem_addr_lo, low(address)).host(host_method::sem_addr_hi, high(address));
    s.host(host_method::sem_payload_lo, low(payload)).host(host_method::sem_payload_hi, high(payload));
    s.host(host_method::sem_execute, execute);
  };
  const uint64_t word = data, wide = data + 0x100, stamped = data + 0x200, counter = data + 0x300, gate = data + 0x400;
  t.gpu.memory().write_u32(counter, 0xfffffff0u);
  StreamBuilder s;
  sem(s, word, 0xabcd, v::sem_execute_operation_release);
  sem(s, wide, 0x1122334455667788, v::sem_execute_operation_release | field(f::sem_execute_payload_size, v::sem_execute_payload_size_64bit));
  sem(s, stamped, 0x99, v::sem_execute_operation_release | field(f::sem_execute_release_timestamp, v::sem_execute_release_timestamp_en));
  // IMAX signed: max(-16, 5) = 5; then IADD unsigned: 5 + 3.
  sem(s, counter, 5, v::sem_execute_operation_reduction | field(f::sem_execute_reduction, v::sem_execute_reduction_imax));
  sem(s, counter, 3, v::sem_execute_operation_reduction | field(f::sem_execute_reduction, v::sem_execute_reduction_iadd) |
                         field(f::sem_execute_reduction_format, v::sem_execute_reduction_format_unsigned));
  // Wait until a second channel opens the gate: ACQ_STRICT_GEQ, memory >= 2 as unsigned numbers.
  sem(s, gate, 2, v::sem_execute_operation_acq_strict_geq);
  sem(s, word, 0x5555, v::sem_execute_operation_release);
  t.submit(s, 0);
  REQUIRE(t.run().timed_out);                     // blocked on the gate
  CHECK(t.gpu.memory().read_u32(word) == 0xabcd); // the release after the acquire has not run
  StreamBuilder opener;
  sem(opener, gate, 3, v::sem_execute_operation_release);
  t.submit(opener, 1);
  REQUIRE(t.run().idle);
  CHECK(t.gpu.diagnostics().size() == 1); // the timeout report of the first run
  CHECK(t.gpu.memory().read_u32(word) == 0x5555);
  CHECK(t.gpu.memory().read_u64(wide) == 0x1122334455667788);
  CHECK(t.gpu.memory().read_u32(stamped) == 0x99);
  CHECK(t.gpu.memory().read_u32(stamped + 4) == 0);
  CHECK(t.gpu.memory().read_u64(stamped + 8) != 0);
  CHECK(t.gpu.memory().read_u32(counter) == 8);
  // 64-bit payloads compare all 64 bits: circular >= across the 64-bit wrap, strict >= as unsigned numbers.
  CHECK(acquire_met(AcquireCompare::circular_greater_equal, 2, 0xfffffffffffffff0u, 64));
  CHECK_FALSE(acquire_met(AcquireCompare::greater_equal, 0xffffffffu, 0x100000000u, 64));
  CHECK(acquire_met(AcquireCompare::greater_equal, 0xffffffffu, 0x100000000u, 32)); // 32 bits: the low words, 0xffffffff >= 0
}

TEST_CASE("C56F refuses what it does not define and what kiln does not know how to compare", "[maxwell][ampere]") {
  struct Case {
    ClassId host;
    uint32_t method, value;
    const char* message;
  };
  const Case cases[] = {
      {ClassId::host_ampere, host_method::sem_execute, class_c56f::value::sem_execute_operation_acq_nor,
       "SEM_EXECUTE operation ACQ_NOR is not implemented"},
      {ClassId::host_ampere, host_method::sem_execute, 7, "SEM_EXECUTE operation 7 is reserved"},
      {ClassId::host_ampere, host_method::crc_check, 0, "method 0x007c is not a method of host (C56F)"},
      {ClassId::host_ampere, host_method::mem_op_d, 0x3u << 27, "MEM_OP_D operation 0x3 is not one host (C56F) defines"},
      {ClassId::host, host_method::sem_execute, 1, "method 0x006c is not a method of host (B06F)"},
      {ClassId::host, host_method::mem_op_d, class_c56f::value::mem_op_d_operation_l2_wait_for_sys_pending_reads << 27,
       "MEM_OP_D operation 0x15 is not one host (B06F) defines"},
  };
  for (const Case& c : cases) {
    TestGpu t;
    t.host = c.host;
    StreamBuilder s;
    s.host(c.method, c.value);
    t.submit(s);
    t.run();
    INFO(c.message);
    REQUIRE(t.gpu.diagnostics().size() == 1);
    CHECK(t.gpu.diagnostics()[0].class_id == static_cast<uint32_t>(c.host));
    CHECK(t.gpu.diagnostics()[0].method == c.method);
    CHECK(t.gpu.diagnostics()[0].message == c.message);
  }
  // The MEM_OP variants C56F names pass (nothing to flush or invalidate in kiln's one coherent memory), and a
  // channel's host class is fixed once it ran.
  TestGpu t;
  t.host = ClassId::host_ampere;
  StreamBuilder s;
  s.host(host_method::mem_op_a, 0).host(host_method::mem_op_b, 0).host(host_method::mem_op_c, 0);
  s.host(host_method::mem_op_d, class_c56f::value::mem_op_d_operation_l2_flush_dirty << 27);
  s.host(host_method::mem_op_d, class_c56f::value::mem_op_d_operation_mmu_tlb_invalidate_targeted << 27);
  s.host(host_method::clear_faulted, 0).host(host_method::wfi, 0);
  t.submit(s);
  REQUIRE(t.run().idle);
  CHECK(t.gpu.diagnostics().empty());
  CHECK(t.gpu.channel(0).host_class() == 0xc56f);
  CHECK_THROWS_WITH(t.gpu.channel(0).set_host_class(ClassId::host), "channel 0 has run host (C56F) methods; its host class cannot change to host (B06F)");
}

TEST_CASE("C7B5 copies and releases 64-bit payloads and its wide address fields stop at 40 bits", "[maxwell][ampere]") {
  TestGpu t;
  const uint64_t source = data, destination = data + 0x1000, semaphore = data + 0x2000;
  for (uint32_t i = 0; i < 64; ++i) t.gpu.memory().write_u32(source + 4 * i, 0x01010101u * i);
  namespace f = class_c7b5::field;
  namespace v = class_c7b5::value;
  auto field = [](BitField bits, uint32_t value) { return value << bits.low; };
  StreamBuilder s;
  s.bind(4, ClassId::copy_ampere);
  s.method(4, "OFFSET_IN_UPPER", high(source)).method(4, "OFFSET_IN_LOWER", low(source));
  s.method(4, "OFFSET_OUT_UPPER", high(destination)).method(4, "OFFSET_OUT_LOWER", low(destination));
  s.method(4, "LINE_LENGTH_IN", 256);
  s.method(4, "SET_SEMAPHORE_A", high(semaphore)).method(4, "SET_SEMAPHORE_B", low(semaphore));
  s.method(4, "SET_SEMAPHORE_PAYLOAD", 0x89abcdefu).method(4, "SET_SEMAPHORE_PAYLOAD_UPPER", 0x01234567u);
  // A pitch-to-pitch line, then the semaphore: no timestamp, two-word payload.
  s.method(4, "LAUNCH_DMA",
           field(f::launch_dma_data_transfer_type, v::launch_dma_data_transfer_type_non_pipelined) |
               field(f::launch_dma_src_memory_layout, v::launch_dma_src_memory_layout_pitch) |
               field(f::launch_dma_dst_memory_layout, v::launch_dma_dst_memory_layout_pitch) |
               field(f::launch_dma_semaphore_type, v::launch_dma_semaphore_type_release_semaphore_no_timestamp) |
               field(f::launch_dma_semaphore_payload_size, v::launch_dma_semaphore_payload_size_two_word));
  t.submit(s);
  REQUIRE(t.run().idle);
  REQUIRE(t.gpu.diagnostics().empty());
  CHECK(t.gpu.memory().read_bytes(destination, 256) == t.gpu.memory().read_bytes(source, 256));
  CHECK(t.gpu.memory().read_u64(semaphore) == 0x0123456789abcdefu);

  // OFFSET_IN_UPPER is 17 bits on C7B5: bit 40 set is an address kiln cannot have.
  TestGpu wide;
  StreamBuilder far;
  far.bind(4, ClassId::copy_ampere);
  far.method(4, "OFFSET_IN_UPPER", 0x100).method(4, "LINE_LENGTH_IN", 4).method(4, "LAUNCH_DMA", 0x182);
  wide.submit(far);
  wide.run();
  REQUIRE(wide.gpu.diagnostics().size() == 1);
  CHECK(wide.gpu.diagnostics()[0].message == "OFFSET_IN_UPPER = 0x100: a GPU address beyond kiln's 40-bit address space");
}
