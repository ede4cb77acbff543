// 3D state: draw snapshots, constant buffer updates, clears with scissor and masks, reports and conditional
// rendering (seed 002 §1.3, §1.4, §4.2).
#include <catch2/catch.hpp>

#include <bit>
#include <random>

#include "runtime/gpu/maxwell/engine_3d.h"
#include "tests/gpu/maxwell/maxwell_test_support.h"

using namespace kiln::maxwell;
using namespace kiln::maxwell::test;

namespace {
uint32_t high(uint64_t address) { return static_cast<uint32_t>(address >> 32); }
uint32_t low(uint64_t address) { return static_cast<uint32_t>(address); }

// A vertex shader at program offset 0x100 with a recognisable SPH, a colour target, and a draw of 3 vertices.
void draw_setup(StreamBuilder& s, uint64_t program_region) {
  s.bind(0, ClassId::threed);
  s.method(0, "SET_PROGRAM_REGION_A", high(program_region)).method(0, "SET_PROGRAM_REGION_B", low(program_region));
  s.method(0, "SET_PIPELINE_SHADER", 1, 1u | (1u << 4)).method(0, "SET_PIPELINE_PROGRAM", 1, 0x100); // VERTEX
  s.method(0, "SET_COLOR_TARGET_A", 0, high(data)).method(0, "SET_COLOR_TARGET_B", 0, low(data));
  s.method(0, "SET_COLOR_TARGET_WIDTH", 0, 64).method(0, "SET_COLOR_TARGET_HEIGHT", 0, 32);
  s.method(0, "SET_COLOR_TARGET_FORMAT", 0, 0xd5); // A8B8G8R8
}
void draw(StreamBuilder& s, uint32_t first, uint32_t count) {
  s.method(0, "BEGIN", 4); // TRIANGLES, INSTANCE_ID FIRST
  s.method(0, "SET_VERTEX_ARRAY_START", first).method(0, "DRAW_VERTEX_ARRAY", count);
  s.method(0, "END", 0);
}
} // namespace

TEST_CASE("a draw freezes its state, later methods and memory writes do not alter the snapshot", "[maxwell][3d]") {
  TestGpu t;
  const uint64_t programs = data + 0x10000;
  std::vector<uint8_t> sph(0x50);
  for (size_t i = 0; i < sph.size(); ++i) sph[i] = static_cast<uint8_t>(i + 1);
  t.gpu.memory().write(programs + 0x100, sph);
  StreamBuilder s;
  draw_setup(s, programs);
  s.method(0, "SET_DEPTH_TEST", 1).method(0, "SET_SCISSOR_ENABLE", 0, 1).method(0, "SET_SCISSOR_HORIZONTAL", 0, 10u << 16);
  draw(s, 6, 3);
  s.method(0, "SET_DEPTH_TEST", 0).method(0, "SET_COLOR_TARGET_WIDTH", 0, 128); // after the draw
  t.submit(s);
  REQUIRE(t.run().idle);
  std::vector<uint8_t> other(0x50, 0xee);
  t.gpu.memory().write(programs + 0x100, other); // the SPH changes after the draw too
  REQUIRE(t.backend.events.size() == 1);
  const auto& snapshot = *std::get<std::shared_ptr<const DrawSnapshot>>(t.backend.events[0]);
  CHECK(snapshot.topology == 4);
  CHECK_FALSE(snapshot.indexed);
  CHECK(snapshot.first == 6);
  CHECK(snapshot.count == 3);
  CHECK(snapshot.programs[1].enabled);
  CHECK(snapshot.programs[1].type == 1);
  CHECK(snapshot.programs[1].address == programs + 0x100);
  CHECK(std::vector<uint8_t>(snapshot.programs[1].header.begin(), snapshot.programs[1].header.end()) == sph);
  CHECK(snapshot.color_targets[0].width == 64);
  CHECK(snapshot.color_targets[0].format == 0xd5);
  CHECK(snapshot.scissors[0].enabled);
  CHECK(snapshot.scissors[0].x_max == 10);
  CHECK(snapshot.render.depth_test);
  CHECK(snapshot.render_enabled);
}

TEST_CASE("indexed and instanced draws", "[maxwell][3d]") {
  TestGpu t;
  StreamBuilder s;
  s.bind(0, ClassId::threed);
  s.method(0, "SET_INDEX_BUFFER_A", high(data)).method(0, "SET_INDEX_BUFFER_B", low(data));
  s.method(0, "SET_INDEX_BUFFER_E", 1).method(0, "SET_INDEX_BUFFER_F", 12); // 2-byte indices from index 12
  s.method(0, "BEGIN", 5).method(0, "DRAW_INDEX_BUFFER", 30).method(0, "END", 0);
  s.method(0, "BEGIN", 5u | (1u << 26)).method(0, "DRAW_INDEX_BUFFER", 30).method(0, "END", 0); // SUBSEQUENT
  t.submit(s);
  REQUIRE(t.run().idle);
  REQUIRE(t.backend.events.size() == 2);
  const auto& first = *std::get<std::shared_ptr<const DrawSnapshot>>(t.backend.events[0]);
  const auto& second = *std::get<std::shared_ptr<const DrawSnapshot>>(t.backend.events[1]);
  CHECK(first.indexed);
  CHECK(first.index_size == 2);
  CHECK(first.index_address == data);
  CHECK(first.first == 12);
  CHECK(first.count == 30);
  CHECK(first.instance == 0);
  CHECK(second.instance == 1);
  CHECK(second.draw_index == first.draw_index + 1);
}

TEST_CASE("inline indices: 32-bit, 2x16 with an odd start and a count, 4x8", "[maxwell][3d]") {
  TestGpu t;
  StreamBuilder s;
  s.bind(0, ClassId::threed);
  s.method(0, "BEGIN", 4);
  s.method(0, "SET_INLINE_INDEX2X16_ALIGN", 3u | (1u << 31)); // three indices, starting at the odd half
  const uint32_t halves[] = {0x00020001, 0x00040003};
  s.non_incrementing(0, "DRAW_INLINE_INDEX2X16", halves);
  s.method(0, "END", 0);
  s.method(0, "BEGIN", 1);
  s.method(0, "DRAW_INLINE_INDEX4X8", 0x04030201);
  s.method(0, "DRAW_INLINE_INDEX", 0x12345678);
  s.method(0, "END", 0);
  t.submit(s);
  REQUIRE(t.run().idle);
  REQUIRE(t.backend.events.size() == 2);
  const auto& first = *std::get<std::shared_ptr<const DrawSnapshot>>(t.backend.events[0]);
  const auto& second = *std::get<std::shared_ptr<const DrawSnapshot>>(t.backend.events[1]);
  CHECK(first.indexed);
  CHECK(first.inline_indices == std::vector<uint32_t>{2, 3, 4});
  CHECK(first.count == 3);
  CHECK(second.topology == 1);
  CHECK(second.inline_indices == std::vector<uint32_t>{1, 2, 3, 4, 0x12345678});
}

TEST_CASE("constant buffer updates write memory at the selected buffer and bind per stage", "[maxwell][3d]") {
  TestGpu t;
  const uint64_t cbuf = data + 0x8000;
  StreamBuilder s;
  s.bind(0, ClassId::threed);
  const uint32_t selector[] = {0x100, high(cbuf), low(cbuf)};
  s.incrementing(0, "SET_CONSTANT_BUFFER_SELECTOR_A", selector);
  s.method(0, "LOAD_CONSTANT_BUFFER_OFFSET", 0x10);
  const uint32_t values[] = {0xaaaa0001, 0xaaaa0002, 0xaaaa0003};
  s.non_incrementing(0, "LOAD_CONSTANT_BUFFER", values);
  s.method(0, "BIND_GROUP_CONSTANT_BUFFER", 4, 1u | (3u << 4)); // fragment group, slot 3, valid
  t.submit(s);
  REQUIRE(t.run().idle);
  CHECK(t.gpu.memory().read_u32(cbuf + 0x10) == 0xaaaa0001u);
  CHECK(t.gpu.memory().read_u32(cbuf + 0x18) == 0xaaaa0003u);
  const auto* threed = static_cast<Engine3D*>(t.engine(0, ClassId::threed));
  CHECK(threed->reg(0x238c) == 0x1c); // the offset advanced by one word per update
  const ConstantBufferBinding& binding = threed->constant_buffers()[4][3];
  CHECK(binding.valid);
  CHECK(binding.address == cbuf);
  CHECK(binding.size == 0x100);
  // Past the selected size: reported, not written.
  StreamBuilder overflow;
  overflow.assume_bound(0, ClassId::threed);
  overflow.method(0, "LOAD_CONSTANT_BUFFER_OFFSET", 0x100).method(0, "LOAD_CONSTANT_BUFFER", 0, 5);
  t.submit(overflow);
  t.run();
  REQUIRE(t.gpu.diagnostics().size() == 1);
  CHECK(t.gpu.diagnostics()[0].message.find("past the selected buffer") != std::string::npos);
}

TEST_CASE("clears honour the clear's channel mask, scissor 0, clear rect and stencil mask", "[maxwell][3d]") {
  TestGpu t;
  StreamBuilder s;
  draw_setup(s, data);
  s.method(0, "SET_SCISSOR_ENABLE", 0, 1);
  s.method(0, "SET_SCISSOR_HORIZONTAL", 0, 4u | (40u << 16)).method(0, "SET_SCISSOR_VERTICAL", 0, 2u | (20u << 16));
  s.method(0, "SET_CLEAR_RECT_HORIZONTAL", 0u | (30u << 16)).method(0, "SET_CLEAR_RECT_VERTICAL", 8u | (64u << 16));
  s.method(0, "SET_STENCIL_MASK", 0x0f).method(0, "SET_STENCIL_CLEAR_VALUE", 0x55);
  s.method(0, "SET_COLOR_CLEAR_VALUE", 1, std::bit_cast<uint32_t>(0.5f));
  // RESPECT_STENCIL_MASK, USE_CLEAR_RECT, USE_SCISSOR0
  s.method(0, "SET_CLEAR_SURFACE_CONTROL", 1u | (1u << 4) | (1u << 8));
  s.method(0, "CLEAR_SURFACE", (1u << 1) | (1u << 3) | (1u << 5)); // stencil, G, A of target 0
  t.submit(s);
  REQUIRE(t.run().idle);
  REQUIRE(t.backend.events.size() == 1);
  const auto& clear = std::get<ClearSnapshot>(t.backend.events[0]);
  CHECK(clear.stencil);
  CHECK_FALSE(clear.depth);
  CHECK(clear.color_mask == 0b1010);
  CHECK(clear.stencil_write_mask == 0x0f);
  CHECK(clear.stencil_value == 0x55);
  CHECK(std::bit_cast<float>(clear.color[1]) == 0.5f);
  // target 64x32 ∩ scissor [4,40)x[2,20) ∩ clear rect [0,30)x[8,64)
  CHECK(clear.x_min == 4);
  CHECK(clear.x_max == 30);
  CHECK(clear.y_min == 8);
  CHECK(clear.y_max == 20);
}

TEST_CASE("reports: TIMESTAMP writes 0 as its counter, ZPASS reads the backend, releases write the payload",
          "[maxwell][3d]") {
  TestGpu t;
  t.backend.simulated_samples_passed = 1234;
  const uint64_t reports = data + 0x9000;
  StreamBuilder s;
  s.bind(0, ClassId::threed);
  auto report = [&](uint64_t address, uint32_t payload, uint32_t d) {
    const uint32_t abcd[] = {high(address), low(address), payload, d};
    s.incrementing(0, "SET_REPORT_SEMAPHORE_A", abcd);
  };
  report(reports, 0, 2u);                       // REPORT_ONLY, REPORT_NONE, four words: {payload 0, time}
  report(reports + 0x10, 0, 2u | (0x15u << 23)); // REPORT_ONLY, ZPASS_PIXEL_CNT64
  report(reports + 0x20, 0xabc, 0u | (1u << 28)); // RELEASE, one word
  t.submit(s);
  REQUIRE(t.run().idle);
  CHECK(t.gpu.memory().read_u64(reports) == 0);
  CHECK(t.gpu.memory().read_u64(reports + 8) != 0);
  CHECK(t.gpu.memory().read_u64(reports + 0x10) == 1234);
  CHECK(t.gpu.memory().read_u64(reports + 0x18) > t.gpu.memory().read_u64(reports + 8)); // later, later time
  CHECK(t.gpu.memory().read_u32(reports + 0x20) == 0xabc);
  StreamBuilder reset;
  reset.assume_bound(0, ClassId::threed);
  reset.method(0, "CLEAR_REPORT_VALUE", 1); // ZPASS_PIXEL_CNT
  t.submit(reset);
  REQUIRE(t.run().idle);
  CHECK(t.backend.simulated_samples_passed == 0);
}

TEST_CASE("conditional rendering compares two 64-bit counters in command order", "[maxwell][3d]") {
  TestGpu t;
  const uint64_t condition = data + 0xa000;
  t.gpu.memory().write_u64(condition, 5);
  t.gpu.memory().write_u64(condition + 16, 5);
  StreamBuilder s;
  draw_setup(s, data);
  s.method(0, "SET_RENDER_ENABLE_A", high(condition)).method(0, "SET_RENDER_ENABLE_B", low(condition));
  s.method(0, "SET_RENDER_ENABLE_C", 3); // RENDER_IF_EQUAL
  s.method(0, "CLEAR_SURFACE", 1u << 2);
  // A report that lands between them changes the outcome for what follows.
  const uint32_t abcd[] = {high(condition + 16), low(condition + 16), 6, 0u | (1u << 28)};
  s.incrementing(0, "SET_REPORT_SEMAPHORE_A", abcd);
  s.method(0, "CLEAR_SURFACE", 1u << 2);
  s.method(0, "SET_RENDER_ENABLE_OVERRIDE", 1); // ALWAYS_RENDER
  s.method(0, "CLEAR_SURFACE", 1u << 2);
  t.submit(s);
  REQUIRE(t.run().idle);
  REQUIRE(t.backend.events.size() == 3);
  CHECK(std::get<ClearSnapshot>(t.backend.events[0]).render_enabled);
  CHECK_FALSE(std::get<ClearSnapshot>(t.backend.events[1]).render_enabled);
  CHECK(std::get<ClearSnapshot>(t.backend.events[2]).render_enabled);
}

namespace {
// Checks every draw against a snapshot built from scratch at the same moment: the incremental snapshot (copy of
// the previous draw, dirty groups rebuilt) must equal it.
class CheckingBackend final : public Backend {
public:
  explicit CheckingBackend(Gpu& gpu) : gpu_(gpu) {}
  void draw(std::shared_ptr<const DrawSnapshot> draw) override {
    const auto* threed = static_cast<const Engine3D*>(gpu_.channel(0).engine_of_class(0xb197));
    DrawSnapshot fresh = *threed->snapshot_draw();
    fresh.draw_index = draw->draw_index;
    fresh.topology = draw->topology;
    fresh.indexed = draw->indexed;
    fresh.first = draw->first;
    fresh.count = draw->count;
    fresh.instance = draw->instance;
    matches += fresh == *draw;
    ++draws;
  }
  void clear(const ClearSnapshot&) override {}
  void dispatch(const DispatchSnapshot&) override {}
  uint64_t draws = 0, matches = 0;

private:
  Gpu& gpu_;
};
} // namespace

TEST_CASE("incremental snapshots equal snapshots built from scratch under random state writes", "[maxwell][3d]") {
  // The backend needs the GPU and the GPU its backend.
  Gpu target;
  CheckingBackend checker(target);
  target.set_backend(&checker);
  target.memory().map_owned(arena, arena_size);
  target.create_channel();
  StreamBuilder s;
  s.bind(0, ClassId::threed);
  s.method(0, "SET_PROGRAM_REGION_A", 1).method(0, "SET_PROGRAM_REGION_B", 0x200000);
  std::mt19937 random(11);
  // Methods of every state group, and some that are in none.
  const std::vector<uint32_t> methods = {0x1c00, 0x1c04, 0x1c08, 0x1c10, 0x1f00, 0x1884, 0x1164, 0x2000, 0x2004,
                                         0x2044, 0x2140, 0x0800, 0x0808, 0x0850, 0x0fe0, 0x1228, 0x121c, 0x1538,
                                         0x0a00, 0x0a24, 0x0c00, 0x0e00, 0x0e14, 0x155c, 0x1578, 0x12cc, 0x1340,
                                         0x1a00, 0x1e04, 0x1644, 0x0d80, 0x1434};
  for (int draw = 0; draw < 200; ++draw) {
    for (uint32_t k = random() % 4; k > 0; --k) {
      uint32_t value = static_cast<uint32_t>(random());
      const uint32_t method = methods[random() % methods.size()];
      if (method >= 0x2000 && method < 0x2180 && (method & 0x3f) == 4) value &= 0xfff0; // program offsets in the arena
      if (method >= 0x2000 && method < 0x2180 && (method & 0x3f) == 0) value &= 0xff;
      s.header(HeaderKind::increasing, 0, method, 1).word(value);
    }
    if (random() % 3 == 0) { // a constant buffer binding change
      const uint32_t selector[] = {0x100, 1, static_cast<uint32_t>(random() & 0xfff00)};
      s.incrementing(0, "SET_CONSTANT_BUFFER_SELECTOR_A", selector);
      s.method(0, "BIND_GROUP_CONSTANT_BUFFER", random() % 5, 1u | ((random() % 18) << 4));
    }
    s.method(0, "BEGIN", 4).method(0, "DRAW_VERTEX_ARRAY", 3).method(0, "END", 0);
  }
  target.submit(0, s.place(target.memory(), arena));
  REQUIRE(target.run().idle);
  CHECK(target.diagnostics().empty());
  CHECK(checker.draws == 200);
  CHECK(checker.matches == 200);
}
