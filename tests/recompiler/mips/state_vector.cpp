#include "tests/recompiler/mips/state_vector.h"

#include <fmt/format.h>

#include "runtime/base/byte_reader.h"
#include "runtime/base/file_writer.h"

namespace kiln::test {
namespace {

constexpr size_t name_field_size = 51;

VectorState read_state(ByteReader& in) {
  VectorState s{};
  for (uint32_t& r : s.gpr) r = in.u32();
  s.hi = in.u32();
  s.lo = in.u32();
  s.epc = in.u32();
  s.tar = in.u32();
  s.cause = in.u32();
  s.pc = in.u32();
  s.branch.target = in.u32();
  s.branch.slot = in.u32() != 0;
  s.branch.taken = in.u32() != 0;
  s.load.reg = in.s32();
  s.load.value = in.u32();
  if (s.load.reg < -1 || s.load.reg > 31) in.fail(fmt::format("load-delay register {} out of range", s.load.reg));
  if (s.load.reg == -1) s.load.value = 0;
  return s;
}

} // namespace

std::vector<VectorCase> read_state_vectors(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  ByteReader in(bytes, path.string());
  const int32_t count = in.s32();
  if (count < 0) in.fail("negative case count");
  std::vector<VectorCase> cases;
  cases.reserve(static_cast<size_t>(count));
  for (int32_t i = 0; i < count; ++i) {
    VectorCase c;
    const auto name = in.bytes(name_field_size);
    if (name[0] >= name_field_size) in.fail("case name longer than its field");
    c.name.assign(reinterpret_cast<const char*>(name.data()) + 1, name[0]);
    c.opcode = in.u32();
    c.opcode_address = in.u32();
    c.initial = read_state(in);
    c.final = read_state(in);
    const uint32_t cycle_count = in.u32();
    if (cycle_count > 16) in.fail(fmt::format("{} bus cycles for one instruction", cycle_count));
    for (uint32_t k = 0; k < cycle_count; ++k) {
      BusCycle b;
      b.value = in.s64();
      b.action = in.u32();
      b.address = in.s64();
      b.size = in.u32();
      c.cycles.push_back(b);
    }
    cases.push_back(std::move(c));
  }
  if (in.remaining() != 0) in.fail("trailing bytes after the last case");
  return cases;
}

VectorBus::VectorBus(const std::vector<BusCycle>& cycles) {
  for (const BusCycle& b : cycles)
    if (b.action != 4) data_cycles_.push_back(b);
}

const BusCycle* VectorBus::next(uint32_t action, uint32_t address, uint32_t size) {
  const char* kind = action == 1 ? "read" : "write";
  if (next_ >= data_cycles_.size()) {
    if (mismatch_.empty()) mismatch_ = fmt::format("unrecorded {}{} at {:#010x}", kind, size * 8, address);
    return nullptr;
  }
  const BusCycle& b = data_cycles_[next_++];
  if (b.action != action || static_cast<uint32_t>(b.address) != address || b.size != size) {
    if (mismatch_.empty())
      mismatch_ = fmt::format("{}{} at {:#010x}, recorded action {} size {} at {:#010x}", kind, size * 8, address, b.action,
                              b.size, static_cast<uint32_t>(b.address));
    return nullptr;
  }
  return &b;
}

uint32_t VectorBus::read(uint32_t address, uint32_t size) {
  const BusCycle* b = next(1, address, size);
  return b ? static_cast<uint32_t>(b->value) : 0;
}

void VectorBus::write(uint32_t address, uint32_t size, uint32_t value) {
  const BusCycle* b = next(2, address, size);
  const uint32_t mask = size == 4 ? 0xFFFFFFFFu : (1u << (size * 8)) - 1;
  if (b && (static_cast<uint32_t>(b->value) & mask) != (value & mask) && mismatch_.empty())
    mismatch_ = fmt::format("write{} at {:#010x}: {:#x}, recorded {:#x}", size * 8, address, value & mask,
                            static_cast<uint32_t>(b->value) & mask);
}

std::string VectorBus::finish() const {
  if (!mismatch_.empty()) return mismatch_;
  if (next_ != data_cycles_.size()) return fmt::format("{} recorded bus cycles not performed", data_cycles_.size() - next_);
  return {};
}

} // namespace kiln::test
