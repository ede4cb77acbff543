// Compute engines: Maxwell (B1C0, clb1c0.h, QMD version 01_07) and Ampere (C7C0, clc7c0.h, QMD version 03_00).
// A launch reads its QMD (qmd.h, field positions generated from open-gpu-doc) into a dispatch snapshot and hands
// it to the backend, whose dispatch() returns once the work is done and its memory writes are in guest memory;
// only then are the QMD's release semaphores written, so a waiter on them sees the results.
#include <fmt/format.h>

#include <array>
#include <memory>
#include <vector>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/classes/methods_b1c0.h"
#include "runtime/gpu/maxwell/classes/methods_c7c0.h"
#include "runtime/gpu/maxwell/classes/qmd_v01_07.h"
#include "runtime/gpu/maxwell/classes/qmd_v03_00.h"
#include "runtime/gpu/maxwell/engine.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/inline_upload.h"
#include "runtime/gpu/maxwell/qmd.h"
#include "runtime/gpu/maxwell/reports.h"
#include "runtime/gpu/maxwell/semaphore.h"

namespace kiln::maxwell {

namespace {

// The methods this engine decodes sit at the same offsets in both classes (InlineUpload and the report semaphore
// use B1C0's names for both); SET_PROGRAM_REGION is Maxwell's only (QMD 03_00 holds absolute program addresses).
namespace method = class_b1c0;
static_assert(class_c7c0::send_pcas_a == method::send_pcas_a && class_c7c0::send_signaling_pcas_b == method::send_signaling_pcas_b &&
              class_c7c0::set_report_semaphore_d == method::set_report_semaphore_d &&
              class_c7c0::set_tex_header_pool_a == method::set_tex_header_pool_a &&
              class_c7c0::set_tex_sampler_pool_a == method::set_tex_sampler_pool_a &&
              class_c7c0::launch_dma == method::launch_dma && class_c7c0::load_inline_data == method::load_inline_data);

/// Three QMD fields (grid or block extents, the same names in every QMD version) as x, y, z.
std::array<uint32_t, 3> dimensions(const Qmd& qmd, QmdField x, QmdField y, QmdField z) {
  return {static_cast<uint32_t>(qmd.get(x)), static_cast<uint32_t>(qmd.get(y)), static_cast<uint32_t>(qmd.get(z))};
}

/// QMD 01_07: PROGRAM_OFFSET is relative to SET_PROGRAM_REGION; two releases with one-bit structure sizes.
void decode_v01_07(const Qmd& qmd, uint64_t program_region, DispatchSnapshot& dispatch, std::vector<SemaphoreRelease>& releases) {
  namespace q = qmd_v01_07;
  dispatch.program_address = program_region + qmd.get(q::program_offset);
  dispatch.grid = dimensions(qmd, q::cta_raster_width, q::cta_raster_height, q::cta_raster_depth);
  dispatch.block = dimensions(qmd, q::cta_thread_dimension0, q::cta_thread_dimension1, q::cta_thread_dimension2);
  dispatch.shared_memory_size = static_cast<uint32_t>(qmd.get(q::shared_memory_size));
  dispatch.barrier_count = static_cast<uint32_t>(qmd.get(q::barrier_count));
  dispatch.register_count = static_cast<uint32_t>(qmd.get(q::register_count));
  dispatch.local_memory_size = static_cast<uint32_t>(qmd.get(q::shader_local_memory_low_size));
  for (uint32_t i = 0; i < dispatch.constant_buffers.size(); ++i) {
    ConstantBufferBinding& binding = dispatch.constant_buffers[i];
    binding.valid = qmd.get(q::constant_buffer_valid[i]) != 0;
    binding.address = (qmd.get(q::constant_buffer_addr_upper[i]) << 32) | qmd.get(q::constant_buffer_addr_lower[i]);
    binding.size = static_cast<uint32_t>(qmd.get(q::constant_buffer_size[i]));
  }
  const auto release = [&](QmdField enable, QmdField lower, QmdField upper, QmdField payload, QmdField structure_size,
                           QmdField reduction_enable, QmdField op, QmdField format) {
    if (qmd.get(enable) == 0) return;
    releases.push_back({.address = (qmd.get(upper) << 32) | qmd.get(lower),
                        .payload = qmd.get(payload),
                        .size = qmd.get(structure_size) == q::value::release0_structure_size_one_word ? SemaphoreRelease::Size::one_word
                                                                                                       : SemaphoreRelease::Size::four_words,
                        .reduction = qmd.get(reduction_enable) != 0,
                        .op = static_cast<Reduction>(qmd.get(op)),
                        .is_signed = qmd.get(format) == q::value::release0_reduction_format_signed_32});
  };
  release(q::semaphore_release_enable0, q::release0_address_lower, q::release0_address_upper, q::release0_payload,
          q::release0_structure_size, q::release0_reduction_enable, q::release0_reduction_op, q::release0_reduction_format);
  release(q::semaphore_release_enable1, q::release1_address_lower, q::release1_address_upper, q::release1_payload,
          q::release1_structure_size, q::release1_reduction_enable, q::release1_reduction_op, q::release1_reduction_format);
}

/// QMD 03_00: an absolute PROGRAM_ADDRESS, constant buffer sizes in 16-byte units, three releases with two-bit
/// structure sizes and optional 64-bit payloads.
void decode_v03_00(const Qmd& qmd, DispatchSnapshot& dispatch, std::vector<SemaphoreRelease>& releases) {
  namespace q = qmd_v03_00;
  dispatch.program_address = (qmd.get(q::program_address_upper) << 32) | qmd.get(q::program_address_lower);
  dispatch.grid = dimensions(qmd, q::cta_raster_width, q::cta_raster_height, q::cta_raster_depth);
  dispatch.block = dimensions(qmd, q::cta_thread_dimension0, q::cta_thread_dimension1, q::cta_thread_dimension2);
  dispatch.shared_memory_size = static_cast<uint32_t>(qmd.get(q::shared_memory_size));
  dispatch.barrier_count = static_cast<uint32_t>(qmd.get(q::barrier_count));
  dispatch.register_count = static_cast<uint32_t>(qmd.get(q::register_count_v));
  dispatch.local_memory_size = static_cast<uint32_t>(qmd.get(q::shader_local_memory_low_size));
  for (uint32_t i = 0; i < dispatch.constant_buffers.size(); ++i) {
    ConstantBufferBinding& binding = dispatch.constant_buffers[i];
    binding.valid = qmd.get(q::constant_buffer_valid[i]) != 0;
    binding.address = (qmd.get(q::constant_buffer_addr_upper[i]) << 32) | qmd.get(q::constant_buffer_addr_lower[i]);
    binding.size = static_cast<uint32_t>(qmd.get(q::constant_buffer_size_shifted4[i]) << 4);
  }
  const auto release = [&](QmdField enable, QmdField lower, QmdField upper, QmdField payload_lower, QmdField payload_upper,
                           QmdField payload_64, QmdField structure_size, QmdField reduction_enable, QmdField op, QmdField format) {
    if (qmd.get(enable) == 0) return;
    const uint64_t size = qmd.get(structure_size);
    releases.push_back({.address = (qmd.get(upper) << 32) | qmd.get(lower),
                        .payload = (qmd.get(payload_upper) << 32) | qmd.get(payload_lower),
                        .size = size == q::value::release0_structure_size_semaphore_one_word    ? SemaphoreRelease::Size::one_word
                                : size == q::value::release0_structure_size_semaphore_two_words ? SemaphoreRelease::Size::two_words
                                                                                                : SemaphoreRelease::Size::four_words,
                        .payload_64 = qmd.get(payload_64) != 0,
                        .reduction = qmd.get(reduction_enable) != 0,
                        .op = static_cast<Reduction>(qmd.get(op)),
                        .is_signed = qmd.get(format) == q::value::release0_reduction_format_signed});
  };
  release(q::release0_enable, q::release0_address_lower, q::release0_address_upper, q::release0_payload_lower,
          q::release0_payload_upper, q::release0_payload64b, q::release0_structure_size, q::release0_reduction_enable,
          q::release0_reduction_op, q::release0_reduction_format);
  release(q::release1_enable, q::release1_address_lower, q::release1_address_upper, q::release1_payload_lower,
          q::release1_payload_upper, q::release1_payload64b, q::release1_structure_size, q::release1_reduction_enable,
          q::release1_reduction_op, q::release1_reduction_format);
  release(q::release2_enable, q::release2_address_lower, q::release2_address_upper, q::release2_payload_lower,
          q::release2_payload_upper, q::release2_payload64b, q::release2_structure_size, q::release2_reduction_enable,
          q::release2_reduction_op, q::release2_reduction_format);
}

class ComputeEngine final : public Engine {
public:
  ComputeEngine(Gpu& gpu, uint32_t channel, ClassId class_id) : Engine(gpu), channel_(channel), class_id_(class_id) {}
  uint32_t class_id() const override { return static_cast<uint32_t>(class_id_); }

  void write(uint32_t method, uint32_t value) override {
    store(method, value);
    if (InlineUpload::handles(method)) upload_.write(gpu_, *this, method, value);
    else if (method == method::send_signaling_pcas_b && extract_bits(value, 1, 1) != 0) launch(); // SCHEDULE
    else if (class_id_ == ClassId::compute_ampere && method == class_c7c0::send_signaling_pcas2_b && schedules(value)) launch();
    else if (method == method::set_report_semaphore_d) report_semaphore(gpu_, *this, value);
  }

private:
  /// PCAS_ACTION values that schedule the QMD (SCHEDULE and the combined actions that end in it).
  static bool schedules(uint32_t value) {
    namespace v = class_c7c0::value;
    const uint32_t action = class_c7c0::field::send_signaling_pcas2_b_pcas_action(value);
    return action == v::send_signaling_pcas2_b_pcas_action_schedule ||
           action == v::send_signaling_pcas2_b_pcas_action_invalidate_copy_schedule ||
           action == v::send_signaling_pcas2_b_pcas_action_prefetch_schedule ||
           action == v::send_signaling_pcas2_b_pcas_action_invalidate_prefetch_copy_schedule ||
           action == v::send_signaling_pcas2_b_pcas_action_invalidate_prefetch_copy_force_require_scheduling;
  }

  void launch() {
    DispatchSnapshot dispatch;
    dispatch.channel = channel_;
    dispatch.class_id = static_cast<uint32_t>(class_id_);
    dispatch.qmd_address = uint64_t{reg(method::send_pcas_a)} << 8;
    Qmd qmd;
    gpu_.memory().read(dispatch.qmd_address, std::span<uint8_t>(reinterpret_cast<uint8_t*>(qmd.words.data()), sizeof(qmd.words)));
    dispatch.qmd = qmd.words;
    std::vector<SemaphoreRelease> releases;
    if (class_id_ == ClassId::compute_ampere) decode_v03_00(qmd, dispatch, releases);
    else decode_v01_07(qmd, address_pair(method::set_program_region_a), dispatch, releases);
    dispatch.texture_header_pool = address_pair(method::set_tex_header_pool_a);
    dispatch.sampler_pool = address_pair(method::set_tex_sampler_pool_a);
    gpu_.backend().dispatch(dispatch); // returns once the work is done (backend.h)
    for (const SemaphoreRelease& release : releases) write_release(dispatch.qmd_address, release);
  }

  void write_release(uint64_t qmd_address, const SemaphoreRelease& release) {
    try {
      maxwell::write_release(gpu_.memory(), release, gpu_.timestamp());
    } catch (const Error& error) {
      throw Error(fmt::format("QMD at GPU {:#x}: {}", qmd_address, error.message()));
    }
    gpu_.signal();
  }

  uint32_t channel_;
  ClassId class_id_;
  InlineUpload upload_;
};

} // namespace

std::unique_ptr<Engine> create_compute_engine(Gpu& gpu, uint32_t channel, ClassId class_id) {
  return std::make_unique<ComputeEngine>(gpu, channel, class_id);
}

} // namespace kiln::maxwell
