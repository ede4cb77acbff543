#pragma once
// Turns an analysed guest program into a C++ project (CMake + Ninja) that builds a native executable against
// runtime/: one host function per guest function, many functions per file, guest registers in locals.
// Output is deterministic and written with write_file_if_changed, so rebuilds only recompile what changed.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "recompiler/analysis/program.h"
#include "recompiler/pipeline/summary.h"

namespace kiln::emit {

using pipeline::UntranslatedInstruction;

/// A porter's or modder's changes to the generated code (from kiln.toml and patch sets; recompiler/config).
struct Customization {
  struct Hook {
    bool after = false;
    std::string function;          ///< `kiln::rt::HookResult function(kiln::rt::Cpu*)`
    std::vector<uint64_t> targets; ///< addresses inside the function it may branch to
  };
  std::set<uint64_t> ignored;                          ///< functions left out (run by the fallback interpreter)
  std::map<uint64_t, std::optional<uint64_t>> stubs;   ///< function -> value for x0 (or none): returns at once
  std::map<uint64_t, std::string> replacements;        ///< function -> `void function(kiln::rt::Cpu*)`
  std::multimap<uint64_t, Hook> hooks;                 ///< instruction -> hooks, in configuration order
  std::vector<std::filesystem::path> sources;          ///< C++ files compiled into the project (hooks, replacements)
  std::vector<std::string> applied_patch_sets;         ///< "id version", listed in the project and at start-up
  std::string config_key;                              ///< hash of the configuration, part of every function's key
};

/// What a Switch title from an ExeFS folder passes to the runtime (rt::SwitchTitle in the generated project).
struct SwitchTitleInfo {
  uint64_t program_id = 0;
  uint32_t main_thread_priority = 0, main_thread_stack_size = 0;
  std::vector<std::string> allowed_services;
  std::vector<uint64_t> initializers;
};

struct EmitOptions {
  std::filesystem::path output;
  std::filesystem::path source_root;   ///< kiln's repository (runtime sources)
  std::filesystem::path binary_root;   ///< kiln's build tree (prebuilt runtime libraries)
  std::string platform = "linux-user";
  size_t instructions_per_file = 6000; ///< host compile time vs parallelism
  Customization customization;
  std::optional<SwitchTitleInfo> switch_title;
};

struct EmitReport {
  size_t functions = 0;
  size_t instructions = 0;
  size_t files_written = 0;
  size_t files_unchanged = 0;
  size_t fallback_steps = 0; ///< instructions with a fallback-interpreter step (all but the entries of compiled functions)
  size_t fallback_step_functions = 0; ///< the functions emitted for them (position-independent copies share one)
  std::vector<UntranslatedInstruction> untranslated;
};

EmitReport emit_project(const analysis::Program& program, const std::filesystem::path& elf_path, const EmitOptions& options);

} // namespace kiln::emit
