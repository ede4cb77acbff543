#pragma once
// A Switch title given as its ExeFS folder: main.npdm and the NSO modules rtld, main, subsdk0..subsdk9, sdk.
// kiln does rtld's work at recompile time: each module is loaded at a base of its own, the modules' dynamic
// symbols are linked to each other (imports resolved in the global scope, in load order from main), and the
// relocations are applied into the loaded images, so the recompiler sees the final GOT contents. An import no
// module defines points at a generated stub that names it and stops the program when called.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "recompiler/loaders/switch/npdm.h"
#include "recompiler/loaders/switch/switch_module.h"

namespace kiln::nx {

/// Bases are aligned to this (as Horizon's loader aligns module bases).
constexpr uint64_t exefs_module_alignment = 0x200000;

struct ExeFsModule {
  std::string file; ///< the file name in the folder: "main", "sdk", ...
  Module module;    ///< relocated in place for `base`
  uint64_t base = 0;
  uint64_t end() const { return base + module.image.size() + module.bss_size; }
};

/// An import no module defines: every GOT slot or pointer naming it holds `stub`.
struct UnresolvedImport {
  std::string symbol;
  std::vector<std::string> importers; ///< module files, in load order
  uint64_t stub = 0;                  ///< 0 for a weak import (ELF: an undefined weak symbol is 0)
  bool weak = false;
};

/// What one module's import of a symbol resolved to.
struct ResolvedImport {
  std::string importer, symbol;
  std::string provider; ///< the defining module's file; empty when unresolved
  uint64_t address = 0;
};

/// A relocation of a type kiln does not apply (left as stored; reported).
struct SkippedRelocation {
  std::string module;
  uint64_t offset = 0;
  uint32_t type = 0;
};

struct ExeFs {
  std::filesystem::path folder;
  Npdm npdm;
  std::vector<uint8_t> npdm_bytes;
  std::vector<ExeFsModule> modules; ///< load order: rtld, main, subsdk0..9, sdk (those present)
  /// The generated stubs of the unresolved imports (text only, after the last module), when there are any.
  std::optional<ExeFsModule> unresolved_stubs;
  std::vector<UnresolvedImport> unresolved;
  size_t resolved_imports = 0;                 ///< symbol relocations resolved to a module's definition
  std::vector<ResolvedImport> imports;         ///< each module's imported symbols (once each), in load order
  std::map<uint32_t, size_t> applied;          ///< relocation type -> count applied
  std::vector<SkippedRelocation> skipped;
  std::vector<uint64_t> initializers;          ///< DT_INIT then DT_INIT_ARRAY of each module, sdk first, main last
  uint64_t entry = 0;                          ///< main's text

  const ExeFsModule* module(const std::string& file) const;
  /// The modules and the stubs, as to_elf takes them.
  std::vector<PlacedModule> placed() const;
};

/// The file names in load order.
std::vector<std::string> exefs_load_order();
/// A folder, or a PFS0 file (pfs0.h: an NSP or a decrypted ExeFS section), holding a `main` with the NSO magic.
bool is_exefs(const std::filesystem::path& path);
/// A folder or a PFS0 file: what the commands take as a title's ExeFS.
bool is_exefs_input(const std::filesystem::path& path);
/// The file whose hash identifies the title (kiln.toml's input): a folder's `main`, or the PFS0 file itself.
std::filesystem::path exefs_title_input(const std::filesystem::path& path);
/// Throws a kiln::Error naming `folder` unless it is a folder or PFS0 holding a `main` module.
void require_exefs(const std::filesystem::path& folder);
/// Loads, links and relocates the folder's (or PFS0's) modules and reads its main.npdm. A folder without
/// `main`, a module that is not an NSO, or a relocation outside its module is a kiln::Error naming the file (a
/// PFS0's entries as CONTAINER:NAME) and offset.
ExeFs load_exefs(const std::filesystem::path& folder);

const char* relocation_name(uint32_t type);

/// The lines `kiln recompile` and `kiln inspect` print: the title, each module and its base, relocations applied,
/// imports resolved and unresolved, initialisers; each line starts with `indent`.
/// The generated project's switch_title_access.cpp (runtime/platform/switch/title_access.h): the FS permissions
/// and the system resource size main.npdm grants.
std::string title_access_source(const Npdm& npdm);

std::string describe_exefs(const ExeFs& exefs, const std::string& indent);

} // namespace kiln::nx
