#pragma once
// The process's GPU devices behind nvdrv (runtime/gpu/nvgpu), for the services that read nvmap memory (vi).
#include "runtime/gpu/nvgpu/devices.h"

namespace kiln::hos {

/// Created at the first use; every nvdrv and nvdrv:a session of the process drives these.
nvgpu_devices::Devices& gpu_devices();

/// NvResult, the error word nvdrv's commands answer beside the IPC result (switchbrew "NV services").
namespace nv_result {
constexpr uint32_t success = 0, not_implemented = 1, not_supported = 2, not_initialized = 3, bad_parameter = 4,
                   timeout = 5, insufficient_memory = 6, invalid_state = 8, invalid_address = 9, invalid_size = 0xa, bad_value = 0xb,
                   already_allocated = 0xd, insufficient_transfer_memory = 0x1000;
} // namespace nv_result

} // namespace kiln::hos
