#pragma once
// The services kiln provides, each registering its names with the registry sm serves.
#include "runtime/platform/switch/services/registry.h"
#include "runtime/platform/switch/services/settings.h"

namespace kiln::hos {

void register_settings_services(ServiceRegistry& registry, const SystemSettings& settings); ///< set, set:sys
void register_apm(ServiceRegistry& registry, const SystemSettings& settings);              ///< apm
void register_psm(ServiceRegistry& registry);                                               ///< psm
void register_csrng(ServiceRegistry& registry);                                             ///< csrng
void register_lm(ServiceRegistry& registry);                                                ///< lm
void register_time(ServiceRegistry& registry);                                              ///< time:u, time:a, time:s
void register_shared_font(ServiceRegistry& registry, const std::string& font_folder);    ///< pl:u (shared_font.cpp)
void register_nifm(ServiceRegistry& registry);                                              ///< nifm:u, nifm:s, nifm:a (offline)
void register_applet_services(ServiceRegistry& registry, const SystemSettings& settings);  ///< appletOE, appletAE
void register_nvdrv(ServiceRegistry& registry, const config::GpuSettings& gpu); ///< nvdrv, nvdrv:a; `gpu`: kiln.toml [gpu]
void register_vi(ServiceRegistry& registry);    ///< vi:u, vi:s, vi:m
void register_hid(ServiceRegistry& registry, std::vector<NpadConfig> npads); ///< hid
void register_file_system(ServiceRegistry& registry, const fs::FileSystemConfig& config);  ///< fsp-srv (fs/fsp_srv.cpp)
void register_audio_out(ServiceRegistry& registry, const AudioSettings& settings);       ///< audout:u alone (audio/audout.cpp)

/// Every service above.
void register_default_services(ServiceRegistry& registry, const SystemSettings& settings);

} // namespace kiln::hos
