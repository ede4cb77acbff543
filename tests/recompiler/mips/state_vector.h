#pragma once
// Reader for the r3000-singlestep state vectors (../shared/corpus/r3000-singlestep, see its README) and the bus
// they imply: reads answer with the recorded bus values, writes are checked against the recorded ones.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/core/mips/cpu.h"
#include "runtime/platform/psx/gte/gte.h"

namespace kiln::test {

struct VectorState {
  uint32_t gpr[32];
  uint32_t hi, lo, epc, tar, cause, pc;
  r3000::PendingBranch branch; ///< stored first; the corpus README calls this triple "load delay"
  r3000::PendingLoad load;     ///< stored second (register, value); the README calls it "branch delay"
};

struct BusCycle {
  int64_t value;
  uint32_t action; ///< 1 read, 2 write, 4 instruction fetch
  int64_t address;
  uint32_t size;
};

struct VectorCase {
  std::string name;
  uint32_t opcode, opcode_address;
  VectorState initial, final;
  std::vector<BusCycle> cycles;
};

/// Parses one OPCODE.json.bin; throws kiln::Error naming the file and offset on malformed input.
std::vector<VectorCase> read_state_vectors(const std::filesystem::path& path);

/// The bus a case implies. Accesses out of order or not recorded are noted in `mismatch` (the first one).
class VectorBus {
public:
  static constexpr r3000::Variant variant = r3000::Variant::r3000;

  explicit VectorBus(const std::vector<BusCycle>& cycles);

  uint8_t read8(uint32_t address) { return static_cast<uint8_t>(read(address, 1)); }
  uint16_t read16(uint32_t address) { return static_cast<uint16_t>(read(address, 2)); }
  uint32_t read32(uint32_t address) { return read(address, 4); }
  void write8(uint32_t address, uint8_t value) { write(address, 1, value); }
  void write16(uint32_t address, uint16_t value) { write(address, 2, value); }
  void write32(uint32_t address, uint32_t value) { write(address, 4, value); }
  psx::Gte& gte() { return gte_; }

  /// Empty when every recorded data access happened, in order, and nothing else.
  std::string finish() const;

private:
  uint32_t read(uint32_t address, uint32_t size);
  void write(uint32_t address, uint32_t size, uint32_t value);
  const BusCycle* next(uint32_t action, uint32_t address, uint32_t size);

  std::vector<BusCycle> data_cycles_;
  size_t next_ = 0;
  std::string mismatch_;
  psx::Gte gte_;
};

} // namespace kiln::test
