#pragma once
// Macro code RAM and start-address table (LOAD_MME_INSTRUCTION_RAM / LOAD_MME_START_ADDRESS_RAM), and how far
// one macro's code reaches, which is what its hash and its compiled form cover.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kiln::maxwell::mme {

inline constexpr uint32_t code_words = 0x2000;  // kiln accepts this much macro code
inline constexpr uint32_t macro_count = 0x80;   // start-address table entries

/// The instruction range [start, start + length) a macro can execute: from its start to the first exit (plus its
/// delay slot) that no earlier forward branch jumps past. nullopt when it runs off the code RAM without one.
std::optional<uint32_t> macro_length(std::span<const uint32_t> code, uint32_t start);

/// Content hash of a macro's code (the key of compiled macros).
uint64_t macro_hash(std::span<const uint32_t> macro_code);

} // namespace kiln::maxwell::mme
