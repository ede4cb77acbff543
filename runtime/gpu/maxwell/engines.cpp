#include "runtime/gpu/maxwell/engines.h"

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/engine_3d.h"

namespace kiln::maxwell {

std::unique_ptr<Engine> create_copy_engine(Gpu& gpu, ClassId class_id);
std::unique_ptr<Engine> create_inline_engine(Gpu& gpu);
std::unique_ptr<Engine> create_2d_engine(Gpu& gpu);
std::unique_ptr<Engine> create_compute_engine(Gpu& gpu, uint32_t channel, ClassId class_id);

std::unique_ptr<Engine> create_engine(Gpu& gpu, uint32_t channel, uint32_t class_id) {
  switch (static_cast<ClassId>(class_id)) {
  case ClassId::threed:
  case ClassId::threed_ampere: return std::make_unique<Engine3D>(gpu, channel, static_cast<ClassId>(class_id));
  case ClassId::compute:
  case ClassId::compute_ampere: return create_compute_engine(gpu, channel, static_cast<ClassId>(class_id));
  case ClassId::copy:
  case ClassId::copy_ampere: return create_copy_engine(gpu, static_cast<ClassId>(class_id));
  case ClassId::inline_to_memory: return create_inline_engine(gpu);
  case ClassId::twod: return create_2d_engine(gpu);
  case ClassId::host:
  case ClassId::host_ampere: break;
  }
  return nullptr;
}

void Engine::check_upper_address(uint32_t upper_method, uint32_t upper) const {
  if (family_of(class_id()) != Family::ampere) return; // bits above a Maxwell class's 8-bit field are not part of it
  throw Error(fmt::format("{} = 0x{:x}: a GPU address beyond kiln's 40-bit address space", method_name(class_id(), upper_method), upper));
}

} // namespace kiln::maxwell
