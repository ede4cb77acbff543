// GTE register file semantics (psx-spx "GTE Registers"): widths, sign extension, FIFOs, IRGB/ORGB, LZCS/LZCR,
// the FLAG register, and the UNR division table and division steps.
#include <catch2/catch.hpp>

#include "runtime/platform/psx/gte/division.h"
#include "tests/platform/psx/gte/gte_harness.h"

using namespace kiln::psx::test;

TEST_CASE("GTE data registers: widths and sign extension", "[psx][gte]") {
  kiln::psx::Gte gte;
  gte.write_data(1, 0x00018000); // VZ0: 16-bit, read sign-extended
  CHECK(gte.read_data(1) == 0xFFFF8000);
  gte.write_data(0, 0x8001FFFF); // VXY0: two halves
  CHECK(gte.read_data(0) == 0x8001FFFF);
  gte.write_data(7, 0xFFFFFFFF); // OTZ: unsigned 16-bit
  CHECK(gte.read_data(7) == 0x0000FFFF);
  gte.write_data(9, 0x00008000); // IR1: signed 16-bit
  CHECK(gte.read_data(9) == 0xFFFF8000);
  gte.write_data(17, 0x12345678); // SZ1: unsigned 16-bit
  CHECK(gte.read_data(17) == 0x5678);
  gte.write_data(23, 0xDEADBEEF); // RES1: plain 32-bit
  CHECK(gte.read_data(23) == 0xDEADBEEF);
  gte.write_data(26, 0x80000000); // MAC2: 32-bit
  CHECK(gte.read_data(26) == 0x80000000);
}

TEST_CASE("GTE SXYP pushes the screen FIFO", "[psx][gte]") {
  kiln::psx::Gte gte;
  gte.write_data(12, 0x00010001);
  gte.write_data(13, 0x00020002);
  gte.write_data(14, 0x00030003);
  CHECK(gte.read_data(15) == 0x00030003); // SXYP reads SXY2
  gte.write_data(15, 0x00040004);
  CHECK(gte.read_data(12) == 0x00020002);
  CHECK(gte.read_data(13) == 0x00030003);
  CHECK(gte.read_data(14) == 0x00040004);
}

TEST_CASE("GTE IRGB expands to IR1..3 and ORGB packs them back with saturation", "[psx][gte]") {
  kiln::psx::Gte gte;
  gte.write_data(28, 0x7C1F | 0x8000); // R=1Fh, G=0, B=1Fh (bit 15 ignored)
  CHECK(ir(gte, 1) == 0x1F << 7);
  CHECK(ir(gte, 2) == 0);
  CHECK(ir(gte, 3) == 0x1F << 7);
  set_ir(gte, -5, 0x7FFF, 0x0280); // -> 0 (negative), 1Fh (over), 0280h >> 7 = 5
  CHECK(gte.read_data(29) == (0u | 0x1Fu << 5 | 5u << 10));
  CHECK(gte.read_data(28) == gte.read_data(29));
  gte.write_data(29, 0); // read-only
  CHECK(gte.read_data(29) == (0u | 0x1Fu << 5 | 5u << 10));
}

TEST_CASE("GTE LZCR counts leading bits equal to the sign", "[psx][gte]") {
  kiln::psx::Gte gte;
  const std::pair<uint32_t, uint32_t> cases[] = {
      {0, 32}, {0xFFFFFFFF, 32}, {1, 31}, {0x80000000, 1}, {0x00FFFFFF, 8}, {0xFF000000, 8}, {0x7FFFFFFF, 1},
  };
  for (const auto& [value, count] : cases) {
    gte.write_data(30, value);
    CHECK(gte.read_data(30) == value);
    CHECK(gte.read_data(31) == count);
  }
}

TEST_CASE("GTE control registers: 16-bit ones sign-extend on read, FLAG keeps bits 12-30 and sums bit 31",
          "[psx][gte]") {
  kiln::psx::Gte gte;
  gte.write_control(4, 0x12348000); // RT33
  CHECK(gte.read_control(4) == 0xFFFF8000);
  gte.write_control(h, 0x0000FFFF); // H is unsigned but reads sign-extended
  CHECK(gte.read_control(h) == 0xFFFFFFFF);
  gte.write_control(translation, 0x80000001); // TRX: 32-bit
  CHECK(gte.read_control(translation) == 0x80000001);
  gte.write_control(31, 0xFFFFFFFF);
  CHECK(gte.read_control(31) == 0xFFFFF000);
  gte.write_control(31, 0x00001000); // IR0 saturation is not an error bit
  CHECK(gte.read_control(31) == 0x00001000);
  gte.write_control(31, 0x00040000); // SZ/OTZ saturation is
  CHECK(gte.read_control(31) == 0x80040000);
}

TEST_CASE("the UNR table and the division steps", "[psx][gte][division]") {
  // psx-spx lists the table starting FF FD FB F9 and ending in zeros; entry 80h = (40000h/180h+1)/2-101h = 84.
  CHECK(kiln::psx::unr_table_entry(0) == 0xFF);
  CHECK(kiln::psx::unr_table_entry(1) == 0xFD);
  CHECK(kiln::psx::unr_table_entry(2) == 0xFB);
  CHECK(kiln::psx::unr_table_entry(3) == 0xF9);
  CHECK(kiln::psx::unr_table_entry(0x80) == 84);
  CHECK(kiln::psx::unr_table_entry(0x40) == 0x99); // first entries of psx-spx's rows 40h, C0h, FFh
  CHECK(kiln::psx::unr_table_entry(0xC0) == 0x24);
  CHECK(kiln::psx::unr_table_entry(0xFF) == 0x00);
  CHECK(kiln::psx::unr_table_entry(0x100) == 0);
  // 100h / 200h: normalised d = 8000h, u = FFh + 101h = 200h, d = 10000h then 20000h: exactly 8000h (0.5).
  auto half = kiln::psx::gte_divide(0x100, 0x200);
  CHECK(half.quotient == 0x8000);
  CHECK_FALSE(half.overflow);
  // 1000 / 3000, step by step: shift 4, n = 16000, d = 48000, index (48000-7FC0h)>>7 = 119, table 93, u = 350,
  // d = (2000080h - 48000*350) >> 8 = 65447, d = (80h + 65447*350) >> 8 = 89478,
  // n = (16000*89478 + 8000h) >> 16 = 21845 (the exact value is 21845.33).
  CHECK(kiln::psx::gte_divide(1000, 3000).quotient == 21845);
  // H >= 2*SZ3: saturated, overflow.
  auto over = kiln::psx::gte_divide(0x1000, 0x800);
  CHECK(over.quotient == 0x1FFFF);
  CHECK(over.overflow);
  CHECK_FALSE(kiln::psx::gte_divide(0xFFF, 0x800).overflow);
  // psx-spx: FE3Fh / 7F20h comes out of the UNR steps as 20000h and is clamped to 1FFFFh without the flag.
  auto clamped = kiln::psx::gte_divide(0xFE3F, 0x7F20);
  CHECK(clamped.quotient == 0x1FFFF);
  CHECK_FALSE(clamped.overflow);
}
