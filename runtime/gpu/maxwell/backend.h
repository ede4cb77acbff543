#pragma once
// What the command processor hands the renderer: frozen draw state, clears and compute dispatches, in command
// order, and what it asks back (sample counts for occlusion reports).
#include <cstdint>
#include <memory>
#include <variant>
#include <vector>

#include "runtime/gpu/maxwell/draw_snapshot.h"

namespace kiln::maxwell {

enum class MemoryAccess { read, write };

class Backend {
public:
  virtual ~Backend() = default;
  virtual void draw(std::shared_ptr<const DrawSnapshot> draw) = 0;
  virtual void clear(const ClearSnapshot& clear) = 0;
  virtual void dispatch(const DispatchSnapshot& dispatch) = 0;
  /// An engine other than 3D rendering (copy, 2D, inline-to-memory) is about to read or write guest memory
  /// [address, address + size), in command order: rendering recorded earlier that writes there must reach guest
  /// memory first, and before a write the backend stops relying on what it cached of those bytes.
  virtual void synchronize_memory(uint64_t /*address*/, uint64_t /*size*/, MemoryAccess /*access*/) {}
  /// Samples that passed the depth test since the last reset (ZPASS_PIXEL_CNT reports).
  virtual uint64_t samples_passed() { return 0; }
  virtual void reset_samples_passed() {}
};

/// Keeps every event; the replay tool and the tests use it (no rendering).
class RecordingBackend final : public Backend {
public:
  using Event = std::variant<std::shared_ptr<const DrawSnapshot>, ClearSnapshot, DispatchSnapshot>;

  void draw(std::shared_ptr<const DrawSnapshot> draw) override { events.emplace_back(std::move(draw)); ++draws; }
  void clear(const ClearSnapshot& clear) override { events.emplace_back(clear); }
  void dispatch(const DispatchSnapshot& dispatch) override { events.emplace_back(dispatch); }
  uint64_t samples_passed() override { return simulated_samples_passed; }
  void reset_samples_passed() override { simulated_samples_passed = 0; }

  std::vector<Event> events;
  uint64_t draws = 0;
  /// What ZPASS reports read (a test sets it; a renderer would count).
  uint64_t simulated_samples_passed = 0;
};

/// Counts draws and drops them: for throughput measurements of the processor alone.
class CountingBackend final : public Backend {
public:
  void draw(std::shared_ptr<const DrawSnapshot>) override { ++draws; }
  void clear(const ClearSnapshot&) override { ++clears; }
  void dispatch(const DispatchSnapshot&) override { ++dispatches; }
  uint64_t draws = 0, clears = 0, dispatches = 0;
};

} // namespace kiln::maxwell
