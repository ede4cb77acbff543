# kiln_recompiler_bench(NAME SOURCES ... GUEST_COMPILER cc flags... QEMU qemu BENCHMARKS ...): the recompiler
# benchmarks' build (bench/aarch64, bench/ppc32). SOURCES are built natively (x86-64, -O2) as NAME_native and
# with GUEST_COMPILER (-O2 -static) as bench.elf; the target NAME recompiles that with `kiln port` and runs
# bench/common/run_bench.sh over BENCHMARKS.
function(kiln_recompiler_bench name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "QEMU" "SOURCES;GUEST_COMPILER;BENCHMARKS")
  add_executable(${name}_native ${arg_SOURCES})
  target_compile_options(${name}_native PRIVATE -O2 -w)
  target_link_libraries(${name}_native PRIVATE m)
  set(guest_elf ${CMAKE_CURRENT_BINARY_DIR}/bench.elf)
  add_custom_command(OUTPUT ${guest_elf}
    COMMAND ${arg_GUEST_COMPILER} -O2 -static -w ${arg_SOURCES} -lm -o ${guest_elf}
    DEPENDS ${arg_SOURCES} VERBATIM)
  set(recompiled ${CMAKE_CURRENT_BINARY_DIR}/recompiled)
  add_custom_target(${name}
    COMMAND $<TARGET_FILE:kiln> port ${guest_elf} -o ${recompiled}
    COMMAND ${PROJECT_SOURCE_DIR}/bench/common/run_bench.sh $<TARGET_FILE:${name}_native> ${guest_elf}
      ${recompiled}/build/program ${arg_QEMU} ${arg_BENCHMARKS}
    DEPENDS ${guest_elf} ${name}_native kiln
    USES_TERMINAL VERBATIM)
endfunction()
