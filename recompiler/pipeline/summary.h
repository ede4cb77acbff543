#pragma once
// What `kiln recompile` is asked and what it reports, the same for every ISA and platform.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kiln::pipeline {

struct RecompileOptions {
  std::filesystem::path input;
  std::filesystem::path output;
  std::string platform = "linux-user";
  std::filesystem::path config;        ///< the title's kiln.toml; empty: look for one (find_config)
  bool find_config = true;             ///< beside the executable, else games/*/kiln.toml naming its hash
  std::vector<std::string> patch_sets; ///< applied in this order (folders or ids under patches/<title>/)
  bool list_untranslated = false;      ///< the summary text lists every untranslated instruction, not the first 10
};

struct UntranslatedInstruction {
  uint64_t address = 0;
  uint32_t encoding = 0;
  std::string text;
  std::string function;
  bool undecodable = false; ///< no instruction at all (data or an unknown encoding) rather than missing semantics
};

struct RecompileSummary {
  std::string platform;                        ///< what the input chose ("switch" for NSO/NRO, "psx" for a PS-X EXE), else the option's
  size_t functions = 0;                        ///< recompiled functions
  size_t ignored_functions = 0;                ///< left to the fallback interpreter by the title's [[ignore]] entries
  size_t instructions = 0;
  size_t jump_tables = 0;
  size_t constant_jumps = 0;                   ///< indirect jumps through a register set to a constant just before (PS1 BIOS call stubs)
  std::vector<uint64_t> unresolved_indirect_branches;
  std::vector<UntranslatedInstruction> untranslated;
  size_t files_written = 0, files_unchanged = 0;
  bool has_fallback = false;                   ///< the platform runs a fallback interpreter where compiled code cannot go
  size_t fallback_steps = 0;                   ///< instructions the fallback interpreter covers
  size_t fallback_step_functions = 0;          ///< step functions emitted for them
  std::filesystem::path config;                ///< the kiln.toml used (empty: none)
  std::vector<std::string> applied_patch_sets; ///< "id version", in order
  std::filesystem::path discovery_report;      ///< OUTDIR/discovery.toml (empty: none written)
  std::vector<std::string> unresolved_imports; ///< ExeFS: imports no module defines (calling one stops the program)
  double seconds = 0;
  std::string text;                            ///< the summary as `kiln recompile` prints it
};

/// The summary as `kiln recompile` prints it: the counts, the platform, the configuration, the fallback coverage
/// and the first untranslated instructions (all of them with options.list_untranslated).
std::string describe(const RecompileSummary& summary, const RecompileOptions& options);

} // namespace kiln::pipeline
