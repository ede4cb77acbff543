# Helpers every folder uses to declare its targets the same way.
include_guard(GLOBAL)

add_library(kiln_warnings INTERFACE)
target_compile_options(kiln_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wimplicit-fallthrough
  -Wno-missing-field-initializers  # designated initializers leave the rest at their defaults on purpose
  $<$<BOOL:${KILN_WERROR}>:-Werror>
  # Sanitizer instrumentation makes GCC 12 report false "maybe uninitialized" inside libstdc++ (std::regex,
  # std::function); the release build keeps the warning as an error.
  $<$<AND:$<BOOL:${KILN_SANITIZE}>,$<CXX_COMPILER_ID:GNU>>:-Wno-maybe-uninitialized>)

# Adds every folder below this one that has a CMakeLists.txt, at any depth, so a new folder needs no edit of
# its parents. Only the top-level folders call this; the CMakeLists.txt it finds must not add folders themselves.
function(kiln_add_subdirectories)
  set(pending ${CMAKE_CURRENT_SOURCE_DIR})
  while(pending)
    list(POP_FRONT pending folder)
    file(GLOB children LIST_DIRECTORIES true ${folder}/*)
    list(SORT children)
    foreach(child IN LISTS children)
      if(IS_DIRECTORY ${child})
        if(EXISTS ${child}/CMakeLists.txt)
          add_subdirectory(${child})
        endif()
        list(APPEND pending ${child})
      endif()
    endforeach()
  endwhile()
endfunction()

# kiln_library(<name> SOURCES ... [DEPS ...]) -> static library kiln_<name>, alias kiln::<name>.
# Includes are rooted at the repository: #include "runtime/base/byte_reader.h".
function(kiln_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(kiln_${name} STATIC ${ARG_SOURCES})
  add_library(kiln::${name} ALIAS kiln_${name})
  target_include_directories(kiln_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(kiln_${name} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS} kiln_warnings)
  set_property(GLOBAL APPEND PROPERTY KILN_LIBRARIES kiln::${name})
endfunction()

# kiln_test(<name> SOURCES ... DEPS ... [LABELS ...] [TIMEOUT seconds]) -> Catch2 executable, each test case a
# CTest test. Label "unit" marks suites that CI also runs under ASan+UBSan. TIMEOUT: for suites whose cases draw
# many images on lavapipe, longer than the default `ctest --timeout` a loaded machine would allow (such suites
# start first).
function(kiln_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;DEPS;LABELS" ${ARGN})
  set(timeout)
  if(ARG_TIMEOUT)
    # A suite that needs a longer timeout is a long one: its cost makes CTest start it first, so that it runs
    # beside the many short suites instead of alone at the end.
    set(timeout TIMEOUT ${ARG_TIMEOUT} COST ${ARG_TIMEOUT})
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} Catch2::Catch2WithMain kiln_warnings)
  target_compile_definitions(${name} PRIVATE
    KILN_SOURCE_DIR="${PROJECT_SOURCE_DIR}" KILN_SHARED_DIR="${PROJECT_SOURCE_DIR}/../shared")
  # A CTest entry whose name fails to select its Catch test must fail, never pass having run nothing
  # (CMake's list syntax mangles test names holding ';' or '[': keep those characters out of names).
  catch_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "${ARG_LABELS}" ${timeout}
    FAIL_REGULAR_EXPRESSION "No tests ran|No test cases matched")
  if("unit" IN_LIST ARG_LABELS)
    set_property(GLOBAL APPEND PROPERTY KILN_UNIT_TESTS ${name})
  endif()
endfunction()

# kiln_precompile_headers(<target> <headers...>): the target's files are compiled against these headers parsed
# once for the whole target (a precompiled header) instead of once per file. For the few heavy headers most of a
# target's files include: Vulkan-Hpp (about half of a renderer file's compile time) and CLI11.
option(KILN_PRECOMPILED_HEADERS "Precompile the heavy third-party headers of the targets that name them" ON)
function(kiln_precompile_headers target)
  if(KILN_PRECOMPILED_HEADERS)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()
set(KILN_VULKAN_HEADER ${PROJECT_SOURCE_DIR}/runtime/gpu/vulkan/vulkan.h)

# kiln_fuzzer(<name> SOURCES ... DEPS ...) -> libFuzzer target, built only with -DKILN_FUZZ=ON (clang).
function(kiln_fuzzer name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  if(NOT KILN_FUZZ)
    return()
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} kiln_warnings)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
  set_property(GLOBAL APPEND PROPERTY KILN_FUZZERS ${name})
endfunction()

# kiln_glsl_to_header(<target> <namespace> <shader files...>): compiles GLSL to SPIR-V with glslangValidator
# at build time and embeds each as `constexpr uint32_t <stem>_spv[]` in a generated header
# <build>/generated_shaders/<target>_shaders.h, which <target> can include.
function(kiln_glsl_to_header target)
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/generated_shaders)
  set(headers)
  foreach(src IN LISTS ARGN)
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(file_name ${src} NAME)
    string(MAKE_C_IDENTIFIER ${file_name} var)
    set(header ${out_dir}/${file_name}.h)
    add_custom_command(OUTPUT ${header}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
      COMMAND ${KILN_GLSLANG_VALIDATOR} --quiet --target-env vulkan1.2 --vn ${var}_spv -o ${header} ${abs}
      DEPENDS ${abs} MAIN_DEPENDENCY ${abs}
      COMMENT "glslang: ${file_name}")
    list(APPEND headers ${header})
  endforeach()
  target_sources(${target} PRIVATE ${headers})
  target_include_directories(${target} PRIVATE ${out_dir})
endfunction()
