#pragma once
// Turns an analysed guest program into a C++ project (CMake + Ninja) that builds a native executable against
// runtime/: one host function per guest function, many functions per file, guest registers in locals.
// Output is deterministic and written with write_file_if_changed, so rebuilds only recompile what changed.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "recompiler/analysis/program.h"

namespace kiln::emit {

struct UntranslatedInstruction {
  uint64_t address = 0;
  uint32_t encoding = 0;
  std::string text;
  std::string function;
};

struct EmitOptions {
  std::filesystem::path output;
  std::filesystem::path source_root;   ///< kiln's repository (runtime sources)
  std::filesystem::path binary_root;   ///< kiln's build tree (prebuilt runtime libraries)
  std::string platform = "linux-user";
  size_t instructions_per_file = 6000; ///< host compile time vs parallelism
};

struct EmitReport {
  size_t functions = 0;
  size_t instructions = 0;
  size_t files_written = 0;
  size_t files_unchanged = 0;
  std::vector<UntranslatedInstruction> untranslated;
};

EmitReport emit_project(const analysis::Program& program, const std::filesystem::path& elf_path, const EmitOptions& options);

} // namespace kiln::emit
