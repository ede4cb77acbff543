#pragma once
// Runs one compute shader the way the translator's execution model expects (translator/spirv/emit_compute.h):
// constant bank 0 as a uniform buffer at set 0 binding 0, workgroup size through specialization constants 0-2,
// global memory as buffers addressed by their device address.
#include <array>
#include <cstdint>
#include <span>

#include "runtime/gpu/vulkan/context.h"
#include "runtime/gpu/vulkan/memory.h"

namespace kiln::gpu {

using vulkan::AddressableBuffer; // runtime/gpu/vulkan/memory.h
using vulkan::create_addressable_buffer;

struct ComputeDispatch {
  std::span<const uint32_t> spirv;
  std::string entry_point = "main";
  std::array<uint32_t, 3> block{32, 1, 1}; ///< CUDA blockDim = workgroup size
  std::array<uint32_t, 3> grid{1, 1, 1};   ///< CUDA gridDim = workgroup count
  std::span<const uint8_t> constant_bank;  ///< contents of constant bank 0 (may be empty)
  uint32_t required_subgroup_size = 0;     ///< 0: the driver's choice
};

/// Creates the pipeline, dispatches, and waits; global buffers must stay alive until it returns.
void run_compute(vulkan::Context& context, const ComputeDispatch& dispatch);

} // namespace kiln::gpu
