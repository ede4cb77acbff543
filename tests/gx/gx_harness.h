#pragma once
// A command processor over a small guest RAM, fed whole streams.
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/gpu/gx/command_processor.h"
#include "tests/gx/gx_stream.h"

namespace kiln::gx::test {

struct Gx {
  explicit Gx(size_t ram_bytes = 0x10000) : ram(ram_bytes), processor(ram) {}
  /// Runs the stream, flushes, and returns how many bytes the processor consumed.
  size_t run(const GxStream& stream) {
    const size_t used = processor.run(stream.bytes, 0);
    processor.flush();
    auto taken = processor.take_events();
    events.insert(events.end(), taken.begin(), taken.end());
    return used;
  }
  void poke(uint32_t address, const std::vector<uint8_t>& bytes) {
    std::memcpy(&ram.at(address), bytes.data(), bytes.size());
  }
  std::vector<const DrawSnapshot*> draws() const {
    std::vector<const DrawSnapshot*> out;
    for (const Event& e : events) if (e.kind == EventKind::draw) out.push_back(e.draw.get());
    return out;
  }
  size_t count(EventKind kind) const {
    size_t n = 0;
    for (const Event& e : events) n += e.kind == kind ? 1 : 0;
    return n;
  }

  std::vector<uint8_t> ram;
  CommandProcessor processor;
  std::vector<Event> events;
};

} // namespace kiln::gx::test
