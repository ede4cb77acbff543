# Included by the CMake project `kiln recompile` generates for a Switch module: defines kiln_guest_runtime,
# the Horizon a recompiled program links (guest memory, dispatch, the kernel, IPC and services), compiled from
# kiln's sources with the project's flags. KILN_SOURCE_DIR is set by the project.
find_package(fmt REQUIRED)
set(kiln_switch ${KILN_SOURCE_DIR}/runtime/platform/switch)
include(${kiln_switch}/sources.cmake)
set(kiln_switch_sources)
foreach(source IN LISTS kiln_switch_kernel_sources kiln_switch_ipc_sources kiln_switch_service_sources kiln_switch_process_sources)
  list(APPEND kiln_switch_sources ${kiln_switch}/${source})
endforeach()
add_library(kiln_guest_runtime STATIC
  ${KILN_SOURCE_DIR}/runtime/core/guest_memory.cpp ${KILN_SOURCE_DIR}/runtime/core/dispatch.cpp ${KILN_SOURCE_DIR}/runtime/core/guest_log.cpp ${KILN_SOURCE_DIR}/runtime/base/log.cpp
  ${kiln_switch_sources})
target_include_directories(kiln_guest_runtime PUBLIC ${KILN_SOURCE_DIR})
target_compile_options(kiln_guest_runtime PRIVATE -O2)
target_link_libraries(kiln_guest_runtime PUBLIC fmt::fmt pthread)
