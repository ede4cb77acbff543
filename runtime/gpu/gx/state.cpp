#include "runtime/gpu/gx/state.h"

#include <bit>

namespace kiln::gx {

uint32_t* CpState::find(uint32_t address) {
  if (address == cp::matrix_index_a) return &matrix_index_a;
  if (address == cp::matrix_index_b) return &matrix_index_b;
  if (address == cp::vcd_lo) return &vcd_lo;
  if (address == cp::vcd_hi) return &vcd_hi;
  const uint32_t group = address & 0xF0, index = address & 0x0F;
  if (group == cp::vat_a && index < vertex_format_count) return &vat_a[index];
  if (group == cp::vat_b && index < vertex_format_count) return &vat_b[index];
  if (group == cp::vat_c && index < vertex_format_count) return &vat_c[index];
  if (group == cp::array_base) return &array_base[index];
  if (group == cp::array_stride) return &array_stride[index];
  return nullptr;
}

bool CpState::write(uint32_t address, uint32_t value) {
  uint32_t* target = find(address);
  if (target == nullptr) return false;
  // Array bases are physical addresses (26 bits); strides are 8 bits.
  if ((address & 0xF0) == cp::array_base) value &= 0x03FFFFFF;
  if ((address & 0xF0) == cp::array_stride) value &= 0xFF;
  *target = value;
  return true;
}

float XfState::memory_float(uint32_t address) const { return std::bit_cast<float>(memory.at(address)); }
float XfState::register_float(uint32_t offset) const { return std::bit_cast<float>(registers.at(offset)); }

uint32_t* XfState::find(uint32_t address) {
  if (address < xf::memory_size) return xf_memory_mapped(address) ? &memory[address] : nullptr;
  if (address >= xf::registers && address < xf::registers_end) return &registers[address - xf::registers];
  return nullptr;
}

bool bp_has_side_effect(uint32_t address) {
  switch (address) {
  case bp::draw_done:
  case bp::token:
  case bp::token_interrupt:
  case bp::copy_trigger:
  case bp::clear_bounding_box_0:
  case bp::clear_bounding_box_1:
  case bp::clear_pixel_perf:
  case bp::preload_mode:
  case bp::tlut_load:
  case bp::texture_invalidate: return true;
  default: return false;
  }
}

BpState::WriteResult BpState::masked(uint32_t address, uint32_t value) const {
  const uint32_t old_value = registers.at(address);
  const uint32_t mask = address == bp::mask ? bp::value_mask : write_mask;
  const uint32_t new_value = ((old_value & ~mask) | (value & mask)) & bp::value_mask;
  return {old_value, new_value, new_value != old_value};
}

void BpState::commit(uint32_t address, uint32_t new_value) {
  registers.at(address) = new_value;
  if (address >= bp::tev_register_low && address < bp::tev_register_low + 8) {
    auto& bank = (new_value >> 23) & 1 ? tev_konst : tev_registers;
    bank[address - bp::tev_register_low] = new_value;
  }
  write_mask = address == bp::mask ? new_value : bp::value_mask;
}

} // namespace kiln::gx
