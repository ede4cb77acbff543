// The 3D engine decodes fixed-function registers into RenderState once per snapshot: both enumerations the
// class accepts (OGL values such as 0x4302 SRC_ALPHA, D3D values such as 5), per-target blend state, and
// undefined values recorded where the draw would use them, never thrown for state it does not use.
#include <catch2/catch.hpp>

#include <bit>

#include "tests/gpu/maxwell/maxwell_test_support.h"

using namespace kiln::maxwell;
using namespace kiln::maxwell::test;

namespace {
const RenderState& drawn_state(TestGpu& t, StreamBuilder& s, size_t event = 0) {
  s.method(0, "BEGIN", 4).method(0, "SET_VERTEX_ARRAY_START", 0).method(0, "DRAW_VERTEX_ARRAY", 3).method(0, "END", 0);
  t.submit(s);
  REQUIRE(t.run().idle);
  REQUIRE(t.backend.events.size() > event);
  return std::get<std::shared_ptr<const DrawSnapshot>>(t.backend.events[event])->render;
}
} // namespace

TEST_CASE("render state: OGL and D3D blend enumerations decode to the same equation", "[maxwell][3d]") {
  for (const bool d3d : {false, true}) {
    TestGpu t;
    StreamBuilder s;
    s.bind(0, ClassId::threed);
    s.method(0, "SET_BLEND", 0, 1).method(0, "SET_BLEND_SEPARATE_FOR_ALPHA", 1);
    s.method(0, "SET_BLEND_COLOR_OP", d3d ? 3u : 0x800bu);                  // REVERSE_SUBTRACT
    s.method(0, "SET_BLEND_COLOR_SOURCE_COEFF", d3d ? 5u : 0x4302u);        // SRC_ALPHA
    s.method(0, "SET_BLEND_COLOR_DEST_COEFF", d3d ? 6u : 0x4303u);          // ONE_MINUS_SRC_ALPHA
    s.method(0, "SET_BLEND_ALPHA_OP", d3d ? 5u : 0x8008u);                  // MAX
    s.method(0, "SET_BLEND_ALPHA_SOURCE_COEFF", d3d ? 0x10u : 0xc900u);     // SRC1_COLOR
    s.method(0, "SET_BLEND_ALPHA_DEST_COEFF", d3d ? 0x0eu : 0xc001u);       // CONSTANT_COLOR
    s.method(0, "SET_CT_WRITE", 0, 0x0101);                                 // R and B
    s.method(0, "SET_BLEND_CONST_GREEN", std::bit_cast<uint32_t>(0.25f));
    const RenderState& r = drawn_state(t, s);
    const BlendTarget& b = r.blend[0];
    CHECK(b.enable);
    CHECK(b.color_op == BlendOp::reverse_subtract);
    CHECK(b.color_source == BlendFactor::source_alpha);
    CHECK(b.color_dest == BlendFactor::one_minus_source_alpha);
    CHECK(b.alpha_op == BlendOp::max);
    CHECK(b.alpha_source == BlendFactor::source1_color);
    CHECK(b.alpha_dest == BlendFactor::constant_color);
    CHECK(b.write_mask == 0b0101);
    CHECK(b.reads_second_source());
    CHECK(b.problem.empty());
    CHECK(r.blend_constants[1] == 0.25f);
    CHECK_FALSE(r.blend[1].enable);
  }
}

TEST_CASE("render state: per-target blend state and the shared write mask", "[maxwell][3d]") {
  TestGpu t;
  StreamBuilder s;
  s.bind(0, ClassId::threed);
  s.method(0, "SET_BLEND_STATE_PER_TARGET", 1).method(0, "SET_BLEND", 2, 1);
  s.method(0, "SET_BLEND_PER_TARGET_COLOR_OP", 2, 2).method(0, "SET_BLEND_PER_TARGET_COLOR_SOURCE_COEFF", 2, 2);
  s.method(0, "SET_BLEND_PER_TARGET_COLOR_DEST_COEFF", 2, 2);                   // SUBTRACT(ONE, ONE), D3D
  s.method(0, "SET_BLEND_COLOR_OP", 0x8007);                                    // common state: not used
  s.method(0, "SET_SINGLE_CT_WRITE_CONTROL", 1).method(0, "SET_CT_WRITE", 0, 0x1000).method(0, "SET_CT_WRITE", 2, 0x1111);
  const RenderState& r = drawn_state(t, s);
  CHECK(r.blend[2].enable);
  CHECK(r.blend[2].color_op == BlendOp::subtract);
  CHECK(r.blend[2].alpha_op == BlendOp::subtract); // not separate: alpha follows colour
  CHECK(r.blend[2].color_source == BlendFactor::one);
  for (uint32_t k = 0; k < color_target_count; ++k) CHECK(r.blend[k].write_mask == 0b1000); // target 0's mask (A)
}

TEST_CASE("render state: depth, stencil, cull and raster", "[maxwell][3d]") {
  TestGpu t;
  StreamBuilder s;
  s.bind(0, ClassId::threed);
  s.method(0, "SET_DEPTH_TEST", 1).method(0, "SET_DEPTH_WRITE", 1).method(0, "SET_DEPTH_FUNC", 0x203); // LEQUAL
  s.method(0, "SET_STENCIL_TEST", 1).method(0, "SET_STENCIL_OP_FAIL", 0x1e01).method(0, "SET_STENCIL_OP_ZFAIL", 7);
  s.method(0, "SET_STENCIL_OP_ZPASS", 0x150a).method(0, "SET_STENCIL_FUNC", 6).method(0, "SET_STENCIL_FUNC_REF", 0x1ab);
  s.method(0, "SET_STENCIL_FUNC_MASK", 0xf0).method(0, "SET_STENCIL_MASK", 0x0f);
  s.method(0, "OGL_SET_CULL", 1).method(0, "OGL_SET_FRONT_FACE", 0x900);
  s.header(HeaderKind::increasing, 0, 0x1920, 1).word(0x408); // OGL_SET_CULL_FACE FRONT_AND_BACK
  s.method(0, "SET_WINDOW_ORIGIN", 1).method(0, "SET_FRONT_POLYGON_MODE", 0x1b01).method(0, "SET_POLY_OFFSET_FILL", 1);
  s.method(0, "SET_DEPTH_BIAS", std::bit_cast<uint32_t>(6.0f)).method(0, "SET_VIEWPORT_Z_CLIP", 0);
  s.method(0, "SET_DA_PRIMITIVE_RESTART", 1).method(0, "SET_DA_PRIMITIVE_RESTART_INDEX", 0xffff);
  const RenderState& r = drawn_state(t, s);
  CHECK(r.problem.empty());
  CHECK(r.depth_test);
  CHECK(r.depth_write);
  CHECK(r.depth_compare == CompareFunc::less_equal);
  CHECK(r.stencil_test);
  CHECK(r.front.fail == StencilOp::replace);
  CHECK(r.front.depth_fail == StencilOp::increment_and_wrap);
  CHECK(r.front.pass == StencilOp::invert);
  CHECK(r.front.compare == CompareFunc::not_equal);
  CHECK(r.front.reference == 0xab);
  CHECK(r.front.compare_mask == 0xf0);
  CHECK(r.front.write_mask == 0x0f);
  CHECK(r.back == r.front); // one-sided: the back face follows the front
  CHECK(r.cull == CullFace::front_and_back);
  CHECK_FALSE(r.front_counter_clockwise);
  CHECK(r.lower_left_origin);
  CHECK(r.polygon_mode == PolygonMode::line);
  CHECK(r.depth_bias_fill);
  CHECK(r.depth_bias_constant == 3.0f); // the register holds twice the API's units
  CHECK(r.depth_clip_negative_one_to_one);
  CHECK(r.primitive_restart);
  CHECK(r.primitive_restart_index == 0xffff);
}

TEST_CASE("render state: undefined values are problems only where enabled", "[maxwell][3d]") {
  TestGpu t;
  StreamBuilder s;
  s.bind(0, ClassId::threed);
  s.method(0, "SET_BLEND_COLOR_OP", 0x1234).method(0, "SET_DEPTH_FUNC", 0x99); // both disabled: not problems
  s.method(0, "SET_BLEND", 3, 1);
  s.method(0, "BEGIN", 4).method(0, "SET_VERTEX_ARRAY_START", 0).method(0, "DRAW_VERTEX_ARRAY", 3).method(0, "END", 0);
  s.method(0, "SET_DEPTH_TEST", 1);
  const RenderState& r = drawn_state(t, s, 1);
  const auto& first = std::get<std::shared_ptr<const DrawSnapshot>>(t.backend.events[0])->render;
  CHECK(first.blend[0].problem.empty());
  CHECK(first.blend[3].problem == "3D method 0x1340 = 0x1234 is not a known blend operation");
  CHECK(first.problem.empty());
  CHECK(r.problem == "0x99 is not a known compare function"); // the second draw enabled the depth test
}
