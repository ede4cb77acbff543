// Compute launches through the renderer: QMDs of the Ampere compute class (C7C0, QMD 03_00) built with the
// stream builder and Qmd, running CUDA corpus kernels (real ptxas sm_86 output) over guest memory. Each must
// leave the same guest-memory bytes as the direct harness (tests/translator/run/corpus_runner.h) and match the
// kernel's C++ reference, change no other guest byte, and release its semaphores only after its writes.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <map>

#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/classes/methods_c7c0.h"
#include "runtime/gpu/maxwell/classes/qmd_v01_07.h"
#include "runtime/gpu/maxwell/classes/qmd_v03_00.h"
#include "runtime/gpu/maxwell/qmd.h"
#include "tests/gpu/renderer/renderer_scene.h"
#include "tests/translator/run/corpus_runner.h"
#include "translator/sass/sm86/constant_buffer.h"

using namespace kiln;
using namespace kiln::test;

namespace {

namespace q3 = maxwell::qmd_v03_00;

// Guest memory the compute tests use, inside the scene's arena beside its draw resources.
constexpr uint64_t kComputePrograms = kPrograms + 0x10000, kQmds = kArena + 0x4e0000, kSemaphores = kArena + 0x4f0000;
constexpr uint64_t kComputeData = kArena + 0x500000, kComputeDataEnd = kArena + kArenaSize;

uint64_t align(uint64_t value, uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

const sass::sm86::Cubin& corpus_cubin(const std::string& file) {
  static std::map<std::string, sass::sm86::Cubin> cubins;
  auto [it, inserted] = cubins.try_emplace(file);
  if (inserted) it->second = sass::sm86::load_cubin(std::filesystem::path(KILN_SOURCE_DIR) / "tests/translator/fixtures/sm86" / (file + ".cubin"));
  return it->second;
}

const CorpusCase& corpus_case(const std::string& kernel) {
  static const std::vector<CorpusCase> cases = corpus_cases();
  for (const CorpusCase& c : cases) {
    if (c.kernel == kernel) return c;
  }
  FAIL("no corpus case " << kernel);
  throw std::logic_error("unreachable");
}

/// A corpus kernel launch placed in guest memory the way a CUDA driver places it: code, argument buffers, the
/// module's global memory, constant banks (bank 0 with the driver area and parameters, the others with their
/// relocations resolved to the guest addresses) and a QMD 03_00 for the C7C0 class.
struct GuestLaunch {
  std::vector<uint64_t> addresses; ///< GPU address of each buffer argument (0 for scalars)
  uint64_t qmd_address = 0;
  maxwell::Qmd qmd;
};

class ComputeArena {
public:
  explicit ComputeArena(maxwell::AddressSpace& memory) : memory_(memory) {}

  uint64_t allocate(uint64_t size) {
    const uint64_t address = next_;
    next_ = align(next_ + std::max<uint64_t>(size, 16), 256);
    REQUIRE(next_ <= kComputeDataEnd);
    return address;
  }
  uint64_t place(std::span<const uint8_t> bytes) {
    const uint64_t address = allocate(bytes.size());
    memory_.write(address, bytes);
    return address;
  }

  /// `given`: GPU addresses for some buffer arguments (by argument index), so launches can share buffers; the
  /// others are allocated and filled with the argument's bytes.
  GuestLaunch place_launch(const sass::sm86::Cubin& cubin, const sass::sm86::Kernel& kernel, const Launch& launch,
                           const std::map<size_t, uint64_t>& given = {}) {
    GuestLaunch guest;
    const uint64_t program = align(next_program_, 256);
    memory_.write(program, kernel.code);
    next_program_ = program + kernel.code.size();
    REQUIRE(next_program_ <= kQmds);
    for (size_t i = 0; i < launch.arguments.size(); ++i) {
      const Argument& argument = launch.arguments[i];
      const auto found = given.find(i);
      guest.addresses.push_back(argument.kind == Argument::Kind::Scalar ? 0 : found != given.end() ? found->second : place(argument.bytes));
    }
    std::vector<uint8_t> globals(std::max<uint64_t>(cubin.global_size, 16), 0);
    std::copy(cubin.global_init.begin(), cubin.global_init.end(), globals.begin());
    const uint64_t global_base = place(globals);
    // Every bank in CUDA's contents (pack_constant_buffer resolves the relocations), each bound on its own.
    const std::vector<uint8_t> packed = sass::sm86::pack_constant_buffer(kernel, driver_constant_bank0(kernel, launch, guest.addresses), global_base);
    const sass::sm86::ConstantBufferLayout layout = sass::sm86::constant_buffer_layout(kernel);
    for (size_t i = 0; i < layout.banks.size(); ++i) {
      const auto [bank, offset] = layout.banks[i];
      const uint32_t end = i + 1 < layout.banks.size() ? layout.banks[i + 1].second : layout.size;
      REQUIRE(bank < 8);
      std::vector<uint8_t> bytes(packed.begin() + offset, packed.begin() + end);
      bytes.resize(align(bytes.size(), 16), 0); // QMD 03_00 sizes count 16-byte units
      guest.qmd.set(q3::constant_buffer_valid[bank], 1);
      const uint64_t address = place(bytes);
      guest.qmd.set(q3::constant_buffer_addr_lower[bank], address & 0xffffffff);
      guest.qmd.set(q3::constant_buffer_addr_upper[bank], address >> 32);
      guest.qmd.set(q3::constant_buffer_size_shifted4[bank], bytes.size() >> 4);
    }
    guest.qmd.set(q3::qmd_major_version, 3).set(q3::qmd_version, 0);
    guest.qmd.set(q3::program_address_lower, program & 0xffffffff).set(q3::program_address_upper, program >> 32);
    guest.qmd.set(q3::cta_raster_width, launch.grid[0]).set(q3::cta_raster_height, launch.grid[1]).set(q3::cta_raster_depth, launch.grid[2]);
    guest.qmd.set(q3::cta_thread_dimension0, launch.block[0]).set(q3::cta_thread_dimension1, launch.block[1]);
    guest.qmd.set(q3::cta_thread_dimension2, launch.block[2]);
    guest.qmd.set(q3::shared_memory_size, kernel.shared_memory_size);
    guest.qmd.set(q3::shader_local_memory_low_size, kernel.local_memory_size);
    guest.qmd.set(q3::register_count_v, kernel.register_count);
    guest.qmd_address = next_qmd_;
    next_qmd_ += 256;
    return guest;
  }

  /// Writes the QMD and the launch methods: SEND_PCAS_A, then PCAS2 INVALIDATE_COPY_SCHEDULE as drivers send it.
  void launch(maxwell::StreamBuilder& s, const GuestLaunch& guest, uint32_t subchannel = 1) {
    memory_.write(guest.qmd_address, guest.qmd.bytes());
    s.method(subchannel, "SEND_PCAS_A", static_cast<uint32_t>(guest.qmd_address >> 8));
    s.method(subchannel, "SEND_SIGNALING_PCAS2_B", maxwell::class_c7c0::value::send_signaling_pcas2_b_pcas_action_invalidate_copy_schedule);
  }

private:
  maxwell::AddressSpace& memory_;
  uint64_t next_ = kComputeData, next_program_ = kComputePrograms, next_qmd_ = kQmds;
};

/// The launch's output and in-out arguments as guest memory holds them.
Launch read_back(const maxwell::AddressSpace& memory, const Launch& launch, const GuestLaunch& guest) {
  Launch result = launch;
  for (size_t i = 0; i < result.arguments.size(); ++i) {
    Argument& argument = result.arguments[i];
    if (argument.kind == Argument::Kind::Output || argument.kind == Argument::Kind::InOut) argument.bytes = memory.read_bytes(guest.addresses[i], argument.bytes.size());
  }
  return result;
}

/// Byte ranges [address, end) the launches may change: their output and in-out arguments.
std::vector<std::pair<uint64_t, uint64_t>> written_ranges(const Launch& launch, const GuestLaunch& guest) {
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (size_t i = 0; i < launch.arguments.size(); ++i) {
    const Argument& argument = launch.arguments[i];
    if (argument.kind == Argument::Kind::Output || argument.kind == Argument::Kind::InOut) ranges.emplace_back(guest.addresses[i], guest.addresses[i] + argument.bytes.size());
  }
  return ranges;
}

/// Bytes of [kComputeData, kComputeDataEnd) that differ from `before` outside `allowed`.
size_t bytes_changed_outside(const maxwell::AddressSpace& memory, const std::vector<uint8_t>& before,
                             const std::vector<std::pair<uint64_t, uint64_t>>& allowed) {
  const std::vector<uint8_t> after = memory.read_bytes(kComputeData, kComputeDataEnd - kComputeData);
  size_t changed = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    if (after[i] == before[i]) continue;
    const uint64_t address = kComputeData + i;
    bool inside = false;
    for (const auto& [first, end] : allowed) inside = inside || (address >= first && address < end);
    changed += !inside;
  }
  return changed;
}

/// Forwards to the renderer; at each dispatch notes the watched word before the renderer runs it and after it
/// returned (the engine releases the QMD's semaphores only after that).
class WatchingBackend final : public maxwell::Backend {
public:
  WatchingBackend(maxwell::Backend& inner, const maxwell::AddressSpace& memory, uint64_t watched) : inner_(inner), memory_(memory), watched_(watched) {}
  void draw(std::shared_ptr<const maxwell::DrawSnapshot> draw) override { inner_.draw(std::move(draw)); }
  void clear(const maxwell::ClearSnapshot& clear) override { inner_.clear(clear); }
  void dispatch(const maxwell::DispatchSnapshot& dispatch) override {
    before.push_back(memory_.read_u32(watched_));
    inner_.dispatch(dispatch);
    after.push_back(memory_.read_u32(watched_));
    if (on_dispatched) on_dispatched();
  }
  void synchronize_memory(uint64_t address, uint64_t size, maxwell::MemoryAccess access) override { inner_.synchronize_memory(address, size, access); }
  uint64_t samples_passed() override { return inner_.samples_passed(); }
  void reset_samples_passed() override { inner_.reset_samples_passed(); }

  std::vector<uint32_t> before, after;
  std::function<void()> on_dispatched;

private:
  maxwell::Backend& inner_;
  const maxwell::AddressSpace& memory_;
  uint64_t watched_;
};

} // namespace

TEST_CASE_METHOD(PassThroughScene, "C7C0 QMD launches of corpus kernels leave the direct harness's guest-memory bytes", "[gpu][renderer][compute]") {
  // Plain arithmetic, 64-bit and float, local memory, control flow, warp shuffles, shared memory (a block
  // reduction, a histogram, a tile transpose), global atomics, and constant banks 2 (compiler constants) and 4
  // (the GPU address of the module's global tables, read through it) in QMD slots 2 and 4.
  const std::vector<std::string> kernels{"int_add_sub_mul",      "int64_add_mul",     "float_saxpy",       "local_array_dynamic_index",
                                         "loop_collatz",         "warp_shuffle_scan", "shared_reduce_sum", "shared_histogram",
                                         "shared_transpose_tile", "atomic_add_int",    "atomic_min_max",    "atomic_bitwise",
                                         "transcendental_accurate"};
  const uint64_t seed = 20'35;
  size_t matching = 0;
  for (const std::string& name : kernels) {
    INFO("kernel " << name);
    const CorpusCase& corpus = corpus_case(name);
    const sass::sm86::Cubin& cubin = corpus_cubin(corpus.file);
    const sass::sm86::Kernel* kernel = cubin.find_kernel(name);
    REQUIRE(kernel != nullptr);
    Random random(kernel_seed(seed, name));
    const Launch launch = corpus.make(random);

    RendererScene fresh(context);
    ComputeArena arena(fresh.gpu.memory());
    const GuestLaunch guest = arena.place_launch(cubin, *kernel, launch);
    const uint64_t semaphore = kSemaphores;
    maxwell::Qmd qmd = guest.qmd;
    qmd.set(q3::release0_enable, 1).set(q3::release0_structure_size, q3::value::release0_structure_size_semaphore_one_word);
    qmd.set(q3::release0_address_lower, semaphore & 0xffffffff).set(q3::release0_address_upper, semaphore >> 32);
    qmd.set(q3::release0_payload_lower, 0x600d);
    GuestLaunch released = guest;
    released.qmd = qmd;
    const std::vector<uint8_t> before = fresh.gpu.memory().read_bytes(kComputeData, kComputeDataEnd - kComputeData);

    WatchingBackend watcher(*fresh.renderer, fresh.gpu.memory(), semaphore);
    fresh.gpu.set_backend(&watcher);
    maxwell::StreamBuilder s;
    s.bind(1, maxwell::ClassId::compute_ampere);
    arena.launch(s, released);
    fresh.run(s);

    // Released once, after the renderer returned, never while it ran.
    REQUIRE(watcher.before.size() == 1);
    CHECK(watcher.before[0] == 0);
    CHECK(watcher.after[0] == 0);
    CHECK(fresh.gpu.memory().read_u32(semaphore) == 0x600d);

    const Launch through_qmd = read_back(fresh.gpu.memory(), launch, guest);
    const Launch direct = run_translated(context, cubin, *kernel, corpus.file, launch);
    Launch expected = launch;
    corpus.reference(expected);
    std::string report;
    CHECK(compare_outputs(expected, through_qmd, report) == 0);
    INFO(report);
    bool same_bytes = true;
    for (size_t i = 0; i < launch.arguments.size(); ++i) same_bytes = same_bytes && through_qmd.arguments[i].bytes == direct.arguments[i].bytes;
    CHECK(same_bytes);
    CHECK(bytes_changed_outside(fresh.gpu.memory(), before, written_ranges(launch, guest)) == 0);
    CHECK(fresh.renderer->statistics().dispatches == 1);
    CHECK(fresh.renderer->statistics().compute_pages_written_back >= 1);
    matching += same_bytes;
  }
  WARN(matching << " of " << kernels.size() << " corpus kernels launched through C7C0 QMDs leave the direct harness's bytes");
  check_no_validation_messages(context);
}

namespace {

/// float_saxpy (y[i] = alpha * x[i] + y[i] for i < n) over `x` and `y`, one block of 32 threads per 32 elements.
Launch saxpy_launch(float alpha, const std::vector<float>& x, const std::vector<float>& y) {
  Launch launch;
  launch.block = {32, 1, 1};
  launch.grid = {static_cast<uint32_t>((x.size() + 31) / 32), 1, 1};
  launch.arguments = {scalar(alpha), input(x), in_out(y), scalar(static_cast<int32_t>(x.size()))};
  return launch;
}

void set_release(maxwell::Qmd& qmd, uint32_t index, uint64_t address, uint32_t payload, uint32_t structure_size, bool reduce_add) {
  const maxwell::QmdField fields[3][6] = {
      {q3::release0_enable, q3::release0_address_lower, q3::release0_address_upper, q3::release0_payload_lower, q3::release0_structure_size, q3::release0_reduction_enable},
      {q3::release1_enable, q3::release1_address_lower, q3::release1_address_upper, q3::release1_payload_lower, q3::release1_structure_size, q3::release1_reduction_enable},
      {q3::release2_enable, q3::release2_address_lower, q3::release2_address_upper, q3::release2_payload_lower, q3::release2_structure_size, q3::release2_reduction_enable}};
  const auto& f = fields[index];
  qmd.set(f[0], 1).set(f[1], address & 0xffffffff).set(f[2], address >> 32).set(f[3], payload).set(f[4], structure_size).set(f[5], reduce_add);
  // REDUCTION_OP stays RED_ADD (0), REDUCTION_FORMAT UNSIGNED (0).
}

} // namespace

TEST_CASE_METHOD(PassThroughScene, "dependent C7C0 launches run in order and release their semaphores after their work", "[gpu][renderer][compute]") {
  const sass::sm86::Cubin& cubin = corpus_cubin("float_arithmetic");
  const sass::sm86::Kernel* kernel = cubin.find_kernel("float_saxpy");
  REQUIRE(kernel != nullptr);
  // The corpus's own inputs (its reference assumes their size), twice: the second launch's y is the first's result.
  Random random(kernel_seed(7, "float_saxpy"));
  const Launch first = corpus_case("float_saxpy").make(random);
  Launch second = corpus_case("float_saxpy").make(random);
  const size_t n = first.arguments[2].bytes.size() / 4;

  ComputeArena arena(scene.gpu.memory());
  const GuestLaunch a = arena.place_launch(cubin, *kernel, first);
  GuestLaunch b = arena.place_launch(cubin, *kernel, second, {{2, a.addresses[2]}}); // the second reads what the first wrote
  const uint64_t counter = kSemaphores, four_word = kSemaphores + 0x10, fence = kSemaphores + 0x40;
  scene.gpu.memory().write_u32(counter, 5);
  GuestLaunch a_released = a;
  set_release(a_released.qmd, 0, counter, 3, q3::value::release0_structure_size_semaphore_one_word, true);
  set_release(b.qmd, 1, counter, 3, q3::value::release1_structure_size_semaphore_one_word, true);
  set_release(b.qmd, 2, four_word, 0x77, q3::value::release2_structure_size_semaphore_four_words, false);

  WatchingBackend watcher(*scene.renderer, scene.gpu.memory(), counter);
  scene.gpu.set_backend(&watcher);
  maxwell::StreamBuilder s;
  s.bind(1, maxwell::ClassId::compute_ampere);
  arena.launch(s, a_released);
  arena.launch(s, b);
  s.semaphore_release(fence, 1);
  scene.run(s);

  // Each launch sees the counter as the launches before it left it: releases follow their own work and precede
  // the next launch.
  REQUIRE(watcher.before.size() == 2);
  CHECK(watcher.before == std::vector<uint32_t>{5, 8});
  CHECK(watcher.after == std::vector<uint32_t>{5, 8});
  CHECK(scene.gpu.memory().read_u32(counter) == 11);
  CHECK(scene.gpu.memory().read_u32(four_word) == 0x77);
  CHECK(scene.gpu.memory().read_u32(four_word + 4) == 0);
  CHECK(scene.gpu.memory().read_u32(fence) == 1);

  // The CPU after the fence: y = alpha2 x2 + (alpha1 x1 + y0), as the direct harness computes it in two runs and as
  // the reference does.
  const Launch direct_first = run_translated(context, cubin, *kernel, corpus_case("float_saxpy").file, first);
  second.arguments[2].bytes = direct_first.arguments[2].bytes;
  const Launch direct_second = run_translated(context, cubin, *kernel, "float_arithmetic", second);
  const std::vector<uint8_t> y = scene.gpu.memory().read_bytes(a.addresses[2], n * 4);
  CHECK(y == direct_second.arguments[2].bytes);
  Launch expected = first;
  corpus_case("float_saxpy").reference(expected);
  second.arguments[2].bytes = expected.arguments[2].bytes;
  Launch expected_second = second;
  corpus_case("float_saxpy").reference(expected_second);
  Launch actual = second;
  actual.arguments[2].bytes = y;
  std::string report;
  CHECK(compare_outputs(expected_second, actual, report) == 0);
  INFO(report);
  CHECK(scene.renderer->statistics().dispatches == 2);
  CHECK(scene.renderer->statistics().compute_programs_translated == 1);
  CHECK(scene.renderer->statistics().compute_programs_reused == 1);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "a draw reads the vertices a C7C0 launch wrote earlier in the same pushbuffer", "[gpu][renderer][compute]") {
  // saxpy with alpha 1 and y = 0 writes x exactly (one rounding of 1 * x + 0): a full-screen green triangle into
  // the vertex buffer, which held zeros (a degenerate triangle) before.
  const sass::sm86::Cubin& cubin = corpus_cubin("float_arithmetic");
  const sass::sm86::Kernel* kernel = cubin.find_kernel("float_saxpy");
  REQUIRE(kernel != nullptr);
  const std::vector<float> triangle = fullscreen(0.5f, {0, 1, 0, 1});
  ComputeArena arena(scene.gpu.memory());
  const GuestLaunch guest = arena.place_launch(cubin, *kernel, saxpy_launch(1.0f, triangle, std::vector<float>(triangle.size(), 0)), {{2, kVertices}});
  scene.gpu.memory().write(kVertices, std::vector<uint8_t>(triangle.size() * 4, 0));
  constexpr uint32_t width = 16, height = 16;
  maxwell::StreamBuilder s;
  s.bind(1, maxwell::ClassId::compute_ampere);
  arena.launch(s, guest);
  scene.setup(s, kRgba8, width, height);
  clear_color(s, {1, 0, 0, 1});
  draw_arrays(s, 0, 3);
  scene.run(s);
  CHECK(count_wrong_texels(scene.read_target(kColorTarget, width, height, 4), width, height, std::array<uint8_t, 4>{0, 255, 0, 255}) == 0);
  CHECK(scene.renderer->statistics().dispatches == 1);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "a B1C0 launch of an SM5x program is reported and still releases its semaphore", "[gpu][renderer][compute]") {
  namespace q1 = maxwell::qmd_v01_07;
  const uint64_t program_offset = 0x20000, semaphore = kSemaphores, qmd_address = kQmds;
  maxwell::Qmd qmd;
  qmd.set(q1::program_offset, program_offset);
  qmd.set(q1::cta_raster_width, 1).set(q1::cta_raster_height, 1).set(q1::cta_raster_depth, 1);
  qmd.set(q1::cta_thread_dimension0, 32).set(q1::cta_thread_dimension1, 1).set(q1::cta_thread_dimension2, 1);
  qmd.set(q1::semaphore_release_enable0, 1).set(q1::release0_address_lower, semaphore & 0xffffffff).set(q1::release0_address_upper, semaphore >> 32);
  qmd.set(q1::release0_structure_size, q1::value::release0_structure_size_one_word).set(q1::release0_payload, 0xb1c0);
  scene.gpu.memory().write(qmd_address, qmd.bytes());
  maxwell::StreamBuilder s;
  s.bind(1, maxwell::ClassId::compute);
  s.method(1, "SET_PROGRAM_REGION_A", high(kPrograms)).method(1, "SET_PROGRAM_REGION_B", low(kPrograms));
  s.method(1, "SEND_PCAS_A", static_cast<uint32_t>(qmd_address >> 8));
  s.method(1, "SEND_SIGNALING_PCAS_B", 2); // SCHEDULE
  scene.gpu.submit(0, s.place(scene.gpu.memory(), kPushbuffers));
  REQUIRE(scene.gpu.run().idle);
  scene.renderer->flush();
  REQUIRE(scene.renderer->diagnostics().size() == 1);
  CHECK(scene.renderer->diagnostics()[0] == fmt::format("compute dispatch of the QMD at GPU {:#x} skipped: compute program at GPU address {:#x}: "
                                                        "SM5x compute kernels are not lowered yet",
                                                        qmd_address, kPrograms + program_offset));
  CHECK(scene.renderer->statistics().skipped_dispatches == 1);
  CHECK(scene.renderer->statistics().dispatches == 0);
  CHECK(scene.gpu.memory().read_u32(semaphore) == 0xb1c0);
  check_no_validation_messages(context);
}

TEST_CASE_METHOD(PassThroughScene, "C7C0 launches the renderer cannot run are diagnosed with their address and still release", "[gpu][renderer][compute]") {
  const sass::sm86::Cubin& cubin = corpus_cubin("shared_memory");
  const sass::sm86::Kernel* kernel = cubin.find_kernel("shared_reduce_sum");
  REQUIRE(kernel != nullptr);
  Random random(kernel_seed(1, "shared_reduce_sum"));
  const Launch launch = corpus_case("shared_reduce_sum").make(random);
  ComputeArena arena(scene.gpu.memory());
  GuestLaunch too_much_shared = arena.place_launch(cubin, *kernel, launch);
  too_much_shared.qmd.set(q3::shared_memory_size, 48 * 1024 + 16); // GM20B's 48 KiB, and a little more
  set_release(too_much_shared.qmd, 0, kSemaphores, 1, q3::value::release0_structure_size_semaphore_one_word, false);
  GuestLaunch unmapped = arena.place_launch(cubin, *kernel, launch);
  const uint64_t nowhere = kArena + kArenaSize + 0x10000;
  unmapped.qmd.set(q3::program_address_lower, nowhere & 0xffffffff).set(q3::program_address_upper, nowhere >> 32);
  set_release(unmapped.qmd, 0, kSemaphores + 4, 2, q3::value::release0_structure_size_semaphore_one_word, false);
  maxwell::StreamBuilder s;
  s.bind(1, maxwell::ClassId::compute_ampere);
  arena.launch(s, too_much_shared);
  arena.launch(s, unmapped);
  scene.gpu.submit(0, s.place(scene.gpu.memory(), kPushbuffers));
  REQUIRE(scene.gpu.run().idle);
  scene.renderer->flush();
  const auto& diagnostics = scene.renderer->diagnostics();
  REQUIRE(diagnostics.size() == 2);
  const uint32_t device_limit = context.physical_device().getProperties().limits.maxComputeSharedMemorySize;
  CHECK(diagnostics[0] == fmt::format("compute dispatch of the QMD at GPU {:#x} skipped: 49168 bytes of shared memory asked, at most {} can "
                                      "be given (GM20B: 49152, this device: {})",
                                      too_much_shared.qmd_address, std::min(49152u, device_limit), device_limit));
  CHECK(diagnostics[1] == fmt::format("compute dispatch of the QMD at GPU {:#x} skipped: compute program at GPU {:#x}: unmapped GPU memory at {:#x} "
                                      "before the branch to itself that ends a program",
                                      unmapped.qmd_address, nowhere, nowhere));
  CHECK(scene.gpu.memory().read_u32(kSemaphores) == 1);
  CHECK(scene.gpu.memory().read_u32(kSemaphores + 4) == 2);
  CHECK(scene.renderer->statistics().skipped_dispatches == 2);
  check_no_validation_messages(context);
}
