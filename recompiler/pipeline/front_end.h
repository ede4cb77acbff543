#pragma once
// The seam between the shared recompile driver and each guest ISA. The driver identifies the input by its
// content (identify_input: the container and the ISA it holds), picks the ISA's front end, and the front end
// runs the stages for it: load, analyse, emit, each stage writing through the shared parts of this folder
// (ProjectFiles, FunctionSources, the summary). Nothing outside the front ends asks which ISA a program is.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "recompiler/pipeline/summary.h"

namespace kiln::pipeline {

enum class Isa { aarch64, mips, ppc };
enum class Container { elf, psx_exe, switch_module, exefs_folder, dol, gamecube_disc };

struct Input {
  std::filesystem::path path;
  Container container = Container::elf;
  Isa isa = Isa::aarch64;
  std::string platform;       ///< the guest platform the content implies, else the option's
  std::vector<uint8_t> bytes; ///< the file (empty for a folder)
};

/// What `options.input` is: a folder is a Switch ExeFS, a PS-X EXE (or --platform psx) the R3000A, a GameCube disc
/// image (its magic word) or DOL (a consistent header, or --platform gamecube) the Gekko, a Switch NSO/NRO
/// AArch64, an ELF the machine its header names (EM_MIPS, EM_PPC; any other is read as AArch64). Throws kiln::Error naming the file for anything else.
Input identify_input(const RecompileOptions& options);

class FrontEnd {
public:
  virtual ~FrontEnd() = default;
  virtual Isa isa() const = 0;
  /// Loads, analyses and emits `input` into options.output; throws kiln::Error for bad input (naming file and
  /// offset or address).
  virtual RecompileSummary recompile(const Input& input, const RecompileOptions& options) const = 0;
};

} // namespace kiln::pipeline
