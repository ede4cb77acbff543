#pragma once
// Inline-to-memory uploads (LINE_LENGTH_IN .. LOAD_INLINE_DATA at 0x180-0x1b4, the same in the A140, 3D and
// compute classes): data words from the pushbuffer written into guest memory, pitch or block-linear.
#include <cstdint>
#include <vector>

#include "runtime/gpu/maxwell/classes/methods_a140.h"

namespace kiln::maxwell {

class Engine;
class Gpu;

class InlineUpload {
public:
  static constexpr uint32_t first_method = class_a140::line_length_in;
  static constexpr uint32_t last_method = class_a140::set_i2m_semaphore_c;
  static bool handles(uint32_t method) { return method >= first_method && method <= last_method; }

  /// Called after the engine stored the method in its register file.
  void write(Gpu& gpu, const Engine& engine, uint32_t method, uint32_t value);
  bool active() const { return expected_bytes_ != 0; }

private:
  void finish(Gpu& gpu, const Engine& engine);

  std::vector<uint8_t> data_;
  uint64_t expected_bytes_ = 0;
};

} // namespace kiln::maxwell
