#pragma once
// kiln::recompiler: the whole pipeline behind `kiln recompile` / `kiln build` / `kiln port`.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "recompiler/pipeline/summary.h"

namespace kiln::recompiler {

using pipeline::RecompileOptions;
using pipeline::RecompileSummary;

/// Loads, analyses and emits through the front end of the ISA the input holds (pipeline::identify_input): a PS-X
/// EXE (or platform "psx") the R3000A on runtime/platform/psx, a 32-bit MIPS ELF MIPS32r2 on linux-user-mips, a
/// Switch NSO/NRO or ExeFS folder (recompiler/loaders/switch/exefs.h) AArch64 on Horizon, any other ELF AArch64 on
/// the option's platform. Throws kiln::Error for bad input (naming file and offset/address).
RecompileSummary recompile(const RecompileOptions& options);

/// Configures (if needed, or when `optimization` names a level for the generated functions, e.g. "-Og") and
/// builds OUTDIR with CMake + Ninja; returns the executable's path.
std::filesystem::path build(const std::filesystem::path& output, unsigned jobs, const std::string& optimization = {});

/// The kiln source tree the generated projects build the runtime from.
std::filesystem::path source_root();
/// The kiln build tree whose runtime libraries (the GPU side of the platform) the generated projects link.
std::filesystem::path binary_root();

} // namespace kiln::recompiler
