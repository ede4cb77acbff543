// Copy engines, Maxwell B0B5 (clb0b5.h) and Ampere C7B5 (clc7b5.h), one implementation: linear and 2D copies
// between pitch and block-linear surfaces, component remap, and the completion semaphore. C7B5 has every B0B5
// method at the same offset with the same fields (its address uppers are wider: Engine::address_pair refuses bits
// past kiln's 40-bit addresses) and adds a 64-bit semaphore payload, float reductions, 32-bit origins and
// monitored fences.
#include <fmt/format.h>

#include <memory>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/classes/methods_b0b5.h"
#include "runtime/gpu/maxwell/classes/methods_c7b5.h"
#include "runtime/gpu/maxwell/engine.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/semaphore.h"
#include "runtime/gpu/maxwell/surface_copy.h"

namespace kiln::maxwell {

namespace {

namespace method = class_b0b5;
namespace ampere = class_c7b5;
static_assert(ampere::launch_dma == method::launch_dma && ampere::offset_in_upper == method::offset_in_upper &&
              ampere::set_semaphore_a == method::set_semaphore_a && ampere::set_semaphore_payload == method::set_semaphore_payload &&
              ampere::set_remap_components == method::set_remap_components && ampere::set_src_origin == method::set_src_origin &&
              ampere::set_dst_origin == method::set_dst_origin && ampere::line_count == method::line_count);

class CopyEngine final : public Engine {
public:
  CopyEngine(Gpu& gpu, ClassId class_id) : Engine(gpu), class_id_(class_id) {}
  uint32_t class_id() const override { return static_cast<uint32_t>(class_id_); }

  void write(uint32_t method, uint32_t value) override {
    store(method, value);
    if (method == method::launch_dma) launch(value);
  }

private:
  Surface surface(bool source, bool block_linear) const {
    Surface s;
    s.address = address_pair(source ? method::offset_in_upper : method::offset_out_upper);
    s.block_linear = block_linear;
    s.pitch = reg(source ? method::pitch_in : method::pitch_out);
    const uint32_t block = reg(source ? method::set_src_block_size : method::set_dst_block_size);
    s.block_height_log2 = extract_bits(block, 4, 4);
    s.block_depth_log2 = extract_bits(block, 8, 4);
    s.width = reg(source ? method::set_src_width : method::set_dst_width);
    s.height = reg(source ? method::set_src_height : method::set_dst_height);
    s.depth = reg(source ? method::set_src_depth : method::set_dst_depth);
    s.layer = reg(source ? method::set_src_layer : method::set_dst_layer);
    return s;
  }

  bool ampere() const { return class_id_ == ClassId::copy_ampere; }

  void launch(uint32_t launch) {
    if (ampere()) {
      // C7B5's 32-bit origins (SRC/DST_ORIGIN_X/Y) are not described beyond their names: refused unless zero.
      for (uint32_t origin : {ampere::src_origin_x, ampere::src_origin_y, ampere::dst_origin_x, ampere::dst_origin_y}) {
        if (reg(origin) != 0) throw Error(fmt::format("{} = 0x{:x} is not implemented", method_name(class_id(), origin), reg(origin)));
      }
    }
    const uint32_t transfer = extract_bits(launch, 0, 2);
    if (transfer != 0) copy(launch);
    release_semaphore(launch);
  }

  void copy(uint32_t launch) {
    const bool src_block_linear = extract_bits(launch, 7, 1) == 0;
    const bool dst_block_linear = extract_bits(launch, 8, 1) == 0;
    const bool multi_line = extract_bits(launch, 9, 1) != 0;
    const bool remap = extract_bits(launch, 10, 1) != 0;
    if (extract_bits(launch, 12, 2) != 0) throw Error("physical-address copies are not supported (virtual only)");
    const uint32_t components = reg(method::set_remap_components);
    const uint32_t component_size = extract_bits(components, 16, 2) + 1;
    const uint32_t src_components = extract_bits(components, 20, 2) + 1;
    const uint32_t dst_components = extract_bits(components, 24, 2) + 1;
    // With remap, LINE_LENGTH_IN counts elements; without, bytes.
    const uint32_t src_element = remap ? component_size * src_components : 1;
    const uint32_t dst_element = remap ? component_size * dst_components : 1;
    const uint32_t elements = reg(method::line_length_in);
    const uint32_t lines = multi_line ? reg(method::line_count) : 1;
    const uint64_t src_row_bytes = uint64_t{elements} * src_element;
    if (src_row_bytes * lines > max_transfer_bytes || uint64_t{elements} * dst_element * lines > max_transfer_bytes) {
      throw Error(fmt::format("copy of {} lines of {} bytes is implausibly large", lines, src_row_bytes));
    }
    Surface src = surface(true, src_block_linear);
    Surface dst = surface(false, dst_block_linear);
    const uint32_t src_x = src_block_linear ? extract_bits(reg(method::set_src_origin), 0, 16) : 0;
    const uint32_t src_y = src_block_linear ? extract_bits(reg(method::set_src_origin), 16, 16) : 0;
    const uint32_t dst_x = dst_block_linear ? extract_bits(reg(method::set_dst_origin), 0, 16) : 0;
    const uint32_t dst_y = dst_block_linear ? extract_bits(reg(method::set_dst_origin), 16, 16) : 0;
    if (!multi_line) { // one line: pitch does not matter
      src.pitch = static_cast<uint32_t>(src_row_bytes);
      dst.pitch = elements * dst_element;
    }
    std::vector<uint8_t> rows(src_row_bytes * lines);
    read_rows(gpu_, src, src_x * src_element, src_y, static_cast<uint32_t>(src_row_bytes), lines, rows);
    if (remap) {
      std::vector<uint8_t> remapped(uint64_t{elements} * dst_element * lines);
      bool keeps_destination = false;
      for (uint32_t c = 0; c < dst_components; ++c) keeps_destination |= extract_bits(components, 4 * c, 3) == 6;
      if (keeps_destination) { // NO_WRITE components keep the destination's bytes
        read_rows(gpu_, dst, dst_x * dst_element, dst_y, elements * dst_element, lines, remapped);
      }
      remap_rows(rows, remapped, uint64_t{elements} * lines, component_size, src_components, dst_components, components);
      rows = std::move(remapped);
    }
    write_rows(gpu_, dst, dst_x * dst_element, dst_y, elements * dst_element, lines, rows);
  }

  void remap_rows(const std::vector<uint8_t>& source, std::vector<uint8_t>& result, uint64_t elements,
                  uint32_t component_size, uint32_t src_components, uint32_t dst_components, uint32_t swizzle) const {
    const uint32_t constants[2] = {reg(method::set_remap_const_a), reg(method::set_remap_const_b)};
    for (uint64_t e = 0; e < elements; ++e) {
      const uint8_t* in = source.data() + e * src_components * component_size;
      uint8_t* out = result.data() + e * dst_components * component_size;
      for (uint32_t c = 0; c < dst_components; ++c) {
        const uint32_t select = extract_bits(swizzle, 4 * c, 3);
        uint8_t* target = out + c * component_size;
        if (select < 4) {
          if (select >= src_components) throw Error(fmt::format("remap reads source component {} of {}", select, src_components));
          std::copy_n(in + select * component_size, component_size, target);
        } else if (select < 6) {
          for (uint32_t b = 0; b < component_size; ++b) target[b] = static_cast<uint8_t>(constants[select - 4] >> (8 * b));
        } else if (select != 6) { // 6 is NO_WRITE: the destination bytes stay
          throw Error(fmt::format("remap component select {} is reserved", select));
        }
      }
    }
  }

  void release_semaphore(uint32_t launch) {
    const uint32_t type = extract_bits(launch, 3, 2);
    if (type == 0) return;
    // 1: one word (C7B5: RELEASE_SEMAPHORE_NO_TIMESTAMP), 2: four words (RELEASE_SEMAPHORE_WITH_TIMESTAMP); C7B5
    // names 3 RELEASE_CONDITIONAL_INTR_SEMAPHORE, an interrupt kiln has no one to raise to.
    if (type == 3) throw Error(ampere() ? "LAUNCH_DMA RELEASE_CONDITIONAL_INTR_SEMAPHORE is not implemented" : "LAUNCH_DMA SEMAPHORE_TYPE 3 is reserved");
    SemaphoreRelease release;
    release.address = address_pair(method::set_semaphore_a);
    release.payload = reg(method::set_semaphore_payload);
    // C7B5's TWO_WORD payload size: a 64-bit payload, its upper half in SET_SEMAPHORE_PAYLOAD_UPPER.
    if (ampere() && class_c7b5::field::launch_dma_semaphore_payload_size(launch) ==
                        class_c7b5::value::launch_dma_semaphore_payload_size_two_word) {
      release.payload_64 = true;
      release.payload |= uint64_t{reg(ampere::set_semaphore_payload_upper)} << 32;
    }
    release.size = type == 2 ? SemaphoreRelease::Size::four_words
                             : release.payload_64 ? SemaphoreRelease::Size::two_words : SemaphoreRelease::Size::one_word;
    if (extract_bits(launch, 19, 1) != 0) { // SEMAPHORE_REDUCTION_ENABLE: IMIN IMAX IXOR IAND IOR IADD INC DEC
      static constexpr Reduction copy_reductions[] = {Reduction::min,    Reduction::max, Reduction::bit_xor,
                                                      Reduction::bit_and, Reduction::bit_or, Reduction::add,
                                                      Reduction::inc,    Reduction::dec};
      const uint32_t op = extract_bits(launch, 14, 4);
      if (op >= 8) throw Error(fmt::format("copy semaphore reduction {} is not supported", op)); // C7B5's FADD/FMIN/FMAX too
      release.reduction = true;
      release.op = copy_reductions[op];
      release.is_signed = extract_bits(launch, 18, 1) == 0;
    }
    write_release(gpu_.memory(), release, gpu_.timestamp());
    gpu_.signal();
  }

  ClassId class_id_;
};

} // namespace

std::unique_ptr<Engine> create_copy_engine(Gpu& gpu, ClassId class_id) { return std::make_unique<CopyEngine>(gpu, class_id); }

} // namespace kiln::maxwell
