#pragma once
// `kiln recompile --platform psx`: a PS-X EXE becomes a C++ project (CMake + Ninja) whose functions call the
// R3000A semantics in runtime/core/mips/ops.h and run on runtime/platform/psx. Output is deterministic and
// written with write_file_if_changed.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kiln::mips {

struct UntranslatedWord {
  uint32_t address = 0, word = 0;
  std::string why;
  uint32_t function = 0;
};

struct PsxRecompileReport {
  size_t functions = 0, instructions = 0, jump_tables = 0;
  size_t constant_jumps = 0; ///< JRs through a register set to a constant just before (BIOS call stubs)
  std::vector<uint32_t> unresolved_jumps;
  std::vector<UntranslatedWord> untranslated;
  size_t files_written = 0, files_unchanged = 0;
};

struct PsxRecompileOptions {
  std::filesystem::path input, output;
  std::filesystem::path source_root;     ///< kiln's repository (runtime sources the project compiles)
  std::filesystem::path binary_root;     ///< kiln's build tree (the host shell, prebuilt: kiln_psx_host)
  size_t instructions_per_file = 4000;
};

PsxRecompileReport recompile_psx(const PsxRecompileOptions& options);

/// One summary line plus the first untranslated words (all of them with `list_untranslated`).
std::string describe_psx_report(const std::string& input, const PsxRecompileReport& report, double seconds, bool list_untranslated);

} // namespace kiln::mips
