#include "runtime/gpu/maxwell/engine_3d.h"

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/classes/methods_b197.h"
#include "runtime/gpu/maxwell/classes/methods_c797.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/mme/interpreter.h"
#include "runtime/gpu/maxwell/mme/macro_registry.h"
#include "runtime/gpu/maxwell/mme/program.h"
#include "runtime/gpu/maxwell/reports.h"

namespace kiln::maxwell {

namespace m3d = class_b197;
namespace a3d = class_c797;

// Both classes are decoded with B197's names. The methods that differ: where programs are (B197: SET_PROGRAM_REGION
// + SET_PIPELINE_PROGRAM offsets; C797: SET_PIPELINE_PROGRAM_ADDRESS) and how index and vertex buffers end (B197:
// a limit address; C797: a size), read per class in draw_state.cpp; C797's own actions (REPORT_SEMAPHORE_EXECUTE,
// its draw and MME methods) are handled or refused below. tests/gpu/maxwell checks by name that every other
// B197 method has the same offset in C797.
static_assert(a3d::set_pipeline_shader.offset == m3d::set_pipeline_shader.offset &&
              a3d::set_pipeline_binding.offset == m3d::set_pipeline_binding.offset &&
              a3d::set_pipeline_register_count.offset == m3d::set_pipeline_register_count.offset &&
              a3d::set_index_buffer_a == m3d::set_index_buffer_a && a3d::set_index_buffer_e == m3d::set_index_buffer_e &&
              a3d::set_vertex_stream_a_format.offset == m3d::set_vertex_stream_a_format.offset &&
              a3d::call_mme_macro.offset == m3d::call_mme_macro.offset && a3d::set_report_semaphore_d == m3d::set_report_semaphore_d);

Engine3D::Engine3D(Gpu& gpu, uint32_t channel, ClassId class_id)
    : Engine(gpu), channel_(channel), class_id_(class_id), macro_code_(mme::code_words, 0) {
  store(m3d::set_render_enable_c, 1); // rendering starts enabled (SET_RENDER_ENABLE_C MODE_TRUE), as drivers set it
}

uint32_t Engine3D::class_id() const { return static_cast<uint32_t>(class_id_); }

void Engine3D::write(uint32_t method, uint32_t value) {
  if (method >= m3d::call_mme_macro.offset && ampere()) {
    // Turing and later run macros on the MME64 (open-gpu-doc MME-MacroMethodExpander/tu104), not the Fermi-era MME
    // kiln interprets and compiles.
    throw Error(fmt::format("CALL_MME_MACRO/CALL_MME_DATA({}) on {}: macros of the MME64 are not implemented",
                            (method - m3d::call_mme_macro.offset) / m3d::call_mme_macro.stride, class_name(class_id())));
  }
  if (method >= m3d::call_mme_macro.offset) {
    const uint32_t index = (method - m3d::call_mme_macro.offset) / m3d::call_mme_macro.stride;
    if ((method & 4) == 0) { // CALL_MME_MACRO(j): a new call; its first parameter
      flush();
      pending_macro_ = PendingMacro{index, {value}};
      return;
    }
    if (pending_macro_ && pending_macro_->index == index) { // CALL_MME_DATA(j): the next parameter
      pending_macro_->parameters.push_back(value);
      return;
    }
    flush();
    throw Error(fmt::format("CALL_MME_DATA({}) without a CALL_MME_MACRO({}) before it", index, index));
  }
  flush(); // any other method ends the parameters of a pending macro call
  write_method(method, value);
}

void Engine3D::flush() {
  if (!pending_macro_) return;
  PendingMacro call = std::move(*pending_macro_);
  pending_macro_.reset();
  run_macro(call.index, call.parameters);
}

std::vector<uint32_t> Engine3D::macro_words(uint32_t index) const {
  if (index >= macro_starts_.size()) return {};
  const uint32_t start = macro_starts_[index];
  const auto length = mme::macro_length(macro_code_, start);
  if (!length) return {};
  return std::vector<uint32_t>(macro_code_.begin() + start, macro_code_.begin() + start + *length);
}

void Engine3D::run_macro(uint32_t index, const std::vector<uint32_t>& parameters) {
  if (index >= macro_starts_.size()) throw Error(fmt::format("macro {} is past the start-address table", index));
  const uint32_t start = macro_starts_[index];
  if (start >= macro_code_.size()) throw Error(fmt::format("macro {} starts at {}, past the code RAM", index, start));
  mme::MacroContext context(*this, parameters);
  context.set_start(start);
  ++macro_depth_;
  struct DepthGuard { uint32_t& depth; ~DepthGuard() { --depth; } } guard{macro_depth_};
  const auto length = mme::macro_length(macro_code_, start);
  CompiledMacro native = nullptr;
  if (length) {
    native = gpu_.macros().find(mme::macro_hash(std::span<const uint32_t>(macro_code_).subspan(start, *length)));
  }
  try {
    if (native) {
      ++gpu_.macros_native;
      native(context);
    } else {
      ++gpu_.macros_interpreted;
      mme::interpret(macro_code_, start, context);
    }
  } catch (const AcquireNotMet& wait) {
    throw Error(fmt::format("macro {}: acquire inside a macro is not met ({}) and cannot be waited for", index,
                            wait.condition));
  } catch (const Error& error) {
    throw Error(fmt::format("macro {} ({}): {}", index, native ? "compiled" : "interpreted", error.message()));
  }
  if (context.parameters_missing() != 0) {
    gpu_.report(Diagnostic{Diagnostic::Severity::warning, channel_, 0, class_id(), m3d::call_mme_macro[index],
                           fmt::format("macro {} read {} parameter(s) more than it was given (read as 0)", index,
                                       context.parameters_missing())});
  }
}

void Engine3D::emit(uint32_t method, uint32_t value) {
  if (gpu_.tracing()) gpu_.trace(MethodTrace{channel_, 0, 0, class_id(), method, value, true});
  if (method >= m3d::call_mme_macro.offset) throw Error(fmt::format("a macro called macro method 0x{:04x}", method));
  write_method(method, value);
}

void Engine3D::write_method(uint32_t method, uint32_t value) {
  store(method, value);
  dirty_groups_ |= state_group_of(method);
  if (InlineUpload::handles(method)) {
    upload_.write(gpu_, *this, method, value);
    return;
  }
  switch (method) {
  case m3d::load_mme_instruction_ram: {
    const uint32_t pointer = reg(m3d::load_mme_instruction_ram_pointer);
    if (pointer >= macro_code_.size()) throw Error(fmt::format("macro code upload at word {} is past the RAM", pointer));
    macro_code_[pointer] = value;
    store(m3d::load_mme_instruction_ram_pointer, pointer + 1);
    return;
  }
  case m3d::load_mme_start_address_ram: {
    const uint32_t pointer = reg(m3d::load_mme_start_address_ram_pointer);
    if (pointer >= macro_starts_.size()) throw Error(fmt::format("macro start entry {} is past the table", pointer));
    macro_starts_[pointer] = value;
    store(m3d::load_mme_start_address_ram_pointer, pointer + 1);
    return;
  }
  case m3d::increment_sync_point: gpu_.increment_syncpoint(extract_bits(value, 0, 12)); return;
  case m3d::set_report_semaphore_d: report_semaphore(gpu_, *this, value); return;
  case m3d::clear_report_value:
    if (extract_bits(value, 0, 5) == 1) gpu_.backend().reset_samples_passed(); // ZPASS_PIXEL_CNT
    return;
  case m3d::load_constant_buffer_offset: return;
  case m3d::begin: begin(value); return;
  case m3d::end: end(); return;
  case m3d::draw_vertex_array: indexed_draw_ = false; draw_count_ = value; return;
  case m3d::draw_index_buffer: indexed_draw_ = true; draw_count_ = value; return;
  case m3d::draw_vertex_array_begin_end_instance_first:
  case m3d::draw_vertex_array_begin_end_instance_subsequent:
    instance_ = method == m3d::draw_vertex_array_begin_end_instance_first ? 0 : instance_ + 1;
    issue_draw(extract_bits(value, 28, 4), false, extract_bits(value, 0, 16), extract_bits(value, 16, 12));
    return;
  case m3d::clear_surface: clear_surface(value); return;
  case m3d::set_inline_index2x16_align: inline_skip_ = extract_bits(value, 31, 1); inline_limit_ = extract_bits(value, 0, 31); return;
  case m3d::set_inline_index4x8_align: inline_skip_ = extract_bits(value, 30, 2); inline_limit_ = extract_bits(value, 0, 30); return;
  case m3d::draw_inline_index: add_inline_indices(value, 1, 32); return;
  case m3d::draw_inline_index2x16: add_inline_indices(value, 2, 16); return;
  case m3d::draw_inline_index4x8: add_inline_indices(value, 4, 8); return;
  case m3d::draw_auto: throw Error("DRAW_AUTO (stream-output sized draws) is not implemented yet");
  default: break;
  }
  if (ampere()) {
    switch (method) {
    case a3d::report_semaphore_execute: report_semaphore_execute(gpu_, *this, value); return;
    case a3d::draw_index_buffer_begin_end_b:
    case a3d::draw_vertex_array_begin_end_b:
    case a3d::load_root_table:
    case a3d::mme_dma_read:
    case a3d::mme_dma_read_fifoed:
    case a3d::mme_dma_write:
    case a3d::mme_dma_reduction:
    case a3d::mme_dma_sysmembar:
    case a3d::mme_dma_sync:
    case a3d::mme_dma_write_method_barrier:
      throw Error(fmt::format("{} is not implemented yet", method_name(class_id(), method)));
    default: break;
    }
  }
  constexpr MethodArray bind_group = m3d::bind_group_constant_buffer;
  if (method >= m3d::load_constant_buffer[0] && method <= m3d::load_constant_buffer[15]) { // LOAD_CONSTANT_BUFFER(0..15)
    load_constant_buffer(value);
  } else if (method >= bind_group.offset && method < bind_group[shader_stage_count] &&
             (method - bind_group.offset) % bind_group.stride == 0) {
    bind_constant_buffer((method - bind_group.offset) / bind_group.stride, value);
  } else if (method >= m3d::draw_index_buffer32_begin_end_instance_first && method <= m3d::draw_index_buffer8_begin_end_instance_subsequent) {
    const uint32_t form = (method - m3d::draw_index_buffer32_begin_end_instance_first) / 4; // 32/16/8 first, then 32/16/8 subsequent
    instance_ = form < 3 ? 0 : instance_ + 1;
    issue_draw(extract_bits(value, 28, 4), true, extract_bits(value, 0, 16), extract_bits(value, 16, 12),
               4u >> (form % 3));                                      // 4, 2 or 1 bytes per index
  }
}

void Engine3D::load_constant_buffer(uint32_t value) {
  const uint64_t address = address_pair(m3d::set_constant_buffer_selector_b);
  const uint32_t size = extract_bits(reg(m3d::set_constant_buffer_selector_a), 0, 17);
  const uint32_t offset = reg(m3d::load_constant_buffer_offset);
  if (offset + 4 > size) {
    throw Error(fmt::format("constant buffer update at offset 0x{:x} is past the selected buffer (0x{:x} bytes at 0x{:x})",
                            offset, size, address));
  }
  gpu_.memory().write_u32(address + offset, value);
  store(m3d::load_constant_buffer_offset, offset + 4);
}

void Engine3D::bind_constant_buffer(uint32_t group, uint32_t value) {
  const uint32_t slot = extract_bits(value, 4, 5);
  if (slot >= constant_buffer_slots) throw Error(fmt::format("constant buffer slot {} does not exist", slot));
  dirty_groups_ |= constant_buffer_group;
  ConstantBufferBinding& binding = constant_buffers_[group][slot];
  binding.valid = extract_bits(value, 0, 1) != 0;
  binding.address = address_pair(m3d::set_constant_buffer_selector_b);
  binding.size = extract_bits(reg(m3d::set_constant_buffer_selector_a), 0, 17);
}

void Engine3D::add_inline_indices(uint32_t word, uint32_t per_word, uint32_t bits) {
  if (!in_begin_) throw Error("inline indices outside BEGIN/END");
  if (inline_indices_.size() + per_word > max_transfer_bytes / 4) throw Error("too many inline indices in one draw");
  // SET_INLINE_INDEX*_ALIGN: skip the first `inline_skip_` indices of this word, take at most `inline_limit_`.
  for (uint32_t i = inline_skip_; i < per_word; ++i) {
    if (inline_limit_ && *inline_limit_ == 0) break;
    inline_indices_.push_back(static_cast<uint32_t>(extract_bits(uint64_t{word}, i * bits, bits)));
    if (inline_limit_) --*inline_limit_;
  }
  inline_skip_ = 0;
}

void Engine3D::begin(uint32_t value) {
  in_begin_ = true;
  inline_indices_.clear();
  inline_skip_ = 0;
  inline_limit_.reset();
  draw_count_ = 0;
  indexed_draw_ = false;
  switch (extract_bits(value, 26, 2)) { // INSTANCE_ID: FIRST, SUBSEQUENT, UNCHANGED
  case 0: instance_ = 0; break;
  case 1: ++instance_; break;
  default: break;
  }
}

void Engine3D::end() {
  if (!in_begin_) throw Error("END without BEGIN");
  in_begin_ = false;
  const uint32_t topology = extract_bits(reg(m3d::begin), 0, 16);
  if (!inline_indices_.empty()) {
    issue_draw(topology, true, 0, static_cast<uint32_t>(inline_indices_.size()), 4);
    return;
  }
  const uint32_t first = indexed_draw_ ? reg(m3d::set_index_buffer_f) : reg(m3d::set_vertex_array_start);
  issue_draw(topology, indexed_draw_, first, draw_count_);
}

void Engine3D::issue_draw(uint32_t topology, bool indexed, uint32_t first, uint32_t count, uint32_t index_size) {
  std::shared_ptr<DrawSnapshot> draw = build_snapshot(last_draw_.get(), last_draw_ ? dirty_groups_ : all_state_groups);
  dirty_groups_ = 0;
  draw->draw_index = gpu_.next_draw_index();
  draw->topology = topology;
  draw->indexed = indexed;
  draw->first = first;
  draw->count = count;
  draw->instance = instance_;
  if (index_size != 0) draw->index_size = index_size;
  draw->inline_indices = std::move(inline_indices_);
  inline_indices_.clear();
  last_draw_ = draw;
  gpu_.backend().draw(std::move(draw));
}

} // namespace kiln::maxwell
