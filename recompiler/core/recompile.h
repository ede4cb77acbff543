#pragma once
// kiln::recompiler: the whole pipeline behind `kiln recompile` / `kiln build` / `kiln port`.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "recompiler/emit/cpp_emitter.h"

namespace kiln::recompiler {

struct RecompileOptions {
  std::filesystem::path input;
  std::filesystem::path output;
  std::string platform = "linux-user";
  std::filesystem::path config;        ///< the title's kiln.toml; empty: look for one (find_config)
  bool find_config = true;             ///< beside the executable, else games/*/kiln.toml naming its hash
  std::vector<std::string> patch_sets; ///< applied in this order (folders or ids under patches/<title>/)
  bool list_untranslated = false;      ///< the summary text lists every untranslated instruction, not the first 10
};

struct RecompileSummary {
  std::string platform;                        ///< "switch" for NSO/NRO input, else the option's
  size_t functions = 0;
  size_t instructions = 0;
  size_t jump_tables = 0;
  std::vector<uint64_t> unresolved_indirect_branches;
  std::vector<emit::UntranslatedInstruction> untranslated;
  size_t files_written = 0, files_unchanged = 0;
  size_t fallback_steps = 0;                   ///< instructions the fallback interpreter covers
  size_t fallback_step_functions = 0;          ///< step functions emitted for them
  std::filesystem::path config;                ///< the kiln.toml used (empty: none)
  std::vector<std::string> applied_patch_sets; ///< "id version", in order
  std::filesystem::path discovery_report;      ///< OUTDIR/discovery.toml
  std::vector<std::string> unresolved_imports; ///< ExeFS: imports no module defines (calling one stops the program)
  double seconds = 0;
  std::string text;                            ///< the summary as `kiln recompile` prints it
};

/// Loads, analyses and emits. What the input is decides the front end and platform: a PS-X EXE (or
/// platform "psx") the R3000A and runtime/platform/psx, a 32-bit MIPS ELF MIPS32r2 on linux-user-mips, a
/// Switch NSO/NRO or ExeFS folder (recompiler/loaders/switch/exefs.h) AArch64 on Horizon, any other ELF AArch64 on the option's platform. Throws kiln::Error for bad
/// input (naming file and offset/address).
RecompileSummary recompile(const RecompileOptions& options);

/// Configures (if needed) and builds OUTDIR with CMake + Ninja; returns the executable's path.
std::filesystem::path build(const std::filesystem::path& output, unsigned jobs);

/// The kiln source tree the generated projects build the runtime from.
std::filesystem::path source_root();
/// The kiln build tree whose runtime libraries (the GPU side of the platform) the generated projects link.
std::filesystem::path binary_root();

} // namespace kiln::recompiler
