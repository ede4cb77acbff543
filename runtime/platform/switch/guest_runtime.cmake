# Included by the CMake project `kiln recompile` generates for a Switch module: defines kiln_guest_runtime,
# the Horizon a recompiled program links (guest memory, dispatch, the kernel, IPC and services), compiled from
# kiln's sources with the project's flags. KILN_SOURCE_DIR is set by the project.
find_package(fmt REQUIRED)
set(kiln_switch ${KILN_SOURCE_DIR}/runtime/platform/switch)
add_library(kiln_guest_runtime STATIC
  ${KILN_SOURCE_DIR}/runtime/core/guest_memory.cpp
  ${KILN_SOURCE_DIR}/runtime/core/dispatch.cpp
  ${KILN_SOURCE_DIR}/runtime/base/log.cpp
  ${kiln_switch}/process.cpp
  ${kiln_switch}/kernel/address_space.cpp ${kiln_switch}/kernel/kernel.cpp ${kiln_switch}/kernel/threads.cpp
  ${kiln_switch}/kernel/synchronization.cpp ${kiln_switch}/kernel/info.cpp ${kiln_switch}/kernel/svc.cpp
  ${kiln_switch}/ipc/hipc.cpp ${kiln_switch}/ipc/session.cpp ${kiln_switch}/ipc/service.cpp
  ${kiln_switch}/services/sm.cpp ${kiln_switch}/services/set.cpp ${kiln_switch}/services/small_services.cpp
  ${kiln_switch}/services/lm.cpp)
target_include_directories(kiln_guest_runtime PUBLIC ${KILN_SOURCE_DIR})
target_compile_options(kiln_guest_runtime PRIVATE -O2)
target_link_libraries(kiln_guest_runtime PUBLIC fmt::fmt pthread)
