#pragma once
// The generated project of a GameCube title on runtime/platform/gamecube: a DOL, or a disc image (GCM/ISO) whose
// boot.bin names the DOL to run (the disc stays beside the program: the title reads it through DI at run time).
// The DOL's text sections are the code (one range from the lowest to the end of the highest, what lies between
// them as loaded), its data sections the data; the exception vectors a text section holds are function starts.
#include <filesystem>
#include <span>

#include "recompiler/pipeline/front_end.h"
#include "recompiler/pipeline/project_files.h"
#include "recompiler/pipeline/summary.h"

namespace kiln::ppc {

void write_gamecube_project(const pipeline::Input& input, const std::filesystem::path& source_root, pipeline::ProjectFiles& files,
                            pipeline::RecompileSummary& summary);

} // namespace kiln::ppc
