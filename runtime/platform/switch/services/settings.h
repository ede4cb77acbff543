#pragma once
// What set, set:sys and apm answer: one documented default set (docs/switch.md), overridable by the runner.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "recompiler/config/title_config.h"
#include "runtime/platform/switch/services/fs/fs_config.h"
#include "runtime/platform/switch/services/hid.h"

namespace kiln::hos {

/// Where audout's samples go: the host's audio queue when a window runs (Host::queue_audio), else a WAV file.
struct AudioSettings {
  using HostQueue = std::function<void(const int16_t* samples, size_t frames, uint32_t rate, uint32_t channels)>;
  HostQueue host_queue;                   ///< empty: headless
  std::string wav_path = "kiln-audout.wav"; ///< headless output (kiln.toml [switch.audio] wav)
};

struct SystemSettings {
  int32_t language = 1;      ///< SetLanguage: 1 = American English ("en-US")
  int32_t region = 1;        ///< SetRegion: 1 = USA
  uint8_t firmware_major = 16, firmware_minor = 0, firmware_micro = 0;
  std::string firmware_display = "16.0.0";
  bool docked = false;       ///< apm's performance mode: 0 handheld (normal), 1 docked (boost)
  fs::FileSystemConfig file_systems; ///< fsp-srv's host folders (kiln.toml [switch.fs])
  AudioSettings audio;               ///< audout:u
  std::string font_folder;           ///< pl:u's fonts, one TTF per font type (kiln.toml [switch.fonts] folder); empty: none
  config::GpuSettings gpu;           ///< nvdrv's renderer: overrides of its host profile (kiln.toml [gpu])
  std::vector<NpadConfig> npads = default_npads(); ///< hid's npads (kiln.toml [[switch.input.npad]])
};

/// Language codes in SetLanguage order (switchbrew "Settings services"): a code is the string in a u64.
constexpr const char* language_codes[] = {"ja", "en-US", "fr", "de", "it", "es", "zh-CN", "ko", "nl", "pt", "ru", "zh-TW",
                                          "en-GB", "fr-CA", "es-419", "zh-Hans", "zh-Hant", "pt-BR"};
constexpr int32_t language_count = 18;

} // namespace kiln::hos
