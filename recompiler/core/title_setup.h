#pragma once
// Between the title's configuration and the pipeline: finding and checking kiln.toml and the chosen patch sets,
// applying instruction patches to the executable's bytes, turning the rest into analysis hints and emitter
// customisation, checking them against what analysis found, and writing the discovery report.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "recompiler/analysis/program.h"
#include "recompiler/config/patch_sets.h"
#include "recompiler/emit/cpp_emitter.h"
#include "recompiler/loaders/switch/exefs.h"
#include "recompiler/pipeline/title_hints.h"

namespace kiln::recompiler {

struct TitleSetup {
  std::vector<uint8_t> bytes;                 ///< the executable with instruction patches applied (a Switch module: as read)
  std::optional<config::TitleConfig> config;  ///< absent when no kiln.toml applies
  config::CombinedChanges changes;
  analysis::Hints hints;
  emit::Customization customization;
};

/// Reads `input`, finds (when `config_file` is empty and `find_config` is set) or loads its kiln.toml, checks
/// the input hash and applies `patch_sets` in order (any conflict is an error listing all of them); the front end
/// applies the instruction patches where its ISA places them. Errors name the file and line of the entry at fault.
TitleSetup prepare_title(const std::filesystem::path& input, const std::filesystem::path& config_file, bool find_config,
                         const std::vector<std::string>& patch_sets);

/// The configuration as the fixed-width front ends (MIPS, PowerPC: `isa` in messages) take it. The kinds of entry
/// they cannot honour yet (stubs, hooks, replacements, C++ sources) are errors naming their kiln.toml line.
pipeline::TitleHints fixed_width_hints(const TitleSetup& setup, const char* isa);

/// Writes the patches' encodings into `bytes`, an ELF image (each address inside an executable segment; with
/// `original`, the word there must be that one). Errors name the kiln.toml line and `name`.
void apply_instruction_patches(std::vector<uint8_t>& bytes, const std::string& name, const std::vector<config::InstructionPatch>& patches);

/// Checks that every configured address names what it must (hooks inside compiled functions, replacements and
/// stubs at function starts...) now that analysis has run.
void check_against_program(const TitleSetup& setup, const analysis::Program& program);

/// OUTDIR/discovery.toml: unresolved indirect branches, jump tables analysis could not bound, undecodable words
/// inside functions, instructions without semantics, an ExeFS title's imports no module exports;
/// `kiln discover apply` reads it (and run-time logs).
void write_discovery_report(const std::filesystem::path& file, const analysis::Program& program,
                            const std::vector<emit::UntranslatedInstruction>& untranslated,
                            const std::vector<nx::UnresolvedImport>& unresolved_imports = {});

} // namespace kiln::recompiler
