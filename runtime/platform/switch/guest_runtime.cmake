# Included by the CMake project `kiln recompile` generates for a Switch module: defines kiln_guest_runtime,
# the Horizon a recompiled program links (guest memory, dispatch, the kernel, IPC and services), compiled from
# kiln's sources with the project's flags. KILN_SOURCE_DIR is set by the project.
find_package(fmt REQUIRED)
find_package(tomlplusplus REQUIRED)
set(kiln_switch ${KILN_SOURCE_DIR}/runtime/platform/switch)
include(${kiln_switch}/sources.cmake)
set(kiln_switch_sources)
foreach(source IN LISTS kiln_switch_kernel_sources kiln_switch_ipc_sources kiln_switch_service_sources kiln_switch_process_sources)
  list(APPEND kiln_switch_sources ${kiln_switch}/${source})
endforeach()
add_library(kiln_guest_runtime STATIC
  ${KILN_SOURCE_DIR}/runtime/core/guest_memory.cpp ${KILN_SOURCE_DIR}/runtime/core/aarch64/dispatch.cpp ${KILN_SOURCE_DIR}/runtime/core/guest_log.cpp ${KILN_SOURCE_DIR}/runtime/base/log.cpp
  ${KILN_SOURCE_DIR}/runtime/base/error.cpp ${KILN_SOURCE_DIR}/runtime/base/file_writer.cpp ${KILN_SOURCE_DIR}/runtime/base/wav_file.cpp ${KILN_SOURCE_DIR}/runtime/base/pad_script.cpp
  ${kiln_switch_sources})
target_include_directories(kiln_guest_runtime PUBLIC ${KILN_SOURCE_DIR})
target_compile_options(kiln_guest_runtime PRIVATE -O2)
# nvdrv's devices (runtime/gpu/nvgpu: the command processor and the Vulkan renderer) come prebuilt from the kiln
# build that recompiled the program, as for linux-user; KILN_BINARY_DIR is set by the project.
set(kiln_gpu_runtime ${KILN_BINARY_DIR}/kiln_guest_gpu_runtime.cmake)
if(NOT EXISTS ${kiln_gpu_runtime})
  message(FATAL_ERROR "${kiln_gpu_runtime} is missing: KILN_BINARY_DIR must name a configured kiln build")
endif()
include(${kiln_gpu_runtime})
target_link_libraries(kiln_guest_runtime PUBLIC ${KILN_GUEST_GPU_LIBRARIES} fmt::fmt pthread dl PRIVATE tomlplusplus::tomlplusplus)
target_link_options(kiln_guest_runtime PUBLIC ${KILN_GUEST_GPU_LINK_OPTIONS})
# An ExeFS title's main.npdm grants (title_access.h), written by kiln recompile beside the generated sources: it
# goes into the program itself (the runtime only refers to it weakly), so it is added once `program` exists.
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/switch_title_access.cpp)
  cmake_language(DEFER CALL target_sources program PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/switch_title_access.cpp)
endif()
