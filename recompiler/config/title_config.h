#pragma once
// A title's porting configuration (games/<title>/kiln.toml) and the changes it and patch sets make to the guest
// program: what analysis could not find (function entries and sizes, names, jump-table targets), what to leave
// out (ignored functions, which run through the fallback interpreter) or stub, single-instruction patches,
// mid-function hooks and whole-function replacements written in C++. docs/porting.md describes every field.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "translator/spirv/emit_compute.h"

namespace kiln::config {

/// Where a value came from: the TOML file and line, and the patch set (empty for the title's kiln.toml).
struct Origin {
  std::string file;
  int line = 0;
  std::string patch_set;
  std::string describe() const; ///< "games/x/kiln.toml:12" or "patch set 'id' (patches/x/y/patch.toml:4)"
};

struct InputExecutable {
  std::string name; ///< file name the hash belongs to (documentation; matching is by hash)
  std::string hash; ///< "xxh128:<32 hex digits>" of the whole file
  Origin origin;
};

struct FunctionHint {
  uint64_t address = 0;
  std::optional<uint64_t> size; ///< bytes; without it analysis finds the end
  std::string name;
  Origin origin;
};

struct JumpTableHint {
  uint64_t branch = 0;           ///< the BR instruction
  std::vector<uint64_t> targets; ///< every case target, in index order
  Origin origin;
};

struct IgnoredFunction {
  uint64_t address = 0;
  Origin origin;
};

struct Stub {
  uint64_t address = 0;
  std::optional<uint64_t> return_value; ///< written to x0; without it x0 is left as it is
  Origin origin;
};

struct InstructionPatch {
  uint64_t address = 0;
  uint32_t encoding = 0;
  std::optional<uint32_t> original; ///< the word the patch expects to replace (checked)
  Origin origin;
};

enum class HookWhen { before, after };

struct Hook {
  uint64_t address = 0;
  HookWhen when = HookWhen::before;
  std::string function;          ///< C++ function `kiln::rt::HookResult name(kiln::rt::Cpu*)`
  std::vector<uint64_t> targets; ///< addresses inside the function the hook may branch to
  Origin origin;
};

struct Replacement {
  uint64_t address = 0;
  std::string function; ///< C++ function `void name(kiln::rt::Cpu*)`; `name_original` calls the guest code
  Origin origin;
};

/// What a kiln.toml or a patch set changes. Source paths are absolute.
struct Changes {
  std::vector<FunctionHint> functions;
  std::vector<JumpTableHint> jump_tables;
  std::vector<IgnoredFunction> ignore;
  std::vector<Stub> stubs;
  std::vector<InstructionPatch> patches;
  std::vector<Hook> hooks;
  std::vector<Replacement> replacements;
  std::vector<std::filesystem::path> sources; ///< C++ files compiled into the generated project
  void append(const Changes& other);
};

/// A value kiln.toml sets, with where it is written.
template <typename T>
struct Setting {
  T value{};
  Origin origin;
};

/// The [gpu] table: a title's overrides of the translation options the renderer's host profile picks for the
/// driver (runtime/gpu/vulkan/host_profile.h, docs/renderer.md "Host profiles"). Unset keys keep the profile's
/// choice.
struct GpuSettings {
  std::optional<Setting<spirv::FmaMode>> fma;       ///< fma = "exact" | "fused" | "f64"
  std::optional<Setting<bool>> subgroup_size_32;    ///< compute warps on host subgroups of 32 lanes
  std::optional<Setting<bool>> zero_registers;      ///< registers read before any write start at 0
  std::optional<Setting<bool>> gather_bias;         ///< gathers biased by the host's sub-texel precision
  std::optional<Setting<bool>> float64;             ///< double-precision guest code may use shaderFloat64
  bool empty() const { return !fma && !subgroup_size_32 && !zero_registers && !gather_bias && !float64; }
};

struct TitleConfig {
  std::filesystem::path file;
  std::string title;
  std::string platform = "linux-user";
  std::vector<InputExecutable> inputs;
  Changes changes;
  /// Linker map files (CodeWarrior's or Dolphin's, `symbol_maps = [...]` relative to kiln.toml): their functions
  /// become discovery entries of a GameCube (or other fixed-width) program.
  std::vector<std::filesystem::path> symbol_maps;
  GpuSettings gpu;
};

/// Parses a kiln.toml. Syntax errors, unknown keys, wrong types and bad values throw kiln::Error naming the
/// file and line.
TitleConfig load_title_config(const std::filesystem::path& file);
/// The same for kiln.toml text that came from `file` (sources resolve against its folder).
TitleConfig parse_title_config(std::string_view text, const std::filesystem::path& file);

/// Only the [gpu] table of a kiln.toml, checked as load_title_config checks it: what a recompiled program's
/// `--config FILE` gives the renderer. A file without the table gives empty settings.
GpuSettings load_gpu_settings(const std::filesystem::path& file);

/// "xxh128:<hex>" of a file's bytes: the content hash kiln.toml and patch manifests record.
std::string content_hash(const std::vector<uint8_t>& bytes);

/// Checks that `executable` (whose bytes are given) is one of the config's inputs; a mismatch throws an error
/// naming the expected and the actual hash.
void verify_input(const TitleConfig& config, const std::filesystem::path& executable, const std::vector<uint8_t>& bytes);

/// The kiln.toml for `executable` when none is given: the one next to it, else games/*/kiln.toml under
/// `source_root` whose input hash matches. Empty when there is none.
std::filesystem::path find_title_config(const std::filesystem::path& executable, const std::vector<uint8_t>& bytes,
                                        const std::filesystem::path& source_root);

} // namespace kiln::config
