#include "recompiler/emit/linux32_project.h"

#include <fmt/format.h>

#include "recompiler/emit/generated_project.h"
#include "recompiler/pipeline/function_body.h"
#include "runtime/base/error.h"

namespace kiln::emit {

std::string runtime_cmake_project(const Linux32Platform& platform, const std::filesystem::path& source_root) {
  std::string sources;
  for (const std::string& s : platform.runtime_sources) sources += fmt::format(" ${{runtime}}/{}", s);
  return cmake_project_preamble(platform.project, source_root) + fmt::format(R"cmake(find_package(fmt REQUIRED)
file(GLOB generated_sources CONFIGURE_DEPENDS ${{CMAKE_CURRENT_SOURCE_DIR}}/functions_*.cpp)
set(runtime ${{KILN_SOURCE_DIR}}/runtime)
add_library(kiln_guest_runtime STATIC{})
target_include_directories(kiln_guest_runtime PUBLIC ${{KILN_SOURCE_DIR}})
target_compile_options(kiln_guest_runtime PRIVATE -O2)
target_link_libraries(kiln_guest_runtime PUBLIC fmt::fmt)
add_executable(program main.cpp function_table.cpp guest_image.S ${{generated_sources}})
file(GLOB segment_files CONFIGURE_DEPENDS ${{CMAKE_CURRENT_SOURCE_DIR}}/segment_*.bin ${{CMAKE_CURRENT_SOURCE_DIR}}/opcodes.bin)
# guest_image.S includes the segments with .incbin, which the assembler's dependency scan does not see.
set_source_files_properties(guest_image.S PROPERTIES OBJECT_DEPENDS "${{segment_files}}")
target_include_directories(program PRIVATE ${{CMAKE_CURRENT_SOURCE_DIR}})
# Generated code: a label is emitted after every call and at every branch target, some stay unused.
target_compile_options(program PRIVATE ${{KILN_GENERATED_OPTIMIZATION}} -fno-strict-aliasing -fwrapv -w)
target_link_libraries(program PRIVATE kiln_guest_runtime)
)cmake", sources);
}

std::string embed_segments(const std::vector<std::span<const uint8_t>>& segments, std::string& table, pipeline::ProjectFiles& files) {
  std::string assembly = ".section .rodata\n";
  for (size_t i = 0; i < segments.size(); ++i) {
    table += fmt::format("extern \"C\" const unsigned char kiln_segment_{0}[], kiln_segment_{0}_end[];\n", i);
    assembly += fmt::format(".balign 16\n.global kiln_segment_{0}\n.global kiln_segment_{0}_end\nkiln_segment_{0}:\n"
                            ".incbin \"segment_{0}.bin\"\nkiln_segment_{0}_end:\n", i);
    files.write(fmt::format("segment_{}.bin", i), segments[i]);
  }
  return assembly;
}

void apply_code_patches(elf::Elf32Program& program, Endian order, const std::vector<pipeline::CodePatch>& patches) {
  std::vector<pipeline::CodeBytes> code;
  for (size_t i = 0; i < program.segments.size(); ++i)
    if (program.segments[i].executable()) code.push_back({program.segments[i].address, program.data[i]});
  pipeline::apply_code_patches(code, order, program.name, patches);
}

Linux32Text linux32_text(const elf::Elf32Program& program) {
  // The text is the executable segment holding the entry point (static executables have one).
  size_t text_index = program.segments.size();
  for (size_t i = 0; i < program.segments.size(); ++i)
    if (program.segments[i].executable() && program.segments[i].contains(program.entry)) text_index = i;
  if (program.data[text_index].size() < program.segments[text_index].memory_size)
    throw Error(in_file(program.name), "the executable segment has bytes beyond its file part (code in .bss?)");
  const elf::Segment& text_segment = program.segments[text_index];
  if (!text_segment.contains(program.code_start)) throw Error(in_file(program.name), "the code sections are not in the entry point's segment");
  Linux32Text text;
  text.base = program.code_start;
  const std::vector<uint8_t>& bytes = program.data[text_index];
  const size_t skipped = program.code_start - text_segment.address;
  const size_t code_end = program.code_end > program.code_start && text_segment.contains(program.code_end - 1)
                              ? program.code_end - text_segment.address
                              : bytes.size();
  text.code.assign(bytes.begin() + static_cast<std::ptrdiff_t>(skipped), bytes.begin() + static_cast<std::ptrdiff_t>(code_end));
  // What follows the code in its segment (.rodata, .eh_frame) is data: jump tables and pointers are read there.
  if (code_end < bytes.size())
    text.data.push_back({static_cast<uint32_t>(text_segment.address + code_end), std::vector<uint8_t>(bytes.begin() + static_cast<std::ptrdiff_t>(code_end), bytes.end())});
  for (size_t i = 0; i < program.segments.size(); ++i)
    if (i != text_index) text.data.push_back({static_cast<uint32_t>(program.segments[i].address), program.data[i]});
  return text;
}

void write_linux32_project(const elf::Elf32Program& program, const Linux32Platform& platform, std::string table,
                           const std::string& opcode_assembly, const std::string& fallback_expression,
                           const std::filesystem::path& source_root, pipeline::ProjectFiles& files) {
  std::vector<std::span<const uint8_t>> segment_bytes;
  for (const std::vector<uint8_t>& data : program.data) segment_bytes.emplace_back(data);
  std::string assembly = embed_segments(segment_bytes, table, files);
  assembly += opcode_assembly + ".section .note.GNU-stack,\"\",@progbits\n";
  table += pipeline::opcode_table_declaration();
  table += "const kiln::linux_calls::LoadSegment32 segments[] = {\n";
  for (size_t i = 0; i < program.segments.size(); ++i)
    table += fmt::format("  {{{0:#010x}u, {1:#x}u, kiln_segment_{2}, static_cast<size_t>(kiln_segment_{2}_end - kiln_segment_{2})}},\n",
                         program.segments[i].address, program.segments[i].memory_size, i);
  table += "};\n} // namespace\n\n";
  const std::string type = fmt::format("{}::RecompiledProgram", platform.platform_namespace);
  table += fmt::format("extern const {0} {1};\nconst {0} {1} = {{\n"
                       "  entries, sizeof(entries) / sizeof(entries[0]), {2:#010x}u, segments, sizeof(segments) / sizeof(segments[0]),\n"
                       "  {3:#010x}u, {4}, {5},\n  {6}}};\n",
                       type, platform.program_variable, program.entry, program.program_headers_address, program.program_header_count,
                       program.program_header_size, fallback_expression);
  files.write("function_table.cpp", table);
  files.write("guest_image.S", assembly);
  write_main_and_cmake(platform, source_root, files);
}

void write_main_and_cmake(const Linux32Platform& platform, const std::filesystem::path& source_root, pipeline::ProjectFiles& files) {
  const std::string type = fmt::format("{}::RecompiledProgram", platform.platform_namespace);
  files.write("main.cpp", fmt::format("{}#include \"{}\"\n\nextern const {} {};\n\n"
                                      "int main(int argc, char** argv) {{ return {}::run_recompiled({}, argc, argv); }}\n",
                                      platform.banner, platform.recompiled_header, type, platform.program_variable,
                                      platform.platform_namespace, platform.program_variable));
  files.write("CMakeLists.txt", runtime_cmake_project(platform, source_root));
}

} // namespace kiln::emit
