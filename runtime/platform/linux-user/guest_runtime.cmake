# Included by the CMake project `kiln recompile --platform linux-user` generates: defines kiln_guest_runtime,
# the runtime a recompiled program links (guest memory, dispatch, process start-up and system calls, compiled
# from kiln's sources with the project's flags). KILN_SOURCE_DIR and KILN_BINARY_DIR are set by the project.
add_library(kiln_guest_runtime STATIC
  ${KILN_SOURCE_DIR}/runtime/core/guest_memory.cpp
  ${KILN_SOURCE_DIR}/runtime/core/aarch64/dispatch.cpp
  ${KILN_SOURCE_DIR}/runtime/core/guest_log.cpp
  ${KILN_SOURCE_DIR}/runtime/platform/linux-user/process.cpp
  ${KILN_SOURCE_DIR}/runtime/platform/linux-user/syscalls.cpp
  ${KILN_SOURCE_DIR}/runtime/platform/linux-syscalls/abi.cpp
  ${KILN_SOURCE_DIR}/runtime/platform/linux-syscalls/system_calls.cpp)
target_include_directories(kiln_guest_runtime PUBLIC ${KILN_SOURCE_DIR})
target_compile_options(kiln_guest_runtime PRIVATE -O2)
# The GPU device nodes (nvgpu_driver.cpp and the command processor, later the Vulkan renderer) come prebuilt
# from the kiln build that recompiled the program; its configure lists them with their dependencies.
set(kiln_gpu_runtime ${KILN_BINARY_DIR}/kiln_guest_gpu_runtime.cmake)
if(NOT EXISTS ${kiln_gpu_runtime})
  message(FATAL_ERROR "${kiln_gpu_runtime} is missing: KILN_BINARY_DIR must name a configured kiln build")
endif()
include(${kiln_gpu_runtime})
target_link_libraries(kiln_guest_runtime PUBLIC ${KILN_GUEST_GPU_LIBRARIES} pthread dl)
target_link_options(kiln_guest_runtime PUBLIC ${KILN_GUEST_GPU_LINK_OPTIONS})
