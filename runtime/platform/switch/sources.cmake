# The Horizon runtime's sources, relative to this folder: kiln's build (CMakeLists.txt) and the projects
# `kiln recompile` generates (guest_runtime.cmake) both compile these lists.
set(kiln_switch_kernel_sources kernel/address_space.cpp kernel/kernel.cpp kernel/threads.cpp kernel/synchronization.cpp kernel/info.cpp
    kernel/svc.cpp)
set(kiln_switch_ipc_sources ipc/hipc.cpp ipc/session.cpp ipc/service.cpp)
set(kiln_switch_service_sources services/sm.cpp services/set.cpp services/small_services.cpp services/lm.cpp services/time.cpp services/applet.cpp services/nifm.cpp services/shared_font.cpp
    services/nvdrv.cpp services/vi.cpp services/hid.cpp
    services/fs/host_filesystem.cpp services/fs/storage.cpp services/fs/fsp_srv.cpp services/title_config.cpp
    services/audio/audout.cpp services/audio/audren.cpp)
set(kiln_switch_process_sources process.cpp host_session.cpp scripted_pad.cpp)
