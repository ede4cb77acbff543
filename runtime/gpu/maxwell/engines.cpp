#include "runtime/gpu/maxwell/engines.h"

#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/engine_3d.h"

namespace kiln::maxwell {

std::unique_ptr<Engine> create_copy_engine(Gpu& gpu);
std::unique_ptr<Engine> create_inline_engine(Gpu& gpu);
std::unique_ptr<Engine> create_2d_engine(Gpu& gpu);
std::unique_ptr<Engine> create_compute_engine(Gpu& gpu, uint32_t channel, ClassId class_id);

std::unique_ptr<Engine> create_engine(Gpu& gpu, uint32_t channel, uint32_t class_id) {
  switch (static_cast<ClassId>(class_id)) {
  case ClassId::threed: return std::make_unique<Engine3D>(gpu, channel);
  case ClassId::compute:
  case ClassId::compute_ampere: return create_compute_engine(gpu, channel, static_cast<ClassId>(class_id));
  case ClassId::copy: return create_copy_engine(gpu);
  case ClassId::inline_to_memory: return create_inline_engine(gpu);
  case ClassId::twod: return create_2d_engine(gpu);
  case ClassId::host: break;
  }
  return nullptr;
}

} // namespace kiln::maxwell
