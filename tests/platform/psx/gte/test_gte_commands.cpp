// GTE commands against values worked out by hand from psx-spx's formulas (each derivation in the comments).
// Matrices are 1.3.12 fixed point (1000h = 1.0); sf=1 shifts results right by 12.
#include <catch2/catch.hpp>

#include "tests/platform/psx/gte/gte_harness.h"

using namespace kiln::psx::test;

namespace {

constexpr int16_t identity[9] = {0x1000, 0, 0, 0, 0x1000, 0, 0, 0, 0x1000};
constexpr int16_t half_identity[9] = {0x800, 0, 0, 0, 0x800, 0, 0, 0, 0x800};

// Rotation identity, no translation, screen centre (160,120), H = 1000, DQA = 100h, DQB = 0.
kiln::psx::Gte projection_setup() {
  kiln::psx::Gte gte;
  set_matrix(gte, rotation, identity);
  gte.write_control(ofx, 160u << 16);
  gte.write_control(ofy, 120u << 16);
  gte.write_control(h, 1000);
  gte.write_control(dqa, 0x100);
  return gte;
}

} // namespace

TEST_CASE("RTPS projects a vertex", "[psx][gte][rtps]") {
  auto gte = projection_setup();
  set_vertex(gte, 0, 100, 50, 1000);
  REQUIRE(gte.execute(0x01 | sf));
  // MAC = RT*V + TR: (100, 50, 1000); SZ3 = 1000; H/SZ3 = 1.0 = 10000h; SX = 160 + 100, SY = 120 + 50;
  // MAC0 = DQB + DQA*10000h = 1000000h, IR0 = MAC0 >> 12 = 1000h (the top of its range, not saturated).
  CHECK(mac(gte, 1) == 100);
  CHECK(mac(gte, 3) == 1000);
  CHECK(ir(gte, 2) == 50);
  CHECK(gte.read_data(19) == 1000);
  CHECK(gte.read_data(14) == pair(260, 170));
  CHECK(mac(gte, 0) == 0x1000000);
  CHECK(ir(gte, 0) == 0x1000);
  CHECK(gte.flag() == 0);
}

TEST_CASE("RTPS saturation: division overflow and screen X", "[psx][gte][rtps]") {
  auto gte = projection_setup();
  SECTION("SZ3 <= H/2: quotient 1FFFFh and FLAG 17") {
    set_vertex(gte, 0, 100, 0, 400);
    gte.execute(0x01 | sf);
    // SX = (160*10000h + 100*1FFFFh) >> 16 = 23592860 >> 16 = 359.
    // IR0 = 100h * 1FFFFh >> 12 = 1FFFh: saturated to 1000h, FLAG 12 (not an error bit).
    CHECK(gte.read_data(14) == pair(359, 120));
    CHECK(ir(gte, 0) == 0x1000);
    CHECK(gte.flag() == (flag_divide | flag_ir0 | flag_error));
  }
  SECTION("SX beyond 3FFh") {
    set_vertex(gte, 0, 2000, 0, 1000);
    gte.execute(0x01 | sf);
    CHECK(static_cast<int16_t>(gte.read_data(14)) == 0x3FF);
    CHECK(gte.flag() == (flag_sx | flag_error));
  }
  SECTION("with sf=0, IR3's flag looks at MAC3 >> 12 while IR1's looks at MAC1") {
    gte.write_control(h, 0);
    set_vertex(gte, 0, 0x7FFF, 0, 0x7FFF);
    gte.execute(0x01);
    // MAC1 = MAC3 = 1000h * 7FFFh = 7FFF000h: IR1 and IR3 both saturate to 7FFFh, but only IR1 flags;
    // MAC3 >> 12 = 7FFFh fits. SZ3 = 7FFFh. H = 0: quotient 0.
    CHECK(ir(gte, 1) == 0x7FFF);
    CHECK(ir(gte, 3) == 0x7FFF);
    CHECK(gte.read_data(19) == 0x7FFF);
    CHECK(gte.flag() == (flag_ir1 | flag_error));
  }
}

TEST_CASE("RTPT projects three vertices and depth-cues the last", "[psx][gte][rtps]") {
  auto gte = projection_setup();
  set_vertex(gte, 0, 10, 0, 1000);
  set_vertex(gte, 1, 20, 0, 1000);
  set_vertex(gte, 2, 30, 0, 2000);
  REQUIRE(gte.execute(0x30 | sf));
  CHECK(gte.read_data(12) == pair(170, 120));
  CHECK(gte.read_data(13) == pair(180, 120));
  CHECK(gte.read_data(14) == pair(175, 120)); // 30 * 1000/2000 = 15
  CHECK(gte.read_data(17) == 1000);
  CHECK(gte.read_data(19) == 2000);
  // Depth cue of the last: 1000/2000 = 8000h; MAC0 = 100h * 8000h = 800000h, IR0 = 800h.
  CHECK(mac(gte, 0) == 0x800000);
  CHECK(ir(gte, 0) == 0x800);
}

TEST_CASE("NCLIP, AVSZ3, AVSZ4", "[psx][gte]") {
  kiln::psx::Gte gte;
  gte.write_data(12, pair(0, 0));
  gte.write_data(13, pair(10, 0));
  gte.write_data(14, pair(0, 10));
  REQUIRE(gte.execute(0x06));
  CHECK(mac(gte, 0) == 100); // x0*y1 + x1*y2 + x2*y0 - x0*y2 - x1*y0 - x2*y1 = 10*10
  for (unsigned i = 0; i < 4; ++i) gte.write_data(16 + i, 100 * (i + 1));
  gte.write_control(zsf3, 341);
  REQUIRE(gte.execute(0x2D));
  CHECK(mac(gte, 0) == 341 * 900); // SZ1+SZ2+SZ3 = 200+300+400
  CHECK(gte.read_data(7) == 341 * 900 / 4096);
  gte.write_control(zsf4, 0x100);
  REQUIRE(gte.execute(0x2E));
  CHECK(mac(gte, 0) == 256000);
  CHECK(gte.read_data(7) == 62); // 256000 / 4096 = 62.5
  gte.write_control(zsf3, 0xFFFF); // -1
  gte.execute(0x2D);
  CHECK(gte.read_data(7) == 0);
  CHECK(gte.flag() == (flag_sz_otz | flag_error));
}

TEST_CASE("OP is the cross product with the rotation diagonal", "[psx][gte]") {
  kiln::psx::Gte gte;
  set_matrix(gte, rotation, identity);
  set_ir(gte, 10, 20, 30);
  REQUIRE(gte.execute(0x0C | sf));
  // (1,1,1) x (10,20,30) = (1*30 - 1*20, 1*10 - 1*30, 1*20 - 1*10).
  CHECK(mac(gte, 1) == 10);
  CHECK(mac(gte, 2) == -20);
  CHECK(mac(gte, 3) == 10);
  CHECK(gte.flag() == 0);
  set_ir(gte, 10, 20, 30);
  gte.execute(0x0C | sf | lm);
  CHECK(ir(gte, 2) == 0);
  CHECK(gte.flag() == (flag_ir2 | flag_error));
}

TEST_CASE("SQR squares IR", "[psx][gte]") {
  kiln::psx::Gte gte;
  set_ir(gte, 3, -4, 0x4000);
  REQUIRE(gte.execute(0x28));
  CHECK(mac(gte, 1) == 9);
  CHECK(mac(gte, 2) == 16);
  CHECK(mac(gte, 3) == 0x10000000);
  CHECK(ir(gte, 3) == 0x7FFF);
  CHECK(gte.flag() == flag_ir3); // bit 31 sums bits 30-23 and 18-13: IR3's bit 22 is not among them
  set_ir(gte, 0x1000, 0, 0);
  gte.execute(0x28 | sf);
  CHECK(ir(gte, 1) == 0x1000);
}

TEST_CASE("MVMVA: matrices, vectors, translations and the two oddities", "[psx][gte][mvmva]") {
  kiln::psx::Gte gte;
  const int16_t m[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  set_matrix(gte, light, m);
  set_vertex(gte, 1, 10, 20, 30);
  set_vector(gte, background, 1, 2, 3);
  SECTION("light matrix x V1 + BK, sf=0") {
    REQUIRE(gte.execute(mvmva(1, 1, 1)));
    // BK << 12 + row . (10,20,30): 4096+140, 8192+320, 12288+500.
    CHECK(mac(gte, 1) == 4236);
    CHECK(mac(gte, 2) == 8512);
    CHECK(mac(gte, 3) == 12788);
    CHECK(ir(gte, 3) == 12788);
  }
  SECTION("far-colour translation drops the first column but keeps its flags") {
    set_vector(gte, far_colour, 8, 0, 0);
    REQUIRE(gte.execute(mvmva(1, 1, 2)));
    // Row 1: FC<<12 + 1*10 = 32778 > 7FFFh sets FLAG 24; the result is 2*20 + 3*30 = 130.
    CHECK(mac(gte, 1) == 130);
    CHECK(mac(gte, 2) == 5 * 20 + 6 * 30);
    CHECK(gte.flag() == (flag_ir1 | flag_error));
  }
  SECTION("matrix 3 reads [-R*16, R*16, IR0], [RT13 x3], [RT22 x3]") {
    const int16_t rt[9] = {0, 0, 7, 0, 9, 0, 0, 0, 0};
    set_matrix(gte, rotation, rt);
    gte.write_data(6, 2);       // R = 2
    gte.write_data(8, 5);       // IR0
    set_vertex(gte, 0, 1, 2, 3);
    REQUIRE(gte.execute(mvmva(3, 0, 3)));
    CHECK(mac(gte, 1) == -32 * 1 + 32 * 2 + 5 * 3);
    CHECK(mac(gte, 2) == 7 * 6);
    CHECK(mac(gte, 3) == 9 * 6);
  }
  SECTION("IR as the vector, lm clamps negatives to 0") {
    set_ir(gte, -1, 0, 0);
    REQUIRE(gte.execute(mvmva(1, 3, 3) | lm));
    CHECK(mac(gte, 1) == -1);
    CHECK(ir(gte, 1) == 0);
    CHECK((gte.flag() & flag_ir1) != 0);
  }
  SECTION("44-bit overflow sets FLAG 30 and the accumulator wraps") {
    const int16_t big[9] = {0x7FFF, 0x7FFF, 0x7FFF, 0, 0, 0, 0, 0, 0};
    set_matrix(gte, rotation, big);
    set_vertex(gte, 0, 0x7FFF, 0x7FFF, 0x7FFF);
    set_vector(gte, translation, 0x7FFFFFFF, 0, 0);
    REQUIRE(gte.execute(mvmva(0, 0, 0) | sf));
    // 7FFFFFFFh << 12 = 2^43 - 4096; + 7FFFh^2 (3FFF0001h) passes 2^43, so the 44-bit sum wraps by 2^44
    // after the first product; the two more products are added to the wrapped value.
    const int64_t product = int64_t{0x7FFF} * 0x7FFF;
    const int64_t wrapped = (int64_t{0x7FFFFFFF} << 12) + 3 * product - (int64_t{1} << 44);
    CHECK(mac(gte, 1) == static_cast<int32_t>(wrapped >> 12));
    CHECK((gte.flag() & flag_mac1_positive) != 0);
    CHECK(ir(gte, 1) == -0x8000);
  }
}

TEST_CASE("lighting: NCS, NCCS, NCDS, CC, CDP and the triple forms", "[psx][gte][colour]") {
  kiln::psx::Gte gte;
  set_matrix(gte, light, identity);
  set_matrix(gte, colour, half_identity);
  set_vertex(gte, 0, 0x1000, 0, 0);
  set_vertex(gte, 1, 0, 0x1000, 0);
  set_vertex(gte, 2, 0, 0, 0x1000);
  gte.write_data(6, 0x38000080); // R = 80h, code 38h
  gte.write_data(8, 0x800);      // IR0 = 0.5
  SECTION("NCS: light x normal = (1000h,0,0); colour matrix halves it: 800h; colour = MAC >> 4 = 80h") {
    REQUIRE(gte.execute(0x1E | sf | lm));
    CHECK(gte.read_data(22) == 0x38000080);
  }
  SECTION("NCCS multiplies by the vertex colour: (80h << 4) * 800h >> 12 = 400h -> 40h") {
    REQUIRE(gte.execute(0x1B | sf | lm));
    CHECK(ir(gte, 1) == 0x400);
    CHECK(gte.read_data(22) == 0x38000040);
  }
  SECTION("NCDS depth-cues towards a black far colour by IR0 = 0.5: (400000h - 800h*400h) >> 12 = 200h -> 20h") {
    REQUIRE(gte.execute(0x13 | sf | lm));
    CHECK(gte.read_data(22) == 0x38000020);
  }
  SECTION("CC and CDP start from IR instead of a normal") {
    set_ir(gte, 0x1000, 0, 0);
    REQUIRE(gte.execute(0x1C | sf | lm));
    CHECK(gte.read_data(22) == 0x38000040);
    set_ir(gte, 0x1000, 0, 0);
    REQUIRE(gte.execute(0x14 | sf | lm));
    CHECK(gte.read_data(22) == 0x38000020);
  }
  SECTION("NCT, NCCT, NCDT light V0, V1, V2 into the colour FIFO") {
    REQUIRE(gte.execute(0x20 | sf | lm));
    CHECK(gte.read_data(20) == 0x38000080);
    CHECK(gte.read_data(21) == 0x38008000);
    CHECK(gte.read_data(22) == 0x38800000);
    gte.write_data(6, 0x38808080);
    REQUIRE(gte.execute(0x3F | sf | lm));
    CHECK(gte.read_data(20) == 0x38000040);
    CHECK(gte.read_data(22) == 0x38400000);
    REQUIRE(gte.execute(0x16 | sf | lm));
    CHECK(gte.read_data(21) == 0x38002000);
  }
  SECTION("colour saturation sets FLAG 21") {
    set_matrix(gte, colour, identity);
    REQUIRE(gte.execute(0x1E | sf | lm)); // 1000h >> 4 = 100h > FFh
    CHECK(gte.read_data(22) == 0x380000FF);
    CHECK(gte.flag() == flag_colour_r);   // not an error bit
  }
}

TEST_CASE("depth cueing: DPCS, INTPL, DCPL, DPCT", "[psx][gte][colour]") {
  kiln::psx::Gte gte;
  set_vector(gte, far_colour, 0xFF0, 0, 0); // far red 255 (<<4)
  gte.write_data(8, 0x800);                 // IR0 = 0.5
  gte.write_data(6, 0x00000080);            // R = 80h
  // Halfway from 80h to FFh: (80h<<16 + 800h * ((FF0h<<12 - 80h<<16) >> 12)) >> 12 = 800h + 3F8h = BF8h -> BFh.
  SECTION("DPCS") {
    REQUIRE(gte.execute(0x10 | sf));
    CHECK(gte.read_data(22) == 0xBF);
    CHECK(ir(gte, 1) == 0xBF8);
  }
  SECTION("INTPL from IR") {
    set_ir(gte, 0x800, 0, 0);
    REQUIRE(gte.execute(0x11 | sf));
    CHECK(gte.read_data(22) == 0xBF);
  }
  SECTION("DCPL from colour x IR, IR = 1.0") {
    set_ir(gte, 0x1000, 0, 0);
    REQUIRE(gte.execute(0x29 | sf));
    CHECK(gte.read_data(22) == 0xBF);
  }
  SECTION("DPCT takes the oldest FIFO entry three times") {
    gte.write_data(20, 0x80);
    gte.write_data(21, 0x00);
    gte.write_data(22, 0x00);
    REQUIRE(gte.execute(0x2A | sf));
    // 80h -> BFh; then 00h -> FF0h * 0.5 = 7F8h -> 7Fh, twice.
    CHECK(gte.read_data(20) == 0xBF);
    CHECK(gte.read_data(21) == 0x7F);
    CHECK(gte.read_data(22) == 0x7F);
  }
}

TEST_CASE("GPF and GPL", "[psx][gte][colour]") {
  kiln::psx::Gte gte;
  gte.write_data(8, 0x800);
  set_ir(gte, 0x100, 0x200, 0x300);
  REQUIRE(gte.execute(0x3D | sf));
  // IR0 * IR >> 12 = 80h, 100h, 180h; colours >> 4.
  CHECK(mac(gte, 1) == 0x80);
  CHECK(gte.read_data(22) == (0x08u | 0x10u << 8 | 0x18u << 16));
  gte.write_data(25, 0x10);
  gte.write_data(26, 0x20);
  gte.write_data(27, 0x30);
  set_ir(gte, 0x100, 0x200, 0x300);
  REQUIRE(gte.execute(0x3E | sf));
  // (MAC << 12 + IR0 * IR) >> 12 = 90h, 120h, 1B0h.
  CHECK(mac(gte, 1) == 0x90);
  CHECK(mac(gte, 3) == 0x1B0);
  CHECK(gte.read_data(22) == (0x09u | 0x12u << 8 | 0x1Bu << 16));
}

TEST_CASE("opcodes outside the command set are refused and change nothing", "[psx][gte]") {
  kiln::psx::Gte gte;
  gte.write_control(31, 0x00001000);
  for (const uint32_t opcode : {0x00u, 0x02u, 0x15u, 0x1Au, 0x3Cu}) {
    CHECK_FALSE(gte.execute(opcode));
    CHECK(gte.flag() == 0x00001000);
  }
}
