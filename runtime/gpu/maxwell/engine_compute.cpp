// Compute engine (B1C0, clb1c0.h): QMD launches (QMD version 01_07 layout, clb1c0qmd.h) become dispatch
// snapshots; the QMD's release semaphores are written once the dispatch was handed to the backend.
#include <fmt/format.h>

#include <memory>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/classes/methods_b1c0.h"
#include "runtime/gpu/maxwell/engine.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/inline_upload.h"
#include "runtime/gpu/maxwell/reports.h"
#include "runtime/gpu/maxwell/semaphore.h"

namespace kiln::maxwell {

namespace {

namespace method = class_b1c0;

constexpr uint32_t qmd_words = 64;

// A QMD field MW(high:low), in bits of the whole structure.
uint64_t qmd_field(const std::array<uint32_t, qmd_words>& qmd, uint32_t high, uint32_t low) {
  uint64_t value = 0;
  for (uint32_t bit = low; bit <= high; ++bit) value |= uint64_t{(qmd[bit / 32] >> (bit % 32)) & 1} << (bit - low);
  return value;
}

class ComputeEngine final : public Engine {
public:
  ComputeEngine(Gpu& gpu, uint32_t channel) : Engine(gpu), channel_(channel) {}
  uint32_t class_id() const override { return static_cast<uint32_t>(ClassId::compute); }

  void write(uint32_t method, uint32_t value) override {
    store(method, value);
    if (InlineUpload::handles(method)) upload_.write(gpu_, *this, method, value);
    else if (method == method::send_signaling_pcas_b && extract_bits(value, 1, 1) != 0) launch();
    else if (method == method::set_report_semaphore_d) report_semaphore(gpu_, *this, value);
  }

private:
  void launch() {
    DispatchSnapshot dispatch;
    dispatch.channel = channel_;
    dispatch.qmd_address = uint64_t{reg(method::send_pcas_a)} << 8;
    gpu_.memory().read(dispatch.qmd_address,
                       std::span<uint8_t>(reinterpret_cast<uint8_t*>(dispatch.qmd.data()), qmd_words * 4));
    const auto& qmd = dispatch.qmd;
    dispatch.program_address = address_pair(method::set_program_region_a) + qmd_field(qmd, 287, 256);
    dispatch.grid = {static_cast<uint32_t>(qmd_field(qmd, 415, 384)), static_cast<uint32_t>(qmd_field(qmd, 431, 416)),
                     static_cast<uint32_t>(qmd_field(qmd, 447, 432))};
    dispatch.block = {static_cast<uint32_t>(qmd_field(qmd, 607, 592)), static_cast<uint32_t>(qmd_field(qmd, 623, 608)),
                      static_cast<uint32_t>(qmd_field(qmd, 639, 624))};
    dispatch.shared_memory_size = static_cast<uint32_t>(qmd_field(qmd, 561, 544));
    dispatch.barrier_count = static_cast<uint32_t>(qmd_field(qmd, 1471, 1467));
    dispatch.register_count = static_cast<uint32_t>(qmd_field(qmd, 1503, 1496));
    for (uint32_t i = 0; i < 8; ++i) {
      ConstantBufferBinding& binding = dispatch.constant_buffers[i];
      binding.valid = qmd_field(qmd, 640 + i, 640 + i) != 0;
      binding.address = (qmd_field(qmd, 967 + i * 64, 960 + i * 64) << 32) | qmd_field(qmd, 959 + i * 64, 928 + i * 64);
      binding.size = static_cast<uint32_t>(qmd_field(qmd, 991 + i * 64, 975 + i * 64));
    }
    dispatch.texture_header_pool = address_pair(method::set_tex_header_pool_a);
    dispatch.sampler_pool = address_pair(method::set_tex_sampler_pool_a);
    gpu_.backend().dispatch(dispatch);
    release(qmd, 202, 736);
    release(qmd, 203, 832);
  }

  // RELEASEn: address lower at base..base+31, upper base+32..+39, reduction op base+52..54, format base+56..57,
  // reduction enable base+58, structure size base+63, payload base+64..+95.
  void release(const std::array<uint32_t, qmd_words>& qmd, uint32_t enable_bit, uint32_t base) {
    if (qmd_field(qmd, enable_bit, enable_bit) == 0) return;
    const uint64_t address = (qmd_field(qmd, base + 39, base + 32) << 32) | qmd_field(qmd, base + 31, base);
    uint32_t payload = static_cast<uint32_t>(qmd_field(qmd, base + 95, base + 64));
    if (qmd_field(qmd, base + 58, base + 58) != 0) {
      const auto op = static_cast<Reduction>(qmd_field(qmd, base + 54, base + 52));
      payload = reduce(op, qmd_field(qmd, base + 57, base + 56) == 1, gpu_.memory().read_u32(address), payload);
    }
    if (qmd_field(qmd, base + 63, base + 63) != 0) gpu_.memory().write_u32(address, payload);
    else write_four_word_release(gpu_.memory(), address, payload, gpu_.timestamp());
    gpu_.signal();
  }

  uint32_t channel_;
  InlineUpload upload_;
};

} // namespace

std::unique_ptr<Engine> create_compute_engine(Gpu& gpu, uint32_t channel) {
  return std::make_unique<ComputeEngine>(gpu, channel);
}

} // namespace kiln::maxwell
