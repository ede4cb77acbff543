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
#include "recompiler/pipeline/title_hints.h"

namespace kiln::ppc {

/// `hints`: the title's kiln.toml (instruction patches are applied to the DOL's text before it is decoded).
void write_gamecube_project(const pipeline::Input& input, const std::filesystem::path& source_root, const pipeline::TitleHints& hints,
                            pipeline::ProjectFiles& files, pipeline::RecompileSummary& summary);

} // namespace kiln::ppc
