#include "runtime/gpu/maxwell/inline_upload.h"

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/classes/methods_a140.h"
#include "runtime/gpu/maxwell/engine.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/semaphore.h"
#include "runtime/gpu/maxwell/surface_copy.h"

namespace kiln::maxwell {

namespace method = class_a140;

void InlineUpload::write(Gpu& gpu, const Engine& engine, uint32_t method, uint32_t value) {
  if (method == method::launch_dma) {
    const uint64_t bytes = uint64_t{engine.reg(method::line_length_in)} * engine.reg(method::line_count);
    if (bytes > max_transfer_bytes) throw Error(fmt::format("inline upload of {} bytes is implausibly large", bytes));
    data_.clear();
    data_.reserve(std::min<uint64_t>(bytes, 1 << 20));
    expected_bytes_ = bytes;
    if (bytes == 0) finish(gpu, engine);
  } else if (method == method::load_inline_data) {
    if (expected_bytes_ == 0) throw Error("LOAD_INLINE_DATA without a LAUNCH_DMA expecting data");
    for (int i = 0; i < 4 && data_.size() < expected_bytes_; ++i) data_.push_back(static_cast<uint8_t>(value >> (8 * i)));
    if (data_.size() == expected_bytes_) finish(gpu, engine);
  }
}

void InlineUpload::finish(Gpu& gpu, const Engine& engine) {
  const uint32_t launch = engine.reg(method::launch_dma);
  const uint32_t line_length = engine.reg(method::line_length_in);
  const uint32_t lines = engine.reg(method::line_count);
  Surface surface;
  surface.address = (uint64_t{engine.reg(method::offset_out_upper) & 0xff} << 32) | engine.reg(method::offset_out);
  surface.block_linear = extract_bits(launch, 0, 1) == 0; // DST_MEMORY_LAYOUT: 0 BLOCKLINEAR, 1 PITCH
  surface.pitch = engine.reg(method::pitch_out);
  const uint32_t block = engine.reg(method::set_dst_block_size);
  surface.block_height_log2 = extract_bits(block, 4, 4);
  surface.block_depth_log2 = extract_bits(block, 8, 4);
  surface.width = engine.reg(method::set_dst_width);
  surface.height = engine.reg(method::set_dst_height);
  surface.depth = engine.reg(method::set_dst_depth);
  surface.layer = engine.reg(method::set_dst_layer);
  const uint32_t x = surface.block_linear ? engine.reg(method::set_dst_origin_bytes_x) : 0;
  const uint32_t y = surface.block_linear ? engine.reg(method::set_dst_origin_samples_y) : 0;
  expected_bytes_ = 0;
  if (!data_.empty()) write_rows(gpu, surface, x, y, line_length, lines, data_);
  data_.clear();
  if (extract_bits(launch, 4, 2) == 2) { // COMPLETION_TYPE_RELEASE_SEMAPHORE
    const uint64_t address = (uint64_t{engine.reg(method::set_i2m_semaphore_a) & 0xff} << 32) | engine.reg(method::set_i2m_semaphore_b);
    uint32_t payload = engine.reg(method::set_i2m_semaphore_c);
    if (extract_bits(launch, 1, 1) != 0) { // REDUCTION_ENABLE; REDUCTION_FORMAT 0 unsigned, 1 signed
      const auto op = static_cast<Reduction>(extract_bits(launch, 13, 3));
      payload = reduce(op, extract_bits(launch, 2, 2) == 1, gpu.memory().read_u32(address), payload);
    }
    if (extract_bits(launch, 12, 1) != 0) gpu.memory().write_u32(address, payload); // ONE_WORD
    else write_four_word_release(gpu.memory(), address, payload, gpu.timestamp());
    gpu.signal();
  }
}

} // namespace kiln::maxwell
