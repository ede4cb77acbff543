#pragma once
// The engine classes kiln implements, created when SET_OBJECT binds a subchannel to their class.
#include <cstdint>
#include <memory>

#include "runtime/gpu/maxwell/engine.h"

namespace kiln::maxwell {

/// A new engine of `class_id` for channel `channel`, or nullptr when kiln has no such class.
std::unique_ptr<Engine> create_engine(Gpu& gpu, uint32_t channel, uint32_t class_id);

} // namespace kiln::maxwell
