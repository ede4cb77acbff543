// set (ISettingsServer) and set:sys (ISystemSettingsServer): languages, region and the firmware version.
#include <cstring>

#include "runtime/platform/switch/services/default_services.h"

namespace kiln::hos {

namespace {

uint64_t language_code(int32_t language) {
  uint64_t code = 0;
  std::memcpy(&code, language_codes[language], std::strlen(language_codes[language]));
  return code;
}

/// set's results (module 105).
constexpr Result invalid_language = make_result(105, 625);

class SettingsServer final : public ipc::ServiceObject {
public:
  explicit SettingsServer(const SystemSettings& settings) : settings_(settings) {}
  std::string_view name() const override { return "set"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "GetLanguageCode", ipc::bind<&SettingsServer::get_language_code>},
        {1, "GetAvailableLanguageCodes", ipc::bind<&SettingsServer::get_available_language_codes>},
        {2, "MakeLanguageCode", ipc::bind<&SettingsServer::make_language_code>},
        {3, "GetAvailableLanguageCodeCount", ipc::bind<&SettingsServer::get_available_language_code_count>},
        {4, "GetRegionCode", ipc::bind<&SettingsServer::get_region_code>},
        {5, "GetAvailableLanguageCodes2", ipc::bind<&SettingsServer::get_available_language_codes2>},
        {6, "GetAvailableLanguageCodeCount2", ipc::bind<&SettingsServer::get_available_language_code_count>},
    };
    return table;
  }
  Result get_language_code(ipc::Context& c) {
    c.write(language_code(settings_.language));
    return success;
  }
  Result codes_into(ipc::Context& c, const ipc::GuestBuffer& out) {
    int32_t written = 0;
    for (; written < language_count && (written + 1) * 8u <= out.size; ++written) {
      const uint64_t code = language_code(written);
      std::memcpy(out.host() + written * 8, &code, 8);
    }
    c.write(written);
    return success;
  }
  Result get_available_language_codes(ipc::Context& c) { return codes_into(c, c.out_pointer(0)); }
  Result get_available_language_codes2(ipc::Context& c) { return codes_into(c, c.out_mapped(0)); }
  Result make_language_code(ipc::Context& c) {
    const int32_t language = c.read<int32_t>();
    if (language < 0 || language >= language_count) return invalid_language;
    c.write(language_code(language));
    return success;
  }
  Result get_available_language_code_count(ipc::Context& c) {
    c.write(language_count);
    return success;
  }
  Result get_region_code(ipc::Context& c) {
    c.write(settings_.region);
    return success;
  }

private:
  SystemSettings settings_;
};

/// SetSysFirmwareVersion (0x100 bytes): major, minor, micro, padding, revision major/minor, padding,
/// platform[0x20], version hash[0x40], display version[0x18], display title[0x80].
struct FirmwareVersion {
  uint8_t major, minor, micro, padding1, revision_major, revision_minor, padding2[2];
  char platform[0x20], version_hash[0x40], display_version[0x18], display_title[0x80];
};
static_assert(sizeof(FirmwareVersion) == 0x100);

class SystemSettingsServer final : public ipc::ServiceObject {
public:
  explicit SystemSettingsServer(const SystemSettings& settings) : settings_(settings) {}
  std::string_view name() const override { return "set:sys"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {3, "GetFirmwareVersion", ipc::bind<&SystemSettingsServer::get_firmware_version>},
        {4, "GetFirmwareVersion2", ipc::bind<&SystemSettingsServer::get_firmware_version>},
    };
    return table;
  }
  Result get_firmware_version(ipc::Context& c) {
    const ipc::GuestBuffer out = c.out_pointer(0);
    if (out.size < sizeof(FirmwareVersion)) return make_result(105, 1); // kiln's choice: the buffer is too small
    FirmwareVersion v{};
    v.major = settings_.firmware_major;
    v.minor = settings_.firmware_minor;
    v.micro = settings_.firmware_micro;
    std::strncpy(v.platform, "NX", sizeof v.platform - 1);
    std::strncpy(v.version_hash, "kiln", sizeof v.version_hash - 1);
    std::strncpy(v.display_version, settings_.firmware_display.c_str(), sizeof v.display_version - 1);
    std::strncpy(v.display_title, ("NintendoSDK Firmware for NX " + settings_.firmware_display).c_str(), sizeof v.display_title - 1);
    std::memcpy(out.host(), &v, sizeof v);
    return success;
  }

private:
  SystemSettings settings_;
};

} // namespace

void register_settings_services(ServiceRegistry& registry, const SystemSettings& settings) {
  registry.add("set", [settings] { return std::make_shared<SettingsServer>(settings); });
  registry.add("set:sys", [settings] { return std::make_shared<SystemSettingsServer>(settings); });
}

} // namespace kiln::hos
