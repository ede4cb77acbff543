#include "runtime/gpu/gx/pixel_engine.h"

#include <fmt/format.h>

namespace kiln::gx {

void PixelEngine::consume(const Event& event) {
  switch (event.kind) {
  case EventKind::draw_done:
    if ((event.value & 0xFF) != pe::draw_done_value) {
      errors_.push_back(fmt::format("GX stream offset {:#x}: BP 0x45 (draw done) with value {:#x}: only 0x02 is known",
                                    event.offset, event.value));
      return;
    }
    control_ |= pe::finish_status;
    ++finishes_;
    return;
  case EventKind::token: token_ = static_cast<uint16_t>(event.value); return;
  case EventKind::token_interrupt:
    token_ = static_cast<uint16_t>(event.value);
    control_ |= pe::token_status;
    return;
  default: return;
  }
}

bool PixelEngine::read16(uint32_t offset, uint16_t& value) const {
  if (offset == pe::control) value = control_;
  else if (offset == pe::token) value = token_;
  else return false;
  return true;
}

bool PixelEngine::write16(uint32_t offset, uint16_t value) {
  if (offset == pe::token) return true; // the CPU does not set the token: the stream does
  if (offset != pe::control) return false;
  const uint16_t enables = value & (pe::token_enable | pe::finish_enable);
  const uint16_t acknowledged = value & (pe::token_status | pe::finish_status);
  control_ = static_cast<uint16_t>(enables | (control_ & (pe::token_status | pe::finish_status) & ~acknowledged));
  return true;
}

} // namespace kiln::gx
