# The C differential corpus (tests/aarch64/corpus): each source declares its programs with PROGRAM(name); all of
# them are linked with a generated dispatcher into one static multi-call program (argv[1] picks the program), so
# the C library is recompiled and compiled once per guest architecture.

# kiln_c_corpus(<prefix> COMPILER <cross gcc> SOURCES <c files...> ELF_VARIABLE <var> PROGRAMS_VARIABLE <var>)
# -> target <prefix>_corpus building <binary dir>/corpus/corpus.elf; *_O0.c at -O0, *_Os.c at -Os, *_n1.c at
# -O3 -mcpu=neoverse-n1 (an LSE core: GCC inlines LSE atomics instead of calling libgcc's helpers), others -O2.
function(kiln_c_corpus prefix)
  cmake_parse_arguments(ARG "" "COMPILER;ELF_VARIABLE;PROGRAMS_VARIABLE" "SOURCES" ${ARGN})
  set(corpus_header ${PROJECT_SOURCE_DIR}/tests/aarch64/corpus/corpus.h)
  # Code shared by two builds of one program (switch_vm.c at -O2, switch_vm_O0.c at -O0).
  file(GLOB corpus_includes CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/aarch64/corpus/*.inc)
  set(corpus_dir ${CMAKE_CURRENT_BINARY_DIR}/corpus)
  set(objects)
  set(programs)
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(stem ${source} NAME_WE)
    set(level -O2)
    if(stem MATCHES "_O0$")
      set(level -O0)
    elseif(stem MATCHES "_Os$")
      set(level -Os)
    elseif(stem MATCHES "_n1$")
      set(level -O3 -mcpu=neoverse-n1)
    endif()
    file(STRINGS ${source} declarations REGEX "^PROGRAM\\(")
    foreach(declaration IN LISTS declarations)
      string(REGEX REPLACE "^PROGRAM\\(([a-zA-Z0-9_]+)\\).*" "\\1" name "${declaration}")
      list(APPEND programs ${name})
    endforeach()
    set(object ${corpus_dir}/${stem}.o)
    add_custom_command(OUTPUT ${object}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${corpus_dir}
      COMMAND ${ARG_COMPILER} ${level} -std=gnu11 -Wall -Wno-format-truncation -Wno-infinite-recursion -c ${source} -o ${object}
      DEPENDS ${source} ${corpus_header} ${corpus_includes}
      COMMENT "${prefix} corpus: ${stem}.c (${level})" VERBATIM COMMAND_EXPAND_LISTS)
    list(APPEND objects ${object})
  endforeach()
  # The PROGRAM declarations are read here, at configure time.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ARG_SOURCES})

  set(dispatch "#include <stdio.h>\n#include <string.h>\n")
  foreach(name IN LISTS programs)
    string(APPEND dispatch "int program_${name}(int, char**);\n")
  endforeach()
  string(APPEND dispatch "int main(int argc, char** argv) {\n  if (argc < 2) { puts(\"usage: corpus PROGRAM [ARGS]\"); return 2; }\n")
  foreach(name IN LISTS programs)
    string(APPEND dispatch "  if (!strcmp(argv[1], \"${name}\")) return program_${name}(argc, argv);\n")
  endforeach()
  string(APPEND dispatch "  fprintf(stderr, \"unknown program %s\\n\", argv[1]);\n  return 2;\n}\n")
  file(GENERATE OUTPUT ${corpus_dir}/main.c CONTENT "${dispatch}")

  set(elf ${corpus_dir}/corpus.elf)
  add_custom_command(OUTPUT ${elf}
    COMMAND ${ARG_COMPILER} -O2 -static ${corpus_dir}/main.c ${objects} -lm -o ${elf}
    DEPENDS ${objects} ${corpus_dir}/main.c
    COMMENT "${prefix} corpus: linking corpus.elf (static glibc)" VERBATIM COMMAND_EXPAND_LISTS)
  add_custom_target(${prefix}_corpus ALL DEPENDS ${elf})
  set(${ARG_ELF_VARIABLE} ${elf} PARENT_SCOPE)
  set(${ARG_PROGRAMS_VARIABLE} ${programs} PARENT_SCOPE)
endfunction()

# kiln_corpus_differential_tests(<test prefix> QEMU <qemu> ELF <corpus.elf> RECOMPILED <native program>
#   FIXTURE <fixture that recompiles> LABEL <label> PROGRAMS <names...>)
# -> one CTest entry per program: stdout, stderr and exit status under qemu and recompiled must be identical.
function(kiln_corpus_differential_tests test_prefix)
  cmake_parse_arguments(ARG "" "QEMU;ELF;RECOMPILED;FIXTURE;LABEL" "PROGRAMS" ${ARGN})
  foreach(name IN LISTS ARG_PROGRAMS)
    set(arguments ${name})
    if(name STREQUAL "arguments")
      list(APPEND arguments "first argument" second "" "fourth")
    endif()
    add_test(NAME ${test_prefix}.${name}
      COMMAND ${PROJECT_SOURCE_DIR}/tests/aarch64/differential.sh ${ARG_QEMU} ${ARG_ELF} ${ARG_RECOMPILED} ${arguments})
    set_tests_properties(${test_prefix}.${name} PROPERTIES FIXTURES_REQUIRED ${ARG_FIXTURE} LABELS ${ARG_LABEL} TIMEOUT 120)
  endforeach()
endfunction()
