#pragma once
// Ahead-of-time compilation of macros to C++ (the static-recompilation path): each macro becomes a function with
// its registers in locals and its branches as gotos, registered under the hash of its code.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kiln::maxwell::mme {

/// C++ statements of a function `void NAME(kiln::maxwell::mme::MacroContext& ctx)` for the macro `code` (its
/// whole extent, as macro_length gives), or nullopt with `why` set when the macro cannot be compiled (a branch
/// leaves the extent); such a macro stays interpreted.
std::optional<std::string> compile_macro(std::span<const uint32_t> code, const std::string& name, std::string* why);

/// A whole C++ source file that defines and registers the compiled form of each macro (identical macros once,
/// in hash order, so the output is deterministic). Macros that cannot be compiled are listed in a comment.
std::string compile_macro_file(const std::vector<std::vector<uint32_t>>& macros);

} // namespace kiln::maxwell::mme
