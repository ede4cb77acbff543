#pragma once
// The generated project of a static 32-bit Linux executable (mipsel on runtime/platform/linux-user-mips, ppc32 on
// runtime/platform/linux-user-ppc), the same for every such ISA: the text as the discovery image sees it, the
// segments embedded in the program (segment_N.bin through guest_image.S), the function table and the platform's
// RecompiledProgram, main.cpp and the CMake project compiling the platform's runtime sources.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "recompiler/loaders/elf/elf32_program.h"
#include "recompiler/pipeline/project_files.h"
#include "recompiler/pipeline/title_hints.h"

namespace kiln::emit {

/// The code: the executable segment holding the entry point from its first code section to the end of its last
/// (the segment begins with the ELF and program headers and ends with .rodata and .eh_frame, whose words would
/// otherwise look like code); and as data the rest of that segment and the other segments (where GOT entries,
/// jump tables and function pointers live).
struct Linux32Text {
  uint32_t base = 0;
  std::vector<uint8_t> code;
  struct Data {
    uint32_t address;
    std::vector<uint8_t> bytes;
  };
  std::vector<Data> data;
};
Linux32Text linux32_text(const elf::Elf32Program& program);

/// Writes the title's instruction patches (words in `order`) into the executable segments of `program`, so the
/// embedded segments, the discovery image and the fallback interpreter all see the patched code.
void apply_code_patches(elf::Elf32Program& program, Endian order, const std::vector<pipeline::CodePatch>& patches);

struct Linux32Platform {
  const char* banner;               ///< opens every generated file
  const char* project;              ///< the CMake project's name
  const char* platform_namespace;   ///< e.g. kiln::mipsel (its RecompiledProgram, run_recompiled)
  const char* recompiled_header;    ///< runtime/platform/.../recompiled.h
  const char* program_variable;     ///< the RecompiledProgram object's name
  std::vector<std::string> runtime_sources; ///< under runtime/, compiled into the project's runtime library
};

/// The CMakeLists.txt of a generated 32-bit project: the platform's runtime sources as a library, the program
/// from main.cpp, function_table.cpp, guest_image.S and the functions_*.cpp files (also the GameCube's project).
std::string runtime_cmake_project(const Linux32Platform& platform, const std::filesystem::path& source_root);
/// main.cpp (`platform_namespace::run_recompiled(program_variable, argc, argv)`) and runtime_cmake_project's file.
void write_main_and_cmake(const Linux32Platform& platform, const std::filesystem::path& source_root, pipeline::ProjectFiles& files);
/// Writes each of `segments` as segment_N.bin, appends their `kiln_segment_N[]`/`kiln_segment_N_end[]`
/// declarations to `table` and returns the assembly (a .rodata section) that includes them.
std::string embed_segments(const std::vector<std::span<const uint8_t>>& segments, std::string& table, pipeline::ProjectFiles& files);

/// Writes function_table.cpp (`table`: write_function_files' text up to its entries; `fallback_expression` the
/// platform's FallbackCode over kiln_guest_opcodes), guest_image.S (the segments, then `opcode_assembly`),
/// main.cpp and CMakeLists.txt.
void write_linux32_project(const elf::Elf32Program& program, const Linux32Platform& platform, std::string table,
                           const std::string& opcode_assembly, const std::string& fallback_expression,
                           const std::filesystem::path& source_root, pipeline::ProjectFiles& files);

} // namespace kiln::emit
