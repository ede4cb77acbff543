// Recompiled code against the step interpreter on random states: emitted_cases_generator.cpp wrote, at build
// time, one recompiled function (recompiler/emit/ppc/function_writer.cpp's output) per random word of every form
// of every row (every OE/Rc, AA/LK and BO class: tests/ppc/emitted_forms.h), compiled here with the flags of a
// generated project. Each runs on random CPU states beside step() on a copy: every register (GPRs, both halves
// of the FPRs, CR, XER, FPSCR, LR, CTR, MSR, SRs, the time base, every SPR, the reservation), every memory access
// and platform hook in order, and where control goes next (a branch target, the next instruction, an exception
// vector, and whether an exception was taken) must be identical.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <iostream>
#include <map>
#include <string>
#include <utility>

#include "recompiler/isa/ppc/encoding_table.h"
#include "runtime/core/ppc/step.h"
#include "tests/ppc/emitted_forms.h"
#include "tests/ppc/emitted_platform.h"
#include "tests/ppc/random_values.h"

using namespace kiln::ppc;
using emitted::Access;
using emitted::Machine;

namespace {

/// 2406 words x 1000 states = 2.4 million runs, every form of every row on 6000 states (about 20 s): the
/// rarer outcomes (an alignment exception of lmw on a misaligned register sum, a program exception of rfi or
/// mtspr in user mode with a taken branch's state) each meet many states.
constexpr int states_per_case = 1000;

uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// A random state for `word` at `address`. Mostly one the instruction can run in (supervisor, FP available,
/// paired singles, quantized loads/stores and the locked cache enabled), otherwise the exceptions' states; CTR
/// often 0-2 so decrementing branches meet zero; the reservation often on the granule of an indexed address.
Cpu random_state(test::RandomValues& r, uint32_t word, uint32_t address) {
  Cpu c;
  for (uint32_t& g : c.gpr) g = r.gpr();
  for (Fpr& f : c.fpr) f = {r.fpr(), r.fpr()};
  set_cr_word(c, r.word());
  c.lr = r.word();
  static const std::vector<uint32_t> small_counts = {0, 1, 2};
  c.ctr = r.one_in(2) ? r.pick(small_counts) : r.word();
  set_xer_word(c, r.word());
  c.fpscr = r.word() & ~fpu::reserved;
  if (!r.one_in(4)) c.fpscr &= ~(fpu::ve | fpu::oe | fpu::ue | fpu::ze | fpu::xe | fpu::ni);
  fpu::update_summaries(c);
  constexpr uint32_t msr_bits = msr::pow | msr::ile | msr::ee | msr::pr | msr::fp | msr::me | msr::fe0 | msr::se | msr::be |
                                msr::fe1 | msr::ip | msr::ir | msr::dr | msr::pmm | msr::ri | msr::le;
  c.msr = r.word() & msr_bits;
  if (!r.one_in(8)) c.msr |= msr::fp;
  if (!r.one_in(4)) c.msr &= ~msr::pr;
  for (uint32_t& s : c.sr) s = r.word();
  c.timebase = r.bits();
  const uint64_t spr_seed = r.bits();
  for (unsigned n = 0; n < spr::count; ++n) c.spr[n] = static_cast<uint32_t>(mix(spr_seed + n));
  c.spr[spr::pvr] = spr::gekko_pvr;
  uint32_t& hid2 = c.spr[spr::hid2];
  hid2 &= ~(hid2::lsqe | hid2::pse | hid2::lce);
  for (uint32_t bit : {hid2::lsqe, hid2::pse, hid2::lce})
    if (!r.one_in(8)) hid2 |= bit;
  c.reserved = r.one_in(2);
  c.reserve_address = r.one_in(2) ? detail::ea_x(c, word) : r.word();
  c.pc = address;
  c.next_pc = r.word(); // recompiled code sets it only where it reads it
  return c;
}

/// Where control went after the instruction, and whether it ended in an exception.
struct Outcome {
  uint32_t next = 0;
  bool raised = false;
  std::string error; ///< a run that ended in a way no run should
};

Outcome run_recompiled(const emitted::Case& k, Machine& m) {
  m.cpu.pc = k.address; // as the platform enters a function
  try {
    k.function(m);
    return {m.cpu.pc, false, {}}; // a return (blr, rfi) leaves the address in c.pc
  } catch (const emitted::LeftFor& left) {
    if (m.cpu.pc != left.address) return {left.address, false, fmt::format("left for {:#x} with c.pc {:#x}", left.address, m.cpu.pc)};
    return {left.address, false, {}};
  } catch (const emitted::RaisedAt& raised) {
    if (raised.address != k.address) return {m.cpu.next_pc, true, fmt::format("exception reported at {:#x}", raised.address)};
    return {m.cpu.next_pc, true, {}};
  } catch (const emitted::Untranslated& u) {
    return {0, false, fmt::format("reached untranslated code or returned_elsewhere at {:#x}", u.address)};
  }
}

Outcome run_step(const emitted::Case& k, Machine& m) {
  emitted::Bus bus{m};
  step(m.cpu, bus, k.opcode, k.word);
  return {m.cpu.pc, m.cpu.exception_taken, {}};
}

std::string describe(const Access& a) {
  static const char* const kinds[] = {"read", "write", "spr_read", "spr_written", "msr_written", "cache_block", "system_call"};
  return fmt::format("{} size {} at {:#x} value {:#x}", kinds[a.kind], a.size, a.address, a.value);
}

/// The first difference between the recompiled run (`g`) and the stepped one (`s`), or empty.
std::string difference(const Machine& g, const Outcome& go, const Machine& s, const Outcome& so) {
  if (!go.error.empty()) return go.error;
  if (go.next != so.next) return fmt::format("next pc {:#010x}, step: {:#010x}", go.next, so.next);
  if (go.raised != so.raised) return fmt::format("exception {}, step: {}", go.raised, so.raised);
  const Cpu &a = g.cpu, &b = s.cpu;
  for (unsigned i = 0; i < 32; ++i) {
    if (a.gpr[i] != b.gpr[i]) return fmt::format("r{} = {:#x}, step: {:#x}", i, a.gpr[i], b.gpr[i]);
    if (a.fpr[i].ps0 != b.fpr[i].ps0) return fmt::format("f{}.ps0 = {:#x}, step: {:#x}", i, a.fpr[i].ps0, b.fpr[i].ps0);
    if (a.fpr[i].ps1 != b.fpr[i].ps1) return fmt::format("f{}.ps1 = {:#x}, step: {:#x}", i, a.fpr[i].ps1, b.fpr[i].ps1);
  }
  const std::pair<const char*, std::pair<uint64_t, uint64_t>> registers[] = {
      {"cr", {cr_word(a), cr_word(b)}},
      {"xer", {xer_word(a), xer_word(b)}},
      {"lr", {a.lr, b.lr}},
      {"ctr", {a.ctr, b.ctr}},
      {"fpscr", {a.fpscr, b.fpscr}},
      {"msr", {a.msr, b.msr}},
      {"timebase", {a.timebase, b.timebase}},
      {"reserved", {a.reserved, b.reserved}},
      {"reserve_address", {a.reserve_address, b.reserve_address}},
      {"exception_taken", {a.exception_taken, b.exception_taken}},
  };
  for (const auto& [name, values] : registers)
    if (values.first != values.second) return fmt::format("{} = {:#x}, step: {:#x}", name, values.first, values.second);
  for (unsigned i = 0; i < 16; ++i)
    if (a.sr[i] != b.sr[i]) return fmt::format("sr{} = {:#x}, step: {:#x}", i, a.sr[i], b.sr[i]);
  for (unsigned i = 0; i < spr::count; ++i)
    if (a.spr[i] != b.spr[i]) return fmt::format("spr {} = {:#x}, step: {:#x}", i, a.spr[i], b.spr[i]);
  for (size_t i = 0; i < std::max(g.log.size(), s.log.size()); ++i) {
    if (i >= g.log.size()) return fmt::format("bus: step also did {}", describe(s.log[i]));
    if (i >= s.log.size()) return fmt::format("bus: {} that step did not", describe(g.log[i]));
    if (!(g.log[i] == s.log[i])) return fmt::format("bus: {}, step: {}", describe(g.log[i]), describe(s.log[i]));
  }
  return {};
}

} // namespace

TEST_CASE("ppc emitted: every form of every row in the cases", "[ppc][emitter]") {
  std::map<std::pair<Opcode, std::string>, int> words;
  for (size_t i = 0; i < kiln_emitted_case_count; ++i) {
    const emitted::Case& k = kiln_emitted_cases[i];
    INFO(k.form << " " << fmt::format("{:#010x}", k.word));
    const Encoding* row = match_encoding(k.word);
    REQUIRE(row);
    CHECK(row->opcode == k.opcode);
    bool found = false;
    for (const test::Form& f : test::forms(*row))
      if (f.name == k.form) found = (k.word & f.mask) == f.value;
    CHECK(found);
    ++words[{k.opcode, k.form}];
  }
  size_t forms = 0;
  for (const Encoding& row : encodings())
    for (const test::Form& f : test::forms(row)) {
      INFO(f.name);
      CHECK(words[{row.opcode, f.name}] == KILN_PPC_EMITTED_WORDS);
      ++forms;
    }
  CHECK(kiln_emitted_case_count == forms * KILN_PPC_EMITTED_WORDS);
}

TEST_CASE("ppc emitted: recompiled functions and step() leave identical states", "[ppc][emitter]") {
  test::RandomValues random(17);
  size_t runs = 0, identical = 0, raised = 0, taken = 0;
  std::vector<std::string> failures;
  std::map<std::string, size_t> failing_forms;
  for (size_t i = 0; i < kiln_emitted_case_count; ++i) {
    const emitted::Case& k = kiln_emitted_cases[i];
    for (int n = 0; n < states_per_case; ++n) {
      Machine recompiled;
      recompiled.cpu = random_state(random, k.word, k.address);
      recompiled.memory_seed = random.bits();
      recompiled.handles_system_calls = random.one_in(2);
      Machine stepped = recompiled;
      const Outcome g = run_recompiled(k, recompiled);
      const Outcome s = run_step(k, stepped);
      ++runs;
      raised += s.raised;
      taken += !s.raised && s.next != k.address + 4;
      const std::string why = difference(recompiled, g, stepped, s);
      if (why.empty()) {
        ++identical;
        continue;
      }
      if (++failing_forms[k.form] <= 3 && failures.size() < 40)
        failures.push_back(fmt::format("{} {:#010x} at {:#010x}: {}", k.form, k.word, k.address, why));
    }
  }
  std::cout << fmt::format("ppc emitted: {} words x {} states = {} runs, {} identical ({} exceptions, {} transfers)\n",
                           kiln_emitted_case_count, states_per_case, runs, identical, raised, taken);
  for (const auto& [form, count] : failing_forms) std::cout << fmt::format("  {}: {} runs differ\n", form, count);
  for (const std::string& f : failures) std::cout << "    " << f << "\n";
  CHECK(identical == runs);
}
