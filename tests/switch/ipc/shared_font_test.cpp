// pl:u with fonts from a host folder. The layout expected comes from switchbrew's "Shared Database services"
// and "Glue services" pages (pl:u commands 0-5, SharedFontType 0-5, GetSharedFontInOrderOfPriority's u64
// LanguageCode and three type-6 buffers of u32s, then u8 loaded and u32 count; the 0x1100000-byte shared
// memory, font data as TTF at the offset GetSharedMemoryAddressOffset gives) and its "Shared Font" description
// of the 8-byte header before each font: big-endian u32 magic 0x18029a7f XOR key, then size XOR key.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "runtime/platform/switch/services/default_services.h"
#include "runtime/platform/switch/services/title_config.h"
#include "tests/switch/ipc/ipc_harness.h"

namespace {

using namespace kiln;
using kiln::test::peek;
namespace stdfs = std::filesystem;

constexpr uint64_t pl_u = 0x753a6c70; // "pl:u"
constexpr uint64_t buffer_at = test::data_base + 0x2000;
constexpr uint32_t font_not_loaded = 0x29c;   // kiln's choice: module 156 | 1 << 9
constexpr uint32_t invalid_font_type = 0x49c; // module 156 | 2 << 9

struct FontFixture : test::IpcFixture {
  explicit FontFixture(const hos::SystemSettings& settings) { hos::register_default_services(*registry, settings); }
};

std::string font_bytes(size_t size, char seed) {
  std::string bytes(size, '\0');
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(seed + i * 7);
  return bytes;
}

void write_host(const stdfs::path& path, const std::string& text) {
  stdfs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

uint32_t big_endian(const uint8_t* at) { return uint32_t{at[0]} << 24 | uint32_t{at[1]} << 16 | uint32_t{at[2]} << 8 | at[3]; }

/// The font at `offset` in the shared memory, checked against its header the way a reader decodes it.
void check_font(const uint8_t* memory, uint32_t offset, const std::string& bytes) {
  REQUIRE(offset >= 8);
  REQUIRE(offset + bytes.size() <= 0x1100000);
  const uint32_t key = big_endian(memory + offset - 8) ^ 0x18029a7f;
  CHECK((big_endian(memory + offset - 4) ^ key) == bytes.size());
  CHECK(std::string(reinterpret_cast<const char*>(memory + offset), bytes.size()) == bytes);
}

TEST_CASE("pl:u serves the fonts of the kiln.toml [switch.fonts] folder in the shared memory") {
  const stdfs::path dir = stdfs::temp_directory_path() / ("kiln_fonts_" + std::to_string(::getpid()));
  const std::string standard = font_bytes(37, 'a'), korean = font_bytes(1000, 'k');
  write_host(dir / "fonts" / "Standard.ttf", standard);
  write_host(dir / "fonts" / "Korean.ttf", korean);
  write_host(dir / "kiln.toml", "[switch.fonts]\nfolder = \"fonts\"\n");
  hos::SystemSettings settings;
  hos::load_title_config((dir / "kiln.toml").string(), settings);
  CHECK(settings.font_folder == (dir / "fonts").string());

  FontFixture f(settings);
  const uint32_t pl = f.open_service(pl_u);
  REQUIRE(pl != 0);
  CHECK(f.request(pl, 4, {}) == 0); // GetSharedMemoryNativeHandle: one copy handle
  CHECK(f.word(2) == 0x2);
  const auto memory = f.g.kernel.lookup_as<hos::SharedMemory>(f.word(3));
  REQUIRE(memory);
  CHECK(memory->size == 0x1100000);

  CHECK(f.request(pl, 0, {0}) == 0); // RequestLoad(Standard)
  CHECK(f.request(pl, 1, {0}) == 0); // GetLoadState: Loaded
  CHECK(peek<uint32_t>(f.tls + 0x20) == 1);
  CHECK(f.request(pl, 2, {0}) == 0); // GetSize
  CHECK(peek<uint32_t>(f.tls + 0x20) == 37);
  CHECK(f.request(pl, 3, {0}) == 0); // GetSharedMemoryAddressOffset
  const uint32_t standard_at = peek<uint32_t>(f.tls + 0x20);
  check_font(memory->host, standard_at, standard);
  CHECK(f.request(pl, 3, {4}) == 0);
  const uint32_t korean_at = peek<uint32_t>(f.tls + 0x20);
  check_font(memory->host, korean_at, korean);
  CHECK((korean_at >= standard_at + 37 + 8 || korean_at + 1000 + 8 <= standard_at)); // no overlap

  CHECK(f.request(pl, 1, {1}) == 0); // ChineseSimplified has no file: Loading, never loaded
  CHECK(peek<uint32_t>(f.tls + 0x20) == 0);
  CHECK(f.request(pl, 0, {1}) == font_not_loaded);
  CHECK(f.request(pl, 2, {1}) == font_not_loaded);
  CHECK(f.request(pl, 1, {6}) == invalid_font_type);

  // GetSharedFontInOrderOfPriority("ko"): three B buffers of six u32s; Korean first, then Standard.
  std::memset(rt::host_pointer(buffer_at), 0xee, 0xc0);
  CHECK(f.request(pl, 5, {0x6f6b, 0}, {}, {}, {{buffer_at, 24}, {buffer_at + 0x40, 24}, {buffer_at + 0x80, 24}}) == 0);
  CHECK(peek<uint8_t>(f.tls + 0x20) == 1);
  CHECK(peek<uint32_t>(f.tls + 0x24) == 2);
  CHECK(peek<uint32_t>(buffer_at) == 4);
  CHECK(peek<uint32_t>(buffer_at + 4) == 0);
  CHECK(peek<uint32_t>(buffer_at + 0x40) == korean_at);
  CHECK(peek<uint32_t>(buffer_at + 0x44) == standard_at);
  CHECK(peek<uint32_t>(buffer_at + 0x80) == 1000);
  CHECK(peek<uint32_t>(buffer_at + 0x84) == 37);

  // A missing font is reported, naming its type and the file looked for.
  const test::ChildResult child = test::run_in_child([&] {
    FontFixture again(settings);
    again.request(again.open_service(pl_u), 1, {1});
    _exit(0);
  });
  CHECK_THAT(child.output, Catch::Contains("shared font ChineseSimplified (1) is not loaded"));
  CHECK_THAT(child.output, Catch::Contains("ChineseSimplified.ttf: no such file"));
  write_host(dir / "bad.toml", "[switch.fonts]\nfolders = \"f\"\n");
  CHECK_THROWS_WITH(hos::load_title_config((dir / "bad.toml").string(), settings),
                    Catch::Contains("bad.toml:2: [switch.fonts] 'folders' is not a key"));
  stdfs::remove_all(dir);
}

TEST_CASE("pl:u without a font folder says so once and loads nothing") {
  const test::ChildResult child = test::run_in_child([] {
    FontFixture f{hos::SystemSettings{}};
    const uint32_t pl = f.open_service(pl_u);
    for (int i = 0; i < 2; ++i) {
      const uint32_t result = f.request(pl, 1, {0});
      std::fprintf(stderr, "GetLoadState result %#x state %u\n", result, peek<uint32_t>(f.tls + 0x20));
    }
    std::fprintf(stderr, "GetSize result %#x\n", f.request(pl, 2, {0}));
    std::fprintf(stderr, "GetSharedMemoryNativeHandle result %#x\n", f.request(pl, 4, {}));
    std::fflush(stderr);
    _exit(0);
  });
  CHECK_THAT(child.output, Catch::Contains("GetLoadState result 0 state 0"));
  CHECK_THAT(child.output, Catch::Contains("GetSize result 0x29c"));
  CHECK_THAT(child.output, Catch::Contains("GetSharedMemoryNativeHandle result 0"));
  const std::string said = "names no [switch.fonts] folder";
  const size_t first = child.output.find(said);
  CHECK(first != std::string::npos);
  CHECK(child.output.find(said, first + 1) == std::string::npos);
}

} // namespace
