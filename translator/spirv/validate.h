#pragma once
// In-process SPIR-V validation (SPIRV-Tools, Vulkan 1.2 environment) and the only way kiln writes a module.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

namespace kiln::spirv {

/// spirv-val's messages for `words`; empty when the module is valid for Vulkan 1.2.
std::vector<std::string> validate(std::span<const uint32_t> words);

/// Validates, then writes `words` to `path` (unchanged files are not rewritten). A module that fails
/// validation is never written: kiln::Error names `what` and the validator's first message.
void write_validated(const std::string& path, std::span<const uint32_t> words, const std::string& what);

/// The OpCapability operands of a module, in order: the host features it needs (Float64 = shaderFloat64, ...).
std::vector<spv::Capability> declared_capabilities(std::span<const uint32_t> words);

/// Disassembly text (spirv-dis), for messages and tests.
std::string disassemble(std::span<const uint32_t> words);

/// GLSL 4.60 for reading, through SPIRV-Cross' C API.
std::string to_glsl(std::span<const uint32_t> words);

} // namespace kiln::spirv
