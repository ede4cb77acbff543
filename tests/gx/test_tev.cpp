// Every TEV operation and mode, translated to IR and SPIR-V (validated), run on the CPU by the IR interpreter and
// compared with the independent model in tev_model.h.
#include <random>

#include <catch2/catch.hpp>

#include "runtime/base/error.h"
#include "tests/gx/pixel_harness.h"
#include "tests/gx/tev_model.h"

using namespace kiln::gx;
using namespace kiln::gx::test;

namespace {
// Colour inputs: 0 CPREV, 1 APREV, 2 C0, 3 A0, 4 C1, 5 A1, 6 C2, 7 A2, 10 RASC, 11 RASA, 12 ONE, 13 HALF,
// 14 KONST, 15 ZERO. Alpha inputs: 0 APREV, 1 A0, 2 A1, 3 A2, 5 RASA, 6 KONST, 7 ZERO.
constexpr uint32_t cprev = 0, c0 = 2, c1 = 4, c2 = 6, rasc = 10, rasa_c = 11, konst_c = 14, zero_c = 15;
constexpr uint32_t aprev = 0, a0 = 1, a1 = 2, a2 = 3, rasa = 5, konst_a = 6, zero_a = 7;

/// Registers PREV, C0, C1, C2 (RGBA each) and konst K0-K3 as constant bank words.
std::vector<uint32_t> constants(const std::array<std::array<int, 4>, 4>& regs,
                                const std::array<std::array<int, 4>, 4>& konst = {}, int ref0 = 0, int ref1 = 0) {
  std::vector<uint32_t> words(pixel_constant_words);
  for (size_t r = 0; r < 4; ++r) {
    for (size_t c = 0; c < 4; ++c) {
      words[4 * r + c] = static_cast<uint32_t>(regs[r][c]);
      words[16 + 4 * r + c] = static_cast<uint32_t>(konst[r][c]);
    }
  }
  words[32] = static_cast<uint32_t>(ref0);
  words[33] = static_cast<uint32_t>(ref1);
  return words;
}

/// A stream that starts from one TEV stage and an alpha test that always passes (BP 0xF3 comparisons ALWAYS).
GxStream tev_stream(uint32_t stages = 1) {
  GxStream s;
  s.bp(0x00, (stages - 1) << 10).bp(0xF3, (7u << 16) | (7u << 19));
  return s;
}

GxShader one_stage(uint32_t color, uint32_t alpha, const std::function<void(GxStream&)>& more = {}) {
  GxStream s = tev_stream();
  s.bp(0xC0, color).bp(0xC1, alpha);
  if (more) more(s);
  return translate_pixel(pixel_uid(bp_after(s)));
}
} // namespace

TEST_CASE("TEV regular combiner: every bias scale op and clamp", "[gx]") {
  std::mt19937 random(18);
  std::uniform_int_distribution<int> any(-1024, 1023);
  for (uint32_t bias = 0; bias < 3; ++bias) {
    for (uint32_t subtract = 0; subtract < 2; ++subtract) {
      for (uint32_t scale = 0; scale < 4; ++scale) {
        for (uint32_t clamp = 0; clamp < 2; ++clamp) {
          const GxShader shader = one_stage(color_env(c0, c1, c2, cprev, bias, subtract, clamp, scale),
                                            alpha_env(a0, a1, a2, aprev, bias, subtract, clamp, scale));
          for (int trial = 0; trial < 40; ++trial) {
            std::array<std::array<int, 4>, 4> regs{};
            for (auto& reg : regs) for (int& v : reg) v = any(random);
            if (trial == 0) regs[3] = {255, 255, 255, 255}; // c = 255 widens to 256: the lerp gives b exactly
            const PixelResult got = run_pixel(shader, constants(regs));
            for (size_t c = 0; c < 4; ++c) {
              const int expected = tev_regular(regs[1][c], regs[2][c], regs[3][c], regs[0][c], static_cast<int>(bias),
                                               subtract != 0, static_cast<int>(scale), clamp != 0, c == 3) & 255;
              INFO("bias " << bias << " sub " << subtract << " scale " << scale << " clamp " << clamp << " comp " << c
                           << " a " << regs[1][c] << " b " << regs[2][c] << " c " << regs[3][c] << " d " << regs[0][c]);
              CHECK(got.rgba[c] == expected);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("TEV compare modes on colour and alpha", "[gx]") {
  std::mt19937 random(8);
  std::uniform_int_distribution<int> byte(0, 255), coin(0, 1);
  for (uint32_t mode = 0; mode < 8; ++mode) {
    for (uint32_t clamp = 0; clamp < 2; ++clamp) {
      const uint32_t subtract = mode & 1, scale = mode >> 1;
      const GxShader shader = one_stage(color_env(c0, c1, c2, cprev, 3, subtract, clamp, scale),
                                        alpha_env(a0, a1, a2, aprev, 3, subtract, clamp, scale));
      for (int trial = 0; trial < 60; ++trial) {
        std::array<std::array<int, 4>, 4> regs{};
        for (auto& reg : regs) for (int& v : reg) v = byte(random);
        for (size_t c = 0; c < 4; ++c) {
          if (coin(random)) regs[2][c] = regs[1][c]; // equal components, so EQ and GT both see true and false
        }
        const PixelResult got = run_pixel(shader, constants(regs));
        for (int c = 0; c < 4; ++c) {
          const int expected = tev_compare(regs[1], regs[2], regs[3], regs[0], static_cast<int>(mode), c, clamp != 0) & 255;
          INFO("mode " << mode << " component " << c);
          CHECK(got.rgba[static_cast<size_t>(c)] == expected);
        }
      }
    }
  }
}

TEST_CASE("TEV constant inputs ONE HALF ZERO and register alpha broadcasts", "[gx]") {
  // d = ONE / HALF / ZERO / A0 broadcast into colour; alpha d = A2.
  const std::array<std::pair<uint32_t, int>, 3> fixed{{{12, 255}, {13, 128}, {zero_c, 0}}};
  std::array<std::array<int, 4>, 4> regs{{{1, 2, 3, 4}, {5, 6, 7, 77}, {9, 10, 11, 12}, {13, 14, 15, 99}}};
  for (const auto& [input, value] : fixed) {
    const PixelResult got = run_pixel(one_stage(color_env(zero_c, zero_c, zero_c, input), alpha_env(zero_a, zero_a, zero_a, a2)),
                                      constants(regs));
    CHECK(got.rgba == std::array<int, 4>{value, value, value, 99});
  }
  const PixelResult broadcast = run_pixel(one_stage(color_env(zero_c, zero_c, zero_c, 3), alpha_env(zero_a, zero_a, zero_a, aprev)),
                                          constants(regs));
  CHECK(broadcast.rgba == std::array<int, 4>{77, 77, 77, 4});
}

TEST_CASE("TEV konst selections", "[gx]") {
  const std::array<int, 8> fractions{255, 223, 191, 159, 128, 96, 64, 32}; // 8/8, 7/8 ... 1/8 of 255 as the hardware rounds
  const std::array<std::array<int, 4>, 4> konst{{{10, 20, 30, 40}, {50, 60, 70, 80}, {90, 100, 110, 120}, {130, 140, 150, 160}}};
  const auto words = constants({}, konst);
  for (uint32_t stage_parity = 0; stage_parity < 2; ++stage_parity) {
    for (uint32_t k = 0; k < 32; ++k) {
      if (k >= 8 && k < 12) continue; // reserved for colour
      const uint32_t kasel = k < 8 || k >= 16 ? k : 0;
      // Two stages; the one under test is stage `stage_parity` (the other passes PREV through).
      GxStream s = tev_stream(2);
      for (uint32_t i = 0; i < 2; ++i) {
        const bool tested = i == stage_parity;
        s.bp(static_cast<uint8_t>(0xC0 + 2 * i), tested ? color_env(zero_c, zero_c, zero_c, konst_c) : color_env(zero_c, zero_c, zero_c, cprev));
        s.bp(static_cast<uint8_t>(0xC1 + 2 * i), tested ? alpha_env(zero_a, zero_a, zero_a, konst_a) : alpha_env(zero_a, zero_a, zero_a, aprev));
      }
      const uint32_t shift = 10 * stage_parity;
      s.bp(0xF6, ((k << 4) | (kasel << 9)) << shift);
      const PixelResult got = run_pixel(translate_pixel(pixel_uid(bp_after(s))), words);
      std::array<int, 4> expected{};
      for (size_t c = 0; c < 3; ++c) {
        if (k < 8) expected[c] = fractions[k];
        else if (k < 16) expected[c] = konst[k - 12][c];
        else expected[c] = konst[k % 4][(k - 16) / 4];
      }
      expected[3] = kasel < 8 ? fractions[kasel] : konst[kasel % 4][(kasel - 16) / 4];
      INFO("selection " << k << " stage " << stage_parity);
      CHECK(got.rgba == expected);
    }
  }
}

TEST_CASE("TEV rasterised channels and swap tables", "[gx]") {
  const std::array<std::array<float, 4>, 2> colors{{{10 / 255.0f, 20 / 255.0f, 30 / 255.0f, 40 / 255.0f},
                                                    {50 / 255.0f, 60 / 255.0f, 70 / 255.0f, 80 / 255.0f}}};
  for (uint32_t channel : {0u, 1u, 7u}) {
    for (uint32_t table = 0; table < 4; ++table) {
      GxStream s = tev_stream();
      s.bp(0xC0, color_env(zero_c, zero_c, zero_c, rasc)).bp(0xC1, alpha_env(zero_a, zero_a, zero_a, rasa, 0, 0, 0, 0, 0, table));
      s.bp(0x28, channel << 7);
      // Swap table n: r, g from BP 0xF6 + 2n bits 0-3; b, a from 0xF7 + 2n. Table `table` maps r<-a g<-b b<-g a<-r.
      s.bp(static_cast<uint8_t>(0xF6 + 2 * table), 3u | (2u << 2)).bp(static_cast<uint8_t>(0xF7 + 2 * table), 1u | (0u << 2));
      const PixelResult got = run_pixel(translate_pixel(pixel_uid(bp_after(s))), constants({}), colors);
      std::array<int, 4> raw{};
      if (channel < 2) for (size_t c = 0; c < 4; ++c) raw[c] = static_cast<int>(std::lround(colors[channel][c] * 255));
      INFO("channel " << channel << " table " << table);
      CHECK(got.rgba == std::array<int, 4>{raw[3], raw[2], raw[1], raw[0]});
    }
  }
  // RASA broadcast into colour.
  GxStream s = tev_stream();
  s.bp(0xC0, color_env(zero_c, zero_c, zero_c, rasa_c)).bp(0xC1, alpha_env(zero_a, zero_a, zero_a, zero_a)).bp(0xF6, 0x0 | (1u << 2))
      .bp(0xF7, 2u | (3u << 2));
  CHECK(run_pixel(translate_pixel(pixel_uid(bp_after(s))), constants({}), colors).rgba == std::array<int, 4>{40, 40, 40, 0});
}

TEST_CASE("TEV stages chain through their destination registers", "[gx]") {
  // Stage 0 writes C1 (dest 2); stage 1 reads it as b, computes PREV - lerp(0, C1, 255) halved, into C2 (dest 3).
  // The pixel takes the last stage's destination (C2), not PREV.
  GxStream s = tev_stream(2);
  s.bp(0xC0, color_env(c2, zero_c, 12, c0, 0, 0, 0, 0, 2)); // C0 + lerp(C2, 0, 255): the lerp gives 0
  s.bp(0xC1, alpha_env(zero_a, zero_a, zero_a, a0, 0, 0, 0, 0, 2));
  s.bp(0xC2, color_env(zero_c, c1, 12, cprev, 0, 1, 0, 3, 3));
  s.bp(0xC3, alpha_env(zero_a, a1, zero_a, a1, 0, 0, 0, 0, 3));
  const GxShader shader = translate_pixel(pixel_uid(bp_after(s)));
  const std::array<std::array<int, 4>, 4> regs{{{300, 2, 3, 4}, {100, 20, 30, 40}, {0, 0, 0, 0}, {50, 60, 70, 90}}};
  const PixelResult got = run_pixel(shader, constants(regs));
  std::array<int, 4> expected{};
  for (size_t c = 0; c < 3; ++c) {
    const int stage0 = tev_regular(regs[3][c], 0, 255, regs[1][c], 0, false, 0, false, false); // C1
    expected[c] = tev_regular(0, stage0, 255, regs[0][c], 0, true, 3, false, false) & 255;
  }
  const int alpha0 = tev_regular(0, 0, 0, regs[1][3], 0, false, 0, false, true);
  expected[3] = tev_regular(0, alpha0, 0, alpha0, 0, false, 0, false, true) & 255;
  CHECK(got.rgba == expected);
}

TEST_CASE("TEV alpha test: both comparisons and the four logic ops", "[gx]") {
  auto compare = [](uint32_t function, int alpha, int ref) {
    switch (function) {
    case 0: return false;
    case 1: return alpha < ref;
    case 2: return alpha == ref;
    case 3: return alpha <= ref;
    case 4: return alpha > ref;
    case 5: return alpha != ref;
    case 6: return alpha >= ref;
    default: return true;
    }
  };
  for (uint32_t f0 = 0; f0 < 8; ++f0) {
    for (uint32_t f1 = 0; f1 < 8; ++f1) {
      for (uint32_t logic = 0; logic < 4; ++logic) {
        GxStream s;
        s.bp(0x00, 0).bp(0xC0, color_env(zero_c, zero_c, zero_c, cprev)).bp(0xC1, alpha_env(zero_a, zero_a, zero_a, aprev));
        s.bp(0xF3, (f0 << 16) | (f1 << 19) | (logic << 22) | 100 | (200 << 8));
        const BpState bp = bp_after(s);
        const GxShader shader = translate_pixel(pixel_uid(bp));
        const std::vector<uint32_t> refs = pixel_constants(bp);
        for (int alpha : {0, 99, 100, 101, 150, 199, 200, 201, 255}) {
          std::vector<uint32_t> words = refs;
          words[3] = static_cast<uint32_t>(alpha); // PREV alpha
          const bool first = compare(f0, alpha, 100), second = compare(f1, alpha, 200);
          const bool pass = logic == 0 ? (first && second) : logic == 1 ? (first || second)
                          : logic == 2 ? (first != second) : (first == second);
          INFO("f0 " << f0 << " f1 " << f1 << " logic " << logic << " alpha " << alpha);
          CHECK(run_pixel(shader, words).discarded == !pass);
        }
      }
    }
  }
}

TEST_CASE("TEV registers and konst colours share BP 0xE0-0xE7 by bit 23", "[gx]") {
  GxStream s;
  // C0 (index 1): red 0x7FF (-1), alpha 0x100; blue 0x400 (-1024), green 5. K1: red 7, alpha 8, blue 9, green 10.
  s.bp(0xE2, 0x7FF | (0x100 << 12)).bp(0xE3, 0x400 | (5 << 12));
  s.bp(0xE2, 7 | (8 << 12) | (1u << 23)).bp(0xE3, 9 | (10 << 12) | (1u << 23));
  s.bp(0xF3, 0x12 | (0x34 << 8));
  const std::vector<uint32_t> words = pixel_constants(bp_after(s));
  CHECK(static_cast<int32_t>(words[4]) == -1);
  CHECK(static_cast<int32_t>(words[5]) == 5);
  CHECK(static_cast<int32_t>(words[6]) == -1024);
  CHECK(static_cast<int32_t>(words[7]) == 0x100);
  CHECK(words[16 + 4] == 7);
  CHECK(words[16 + 5] == 10);
  CHECK(words[16 + 6] == 9);
  CHECK(words[16 + 7] == 8);
  CHECK(words[32] == 0x12);
  CHECK(words[33] == 0x34);
}

TEST_CASE("TEV UID holds exactly the state the program depends on", "[gx]") {
  GxStream base = tev_stream();
  base.bp(0xC0, color_env(c0, c1, c2, cprev)).bp(0xC1, alpha_env(a0, a1, a2, aprev));
  const PixelUid uid = pixel_uid(bp_after(base));
  auto with = [&](const std::function<void(GxStream&)>& change) {
    GxStream s = base;
    change(s);
    return pixel_uid(bp_after(s));
  };
  // Values that only feed the program: not in the UID.
  CHECK(with([](GxStream& s) { s.bp(0xE2, 0x123); }) == uid);
  CHECK(with([](GxStream& s) { s.bp(0xE2, 0x123 | (1u << 23)); }) == uid);
  CHECK(with([](GxStream& s) { s.bp(0xF3, (7u << 16) | (7u << 19) | 0x55); }) == uid);
  CHECK(with([](GxStream& s) { s.bp(0xC2, 0x1234); }) == uid);       // stage 1 is not enabled
  CHECK(with([](GxStream& s) { s.bp(0xF6, 0x1F0); }) == uid);        // konst selection no input reads
  CHECK(with([](GxStream& s) { s.bp(0x28, 0x7F); }) == uid);         // order of a stage reading no ras/texture
  // State that shapes it.
  const PixelUid other_op = with([](GxStream& s) { s.bp(0xC0, color_env(c0, c1, c2, cprev, 0, 1)); });
  CHECK_FALSE(other_op == uid);
  CHECK(other_op.hash() != uid.hash());
  CHECK_FALSE(with([](GxStream& s) { s.bp(0x00, 1u << 10); }) == uid);
  CHECK_FALSE(with([](GxStream& s) { s.bp(0xF3, 4u << 16); }) == uid);
}

TEST_CASE("TEV state not translated yet is refused with the stage named", "[gx]") {
  GxStream s = tev_stream();
  s.bp(0xC0, color_env(zero_c, zero_c, zero_c, 8)).bp(0xC1, alpha_env(zero_a, zero_a, zero_a, aprev)).bp(0x28, 1u << 6);
  try {
    translate_pixel(pixel_uid(bp_after(s)));
    FAIL("a texture stage translated");
  } catch (const kiln::Error& e) {
    CHECK(std::string(e.what()).find("TEV stage 0: texture") != std::string::npos);
  }
}
