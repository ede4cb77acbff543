#include "translator/spirv/validate.h"
#include <cstring>

#include <fmt/format.h>
#include <spirv-tools/libspirv.hpp>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"

namespace kiln::spirv {

std::vector<std::string> validate(std::span<const uint32_t> words) {
  std::vector<std::string> messages;
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& position, const char* message) {
    messages.push_back(fmt::format("word {}: {}", position.index, message));
  });
  spvtools::ValidatorOptions options;
  if (!tools.Validate(words.data(), words.size(), options) && messages.empty()) messages.emplace_back("invalid module");
  return messages;
}

void write_validated(const std::string& path, std::span<const uint32_t> words, const std::string& what) {
  const auto messages = validate(words);
  if (!messages.empty()) {
    throw Error(in_file(path), fmt::format("{}: SPIR-V fails validation for Vulkan 1.2 ({} message(s)), not written: {}", what,
                                           messages.size(), messages.front()));
  }
  std::vector<uint8_t> bytes(words.size() * 4);
  std::memcpy(bytes.data(), words.data(), bytes.size());
  write_file_if_changed(path, bytes);
}

std::vector<spv::Capability> declared_capabilities(std::span<const uint32_t> words) {
  // After the 5-word header, each instruction's first word holds its word count (high half) and opcode.
  std::vector<spv::Capability> capabilities;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16;
    const auto opcode = static_cast<spv::Op>(words[i] & 0xffff);
    if (count == 0) break;
    if (opcode == spv::Op::OpCapability && i + 1 < words.size()) capabilities.push_back(static_cast<spv::Capability>(words[i + 1]));
    i += count;
  }
  return capabilities;
}

std::string disassemble(std::span<const uint32_t> words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string text;
  if (!tools.Disassemble(words.data(), words.size(), &text, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES)) {
    return "(cannot disassemble)";
  }
  return text;
}

} // namespace kiln::spirv
