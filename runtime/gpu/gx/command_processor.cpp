#include "runtime/gpu/gx/command_processor.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "runtime/base/bits.h"

namespace kiln::gx {
namespace {

uint32_t be32(const uint8_t* at) { return load<uint32_t>(at, Endian::big); }
uint16_t be16(const uint8_t* at) { return load<uint16_t>(at, Endian::big); }

constexpr size_t context_bytes = 8;

} // namespace

const char* event_name(EventKind kind) {
  switch (kind) {
  case EventKind::draw: return "draw";
  case EventKind::draw_done: return "draw done";
  case EventKind::token: return "token";
  case EventKind::token_interrupt: return "token interrupt";
  case EventKind::efb_copy: return "EFB copy";
  case EventKind::clear_bounding_box: return "clear bounding box";
  case EventKind::clear_pixel_perf: return "clear pixel metrics";
  case EventKind::tmem_preload: return "TMEM preload";
  case EventKind::tlut_load: return "TLUT load";
  case EventKind::texture_invalidate: return "texture invalidate";
  }
  return "?";
}

std::string Diagnostic::to_string() const {
  std::string text = fmt::format("offset 0x{:x}: {}", offset, message);
  if (!context.empty()) {
    text += fmt::format(" (bytes from 0x{:x}:", context_start);
    for (uint8_t byte : context) text += fmt::format(" {:02x}", byte);
    text += ")";
  }
  return text;
}

CommandProcessor::CommandProcessor(std::span<const uint8_t> ram) : ram_(ram) {}

void CommandProcessor::report(uint64_t offset, std::string message, std::span<const uint8_t> bytes, size_t position) {
  ++diagnostic_count_;
  if (diagnostics_.size() >= max_diagnostics) return;
  Diagnostic d;
  d.offset = offset;
  d.message = display_list_prefix_ + std::move(message);
  const size_t start = position > context_bytes ? position - context_bytes : 0;
  const size_t end = std::min(bytes.size(), position + context_bytes);
  d.context.assign(bytes.begin() + static_cast<ptrdiff_t>(start), bytes.begin() + static_cast<ptrdiff_t>(end));
  d.context_start = offset - (position - start);
  diagnostics_.push_back(std::move(d));
}

std::vector<Event> CommandProcessor::take_events() { return std::exchange(events_, {}); }

void CommandProcessor::flush() {
  if (!batch_) return;
  std::unique_ptr<DrawSnapshot> batch = std::move(batch_);
  if (batch->indices.empty()) return; // vertices that completed no primitive draw nothing
  Event event;
  event.kind = EventKind::draw;
  event.offset = batch->offset;
  event.draw = std::shared_ptr<const DrawSnapshot>(std::move(batch));
  events_.push_back(std::move(event));
}

size_t CommandProcessor::run(std::span<const uint8_t> bytes, uint64_t offset) {
  size_t consumed = 0;
  while (consumed < bytes.size()) {
    const size_t size = run_command(bytes, consumed, offset, false);
    if (size == 0) break;
    consumed += size;
  }
  return consumed;
}

size_t CommandProcessor::run_command(std::span<const uint8_t> whole, size_t position, uint64_t base,
                                     bool in_display_list) {
  const std::span<const uint8_t> bytes = whole.subspan(position);
  const uint64_t offset = base + position;
  const Site site{whole, position, offset};
  const uint8_t op = bytes[0];
  auto need = [&](size_t size) { return bytes.size() >= size; };
  if (op >= opcode::primitive && op < 0xC0) return run_primitive(whole, position, base);
  switch (op) {
  case opcode::nop:
  case opcode::metrics:                 // performance metrics: nothing the stream depends on
  case opcode::invalidate_vertex_cache: // the loader keeps no cache of fetched array elements
    return 1;
  case opcode::load_cp:
    if (!need(6)) return 0;
    write_cp(bytes[1], be32(&bytes[2]), site);
    return 6;
  case opcode::load_xf: {
    if (!need(5)) return 0;
    const uint32_t header = be32(&bytes[1]);
    const uint32_t count = ((header >> 16) & 0xF) + 1;
    const size_t size = 5 + 4 * size_t{count};
    if (!need(size)) return 0;
    std::array<uint32_t, max_xf_words_per_load> words{};
    for (uint32_t i = 0; i < count; ++i) words[i] = be32(&bytes[5 + 4 * i]);
    write_xf(header & 0xFFFF, std::span(words).first(count), site);
    return size;
  }
  case opcode::load_indexed_a:
  case opcode::load_indexed_a + 0x08:
  case opcode::load_indexed_a + 0x10:
  case opcode::load_indexed_a + 0x18:
    if (!need(5)) return 0;
    load_indexed_xf((op - opcode::load_indexed_a) / 8, be32(&bytes[1]), site);
    return 5;
  case opcode::call_display_list: {
    if (!need(9)) return 0;
    // Both the address and the size are taken at 32-byte granularity, as the hardware fetches them.
    const uint32_t address = be32(&bytes[1]) & physical_address_mask & ~31u;
    const uint32_t size = be32(&bytes[5]) & ~31u;
    if (in_display_list) {
      report(offset, fmt::format("CALL_DL of 0x{:08x} inside a display list: display lists do not nest; not run",
                                 address), whole, position);
    } else {
      run_display_list(address, size, offset);
    }
    return 9;
  }
  case opcode::load_bp:
    if (!need(5)) return 0;
    write_bp(be32(&bytes[1]), offset);
    return 5;
  default:
    report(offset, fmt::format("unknown GX opcode 0x{:02x}", op), whole, position);
    return 1; // the grammar has no length for it: resume at the next byte
  }
}

size_t CommandProcessor::run_primitive(std::span<const uint8_t> whole, size_t position, uint64_t base) {
  const std::span<const uint8_t> bytes = whole.subspan(position);
  const uint64_t offset = base + position;
  if (bytes.size() < 3) return 0;
  const uint8_t op = bytes[0];
  const uint32_t vat = op & 7;
  const auto primitive = static_cast<Primitive>((op >> 3) & 7);
  const uint32_t count = be16(&bytes[1]);
  const VertexFormat format = decode_vertex_format(cp_, vat);
  std::string error;
  const uint32_t stride = vertex_size(format, error);
  if (!error.empty()) {
    report(offset, fmt::format("{} with VAT {}: {}", primitive_name(primitive), vat, error), whole, position);
    return 3;
  }
  const size_t size = 3 + size_t{count} * stride;
  if (bytes.size() < size) return 0;
  if (format.position == AttributeMode::none) {
    // Every vertex the transform unit draws has a position; without one the command is skipped whole (a
    // zero-size vertex would otherwise turn three bytes into 65535 vertices).
    if (count > 0) {
      report(offset, fmt::format("{} of {} vertices with VAT {}: the VCD has no position; not drawn",
                                 primitive_name(primitive), count, vat), whole, position);
    }
    return size;
  }

  const Topology topology = topology_of(primitive);
  if (batch_ && (batch_->topology != topology || batch_->vertex_format_index != vat || !(batch_->format == format)))
    flush();
  if (!batch_) {
    batch_ = std::make_unique<DrawSnapshot>();
    batch_->offset = offset;
    batch_->topology = topology;
    batch_->vertex_format_index = vat;
    batch_->format = format;
    batch_->cp = cp_;
    batch_->xf = xf_;
    batch_->bp = bp_;
    batch_->raster = decode_raster_state(xf_, bp_);
  }
  const auto first = static_cast<uint32_t>(batch_->vertices.size());
  batch_->vertices.reserve(batch_->vertices.size() + count);
  for (uint32_t i = 0; i < count; ++i) {
    batch_->vertices.push_back(load_vertex(format, cp_, ram_, &bytes[3 + size_t{i} * stride], error));
    if (!error.empty()) {
      report(offset + 3 + size_t{i} * stride, fmt::format("vertex {} of {}: {}", i, primitive_name(primitive), error),
             whole, position + 3 + size_t{i} * stride);
      error.clear();
    }
  }
  assemble_primitive(primitive, first, count, batch_->indices);
  ++batch_->primitive_commands;
  return size;
}

void CommandProcessor::run_display_list(uint32_t address, uint32_t size, uint64_t offset) {
  if (uint64_t{address} + size > ram_.size()) {
    report(offset, fmt::format("CALL_DL of 0x{:x} bytes at 0x{:08x} lies outside guest RAM (0x{:x} bytes); not run",
                               size, address, ram_.size()), {}, 0);
    return;
  }
  const std::span<const uint8_t> list = ram_.subspan(address, size);
  display_list_prefix_ = fmt::format("display list 0x{:08x} (called at 0x{:x}): ", address, offset);
  size_t position = 0;
  while (position < list.size()) {
    const size_t used = run_command(list, position, address, true);
    if (used == 0) {
      report(address + position, fmt::format("command 0x{:02x} runs past the end of the list", list[position]), list,
             position);
      break;
    }
    position += used;
  }
  display_list_prefix_.clear();
}

void CommandProcessor::write_cp(uint32_t address, uint32_t value, const Site& site) {
  uint32_t* target = cp_.find(address);
  if (target == nullptr) {
    report(site.offset, fmt::format("LOAD_CP to unknown CP register 0x{:02x} (value 0x{:08x})", address, value),
           site.whole, site.position);
    return;
  }
  CpState next = cp_;
  next.write(address, value);
  if (next == cp_) return;
  flush();
  cp_ = next;
}

void CommandProcessor::write_xf(uint32_t address, std::span<const uint32_t> words, const Site& site) {
  // One load may run from XF memory into the registers (or through unmapped gaps): each word goes to its address.
  for (size_t i = 0; i < words.size(); ++i) {
    const uint32_t at = address + static_cast<uint32_t>(i);
    uint32_t* target = xf_.find(at);
    if (target == nullptr) {
      report(site.offset,
             fmt::format("LOAD_XF word {} to unmapped XF address 0x{:04x} (value 0x{:08x})", i, at, words[i]),
             site.whole, site.position);
      continue;
    }
    if (*target == words[i]) continue;
    flush();
    *target = words[i];
  }
}

void CommandProcessor::load_indexed_xf(uint32_t array, uint32_t word, const Site& site) {
  const uint32_t index = word >> 16;
  const uint32_t count = ((word >> 12) & 0xF) + 1;
  const uint32_t address = word & 0xFFF;
  const uint32_t slot = static_cast<uint32_t>(ArrayIndex::xf_a) + array;
  const uint64_t source = uint64_t{cp_.array_base[slot]} + uint64_t{index} * cp_.array_stride[slot];
  if (source + 4 * count > ram_.size()) {
    report(site.offset, fmt::format("LOAD_INDX {} index {} reads 0x{:x} bytes at 0x{:08x}, outside guest RAM",
                                    static_cast<char>('A' + array), index, 4 * count, source),
           site.whole, site.position);
    return;
  }
  std::array<uint32_t, max_xf_words_per_load> words{};
  for (uint32_t i = 0; i < count; ++i) words[i] = be32(&ram_[source + 4 * i]);
  write_xf(address, std::span(words).first(count), site);
}

void CommandProcessor::write_bp(uint32_t word, uint64_t offset) {
  const uint32_t address = word >> 24;
  const BpState::WriteResult result = bp_.masked(address, word & bp::value_mask);
  const bool side_effect = bp_has_side_effect(address);
  // The mask register changes no drawing state; every other effective write ends the batch drawn with the old one.
  if ((result.changed || side_effect) && address != bp::mask) flush();
  bp_.commit(address, result.new_value);
  if (!side_effect) return;
  Event event;
  event.offset = offset;
  event.bp_address = address;
  event.value = result.new_value;
  event.bp = std::make_shared<const BpState>(bp_);
  switch (address) {
  case bp::draw_done: event.kind = EventKind::draw_done; break;
  case bp::token: event.kind = EventKind::token; break;
  case bp::token_interrupt: event.kind = EventKind::token_interrupt; break;
  case bp::copy_trigger: event.kind = EventKind::efb_copy; break;
  case bp::clear_bounding_box_0:
  case bp::clear_bounding_box_1: event.kind = EventKind::clear_bounding_box; break;
  case bp::clear_pixel_perf: event.kind = EventKind::clear_pixel_perf; break;
  case bp::preload_mode: event.kind = EventKind::tmem_preload; break;
  case bp::tlut_load: event.kind = EventKind::tlut_load; break;
  default: event.kind = EventKind::texture_invalidate; break;
  }
  events_.push_back(std::move(event));
}

} // namespace kiln::gx
