// pl:u (IPlatformServiceManager, switchbrew "Shared Database services" / "Glue services"): the shared fonts.
// They come from the host folder the title's kiln.toml names ([switch.fonts] folder), one TTF file per font
// type (`Standard.ttf`, `ChineseSimplified.ttf`...), packed in font-type order into the 0x1100000-byte shared
// memory the guest maps read-only. Each font is preceded by an 8-byte header: two big-endian u32s, the magic
// 0x18029a7f and the font's size, each XORed with a key (a reader derives the key from the first word); the
// offset the commands give is the font's first byte, after its header.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <mutex>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/platform/switch/services/default_services.h"

namespace kiln::hos {

namespace {

constexpr uint64_t shared_font_memory_size = 0x1100000;
constexpr uint32_t font_header_magic = 0x18029a7f;
constexpr uint32_t font_header_key = 0x06186249; ///< kiln's choice: any key decodes, as the reader derives it
constexpr uint32_t font_header_size = 8;
constexpr uint32_t load_state_loading = 0, load_state_loaded = 1;

/// pl has no documented results; kiln's choice of module 156.
constexpr uint32_t pl_module = 156;
constexpr Result font_not_loaded = make_result(pl_module, 1);
constexpr Result invalid_font_type = make_result(pl_module, 2);

/// SharedFontType order (switchbrew): the file a font type is read from is this name with ".ttf".
constexpr const char* font_type_names[] = {"Standard", "ChineseSimplified", "ExtChineseSimplified", "ChineseTraditional",
                                           "Korean", "NintendoExtended"};
constexpr uint32_t font_type_count = 6;

void put_big_endian(uint8_t* at, uint32_t value) {
  for (int i = 0; i < 4; ++i) at[i] = static_cast<uint8_t>(value >> (24 - 8 * i));
}

/// The process's fonts: loaded into the shared memory at the first pl:u command (the memory needs the kernel).
class SharedFonts {
public:
  explicit SharedFonts(std::string folder) : folder_(std::move(folder)) {}
  struct Region {
    uint32_t offset = 0, size = 0;
    bool loaded = false;
  };
  void load_once(ipc::Context& c) {
    std::lock_guard lock(lock_);
    if (memory_) return;
    memory_ = c.kernel().create_shared_memory(shared_font_memory_size, 1 /* read */);
    if (folder_.empty()) {
      c.kernel().report_once("pl:u fonts", fmt::format("pl:u: the title's kiln.toml names no [switch.fonts] folder: no shared font is loaded "
                                                       "(GetLoadState answers Loading, the font commands reply {:#x})", font_not_loaded));
      return;
    }
    uint64_t at = 0;
    for (uint32_t type = 0; type < font_type_count; ++type) {
      const std::filesystem::path path = std::filesystem::path(folder_) / (std::string(font_type_names[type]) + ".ttf");
      std::vector<uint8_t> bytes;
      try {
        if (!std::filesystem::is_regular_file(path)) throw Error(fmt::format("{}: no such file", path.string()));
        bytes = read_file(path, kiln::input::font);
      } catch (const Error& e) {
        c.kernel().report_once(fmt::format("pl:u font {}", type),
                               fmt::format("pl:u: shared font {} ({}) is not loaded: {}; its commands reply {:#x}", font_type_names[type],
                                           type, e.what(), font_not_loaded));
        continue;
      }
      if (at + font_header_size + bytes.size() > shared_font_memory_size) {
        c.kernel().report_once(fmt::format("pl:u font {}", type),
                               fmt::format("pl:u: shared font {} ({}, {}, {} bytes) does not fit in the {:#x}-byte shared memory after "
                                           "the fonts before it; it is not loaded", font_type_names[type], type, path.string(),
                                           bytes.size(), shared_font_memory_size));
        continue;
      }
      uint8_t* header = memory_->host + at;
      put_big_endian(header, font_header_magic ^ font_header_key);
      put_big_endian(header + 4, static_cast<uint32_t>(bytes.size()) ^ font_header_key);
      std::memcpy(header + font_header_size, bytes.data(), bytes.size());
      regions_[type] = {static_cast<uint32_t>(at + font_header_size), static_cast<uint32_t>(bytes.size()), true};
      at = (at + font_header_size + bytes.size() + 3) & ~uint64_t{3}; // the next header on a u32 boundary
    }
  }
  std::shared_ptr<SharedMemory> memory() {
    std::lock_guard lock(lock_);
    return memory_;
  }
  Region region(uint32_t type) {
    std::lock_guard lock(lock_);
    return regions_[type];
  }

private:
  std::string folder_;
  std::mutex lock_;
  std::shared_ptr<SharedMemory> memory_;
  Region regions_[font_type_count];
};

/// The font types for a language, most wanted first: the language's own (Chinese, Korean), then the rest in
/// font-type order.
std::vector<uint32_t> fonts_by_priority(uint64_t language_code) {
  char text[9] = {};
  std::memcpy(text, &language_code, 8);
  const std::string language(text);
  std::vector<uint32_t> order;
  if (language == "zh-CN" || language == "zh-Hans") order = {1, 2};
  else if (language == "zh-TW" || language == "zh-Hant") order = {3};
  else if (language == "ko") order = {4};
  for (uint32_t type = 0; type < font_type_count; ++type)
    if (std::find(order.begin(), order.end(), type) == order.end()) order.push_back(type);
  return order;
}

class PlatformServiceManager final : public ipc::ServiceObject {
public:
  explicit PlatformServiceManager(std::shared_ptr<SharedFonts> fonts) : fonts_(std::move(fonts)) {}
  std::string_view name() const override { return "pl:u"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "RequestLoad", ipc::bind<&PlatformServiceManager::request_load>},
        {1, "GetLoadState", ipc::bind<&PlatformServiceManager::get_load_state>},
        {2, "GetSize", ipc::bind<&PlatformServiceManager::get_size>},
        {3, "GetSharedMemoryAddressOffset", ipc::bind<&PlatformServiceManager::get_shared_memory_address_offset>},
        {4, "GetSharedMemoryNativeHandle", ipc::bind<&PlatformServiceManager::get_shared_memory_native_handle>},
        {5, "GetSharedFontInOrderOfPriority", ipc::bind<&PlatformServiceManager::get_shared_font_in_order_of_priority>},
    };
    return table;
  }
  /// Every font is loaded when the first command comes, so a request only says whether that worked.
  Result request_load(ipc::Context& c) {
    SharedFonts::Region region;
    if (const Result r = font(c, &region)) return r;
    return region.loaded ? success : font_not_loaded;
  }
  Result get_load_state(ipc::Context& c) {
    SharedFonts::Region region;
    if (const Result r = font(c, &region)) return r;
    c.write(region.loaded ? load_state_loaded : load_state_loading);
    return success;
  }
  Result get_size(ipc::Context& c) {
    SharedFonts::Region region;
    if (const Result r = font(c, &region)) return r;
    if (!region.loaded) return font_not_loaded;
    c.write(region.size);
    return success;
  }
  Result get_shared_memory_address_offset(ipc::Context& c) {
    SharedFonts::Region region;
    if (const Result r = font(c, &region)) return r;
    if (!region.loaded) return font_not_loaded;
    c.write(region.offset);
    return success;
  }
  Result get_shared_memory_native_handle(ipc::Context& c) {
    fonts_->load_once(c);
    c.push_copy_handle(fonts_->memory());
    return success;
  }
  /// The loaded fonts for the input language, most wanted first: their types, offsets and sizes into the three
  /// B buffers (u32 arrays; as many as the smallest holds), then "loaded" (u8) and the count (u32).
  Result get_shared_font_in_order_of_priority(ipc::Context& c) {
    const uint64_t language_code = c.read<uint64_t>();
    fonts_->load_once(c);
    const ipc::GuestBuffer types = c.out_mapped(0), offsets = c.out_mapped(1), sizes = c.out_mapped(2);
    const uint64_t room = std::min({types.size, offsets.size, sizes.size}) / 4;
    uint32_t count = 0;
    for (uint32_t type : fonts_by_priority(language_code)) {
      const SharedFonts::Region region = fonts_->region(type);
      if (!region.loaded || count >= room) continue;
      std::memcpy(types.host() + 4 * count, &type, 4);
      std::memcpy(offsets.host() + 4 * count, &region.offset, 4);
      std::memcpy(sizes.host() + 4 * count, &region.size, 4);
      ++count;
    }
    c.write<uint8_t>(count > 0);
    c.write(count);
    return success;
  }

private:
  /// The input font type's region, after loading the fonts; invalid_font_type past the six types.
  Result font(ipc::Context& c, SharedFonts::Region* region) {
    const uint32_t type = c.read<uint32_t>();
    fonts_->load_once(c);
    if (type >= font_type_count) return invalid_font_type;
    *region = fonts_->region(type);
    return success;
  }
  std::shared_ptr<SharedFonts> fonts_;
};

} // namespace

void register_shared_font(ServiceRegistry& registry, const std::string& font_folder) {
  auto fonts = std::make_shared<SharedFonts>(font_folder); // one shared memory for every pl:u session
  registry.add("pl:u", [fonts] { return std::make_shared<PlatformServiceManager>(fonts); });
}

} // namespace kiln::hos
