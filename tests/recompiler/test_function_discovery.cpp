#include <catch2/catch.hpp>

#include <map>

#include "recompiler/pipeline/function_discovery.h"

// The discovery engine on a made-up program whose transfers are given as data: two code ranges with a gap
// between them, a function of known size, and branches and calls into other functions' bodies. The expected
// partitions follow from the engine's documented rules, worked out by hand below.
namespace {
using kiln::pipeline::CodeRange;
using kiln::pipeline::DiscoveredFunctions;
using kiln::pipeline::Flow;
using kiln::pipeline::Function;
using kiln::pipeline::InnerTargets;
using kiln::pipeline::KnownFunction;
using kiln::pipeline::Transfer;

class MadeUpCode final : public kiln::pipeline::CodeView {
public:
  explicit MadeUpCode(InnerTargets inner) : inner_(inner) {
    transfers_[0x1004] = Transfer{Flow::call, 0x2008};           // into the body of `second`
    transfers_[0x1008] = Transfer{Flow::jump, 0x1020};           // past `first`'s size: code no function holds
    transfers_[0x100c] = Transfer{Flow::jump_register, 0, false, true}; // return
    transfers_[0x1024] = Transfer{Flow::jump, 0x1030, true};     // inside its own function
    transfers_[0x1028] = Transfer{Flow::call, 0x1004};           // into the body of `first`
    transfers_[0x2010] = Transfer{Flow::jump, 0x1800};           // outside the code
  }
  uint64_t code_start() const override { return 0x1000; }
  uint64_t code_end() const override { return 0x2020; }
  std::vector<CodeRange> code_ranges() const override { return {{0x1000, 0x1040}, {0x2000, 0x2020}}; }
  uint64_t entry() const override { return 0x1000; }
  bool decoded(uint64_t) const override { return true; }
  Transfer transfer(uint64_t address) const override {
    const auto it = transfers_.find(address);
    return it == transfers_.end() ? Transfer{} : it->second;
  }
  kiln::pipeline::IndirectTargets indirect_targets(const DiscoveredFunctions&, const Function&, uint64_t) const override { return {}; }
  void code_pointers(const DiscoveredFunctions&, std::set<uint64_t>&) const override {}
  std::vector<KnownFunction> known_functions() const override {
    return {{0x1000, 0x10, "first"}, {0x1008, 0, {}}, {0x2000, 0, "second"}, {0x2000, 0, {}}};
  }
  InnerTargets inner_targets() const override { return inner_; }

private:
  InnerTargets inner_;
  std::map<uint64_t, Transfer> transfers_;
};

struct Expected {
  uint64_t start, end;
  std::string name;
  std::set<uint64_t> secondary;
};

void check_partition(const DiscoveredFunctions& found, const std::vector<Expected>& expected) {
  REQUIRE(found.functions().size() == expected.size());
  for (size_t k = 0; k < expected.size(); ++k) {
    const Function& f = found.functions()[k];
    INFO("function " << k);
    CHECK(f.start == expected[k].start);
    CHECK(f.end == expected[k].end);
    CHECK(f.name == expected[k].name);
    CHECK(f.secondary_entries == expected[k].secondary);
  }
}
} // namespace

TEST_CASE("discovery: entries into other functions stay secondary entries where the front end asks", "[discovery]") {
  const MadeUpCode code(InnerTargets::secondary_entry);
  const DiscoveredFunctions found(code);
  // `first` ends at its size (0x1010); the known start 0x1008 and the call to 0x1004 lie inside it. The jump
  // from 0x1008 to 0x1020 lands where no function is: a new one, to the end of its range. The call to 0x2008
  // enters `second`, which runs to the end of the second range.
  check_partition(found, {{0x1000, 0x1010, "first", {0x1004, 0x1008}}, {0x1020, 0x1040, "", {}}, {0x2000, 0x2020, "second", {0x2008}}});
  CHECK(found.function_at(0x1014) == nullptr); // between `first`'s end and the next start
  CHECK(found.function_at(0x1800) == nullptr); // between the ranges
  CHECK_FALSE(found.contains(0x1800));
  CHECK(found.contains(0x2000));
  CHECK(found.is_function_start(0x1020));
  CHECK_FALSE(found.is_function_start(0x1008));
}

TEST_CASE("discovery: call targets split the function that holds them unless its size covers them", "[discovery]") {
  const MadeUpCode code(InnerTargets::start_function);
  const DiscoveredFunctions found(code);
  // Calls start functions: 0x2008 splits `second`; 0x1004 stays a secondary entry because `first`'s size holds it.
  check_partition(found, {{0x1000, 0x1010, "first", {0x1004, 0x1008}}, {0x1020, 0x1040, "", {}}, {0x2000, 0x2008, "second", {}}, {0x2008, 0x2020, "", {}}});
}
