#pragma once
// The GameCube disc image (GCM/ISO, YAGCD chapter 13): boot.bin at 0 (game code, maker, disc number and version,
// the magic word, the game's name, where the boot DOL and the FST are), bi2.bin at 0x440 (simulated memory size,
// country, ...), the apploader at 0x2440 (a 0x20-byte header: build date, entry point, code size, trailer size),
// and the FST: 12-byte entries (flags: 0 file, 1 directory; a 24-bit offset into the name table that follows the
// entries; a file's disc offset and size, a directory's parent and the index one past its last entry). A disc is
// up to 1,459,978,240 bytes (712,880 sectors of 2048): only the headers and the FST are read when it is opened,
// files when asked for. Malformed input is a kiln::Error naming the image and the offset of the field or entry.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/base/input_limits.h"

namespace kiln::gamecube {

namespace disc_layout {
constexpr uint64_t max_disc_size = 1459978240;
constexpr uint32_t magic = 0xc2339f3d, magic_at = 0x1c;
constexpr uint32_t wii_magic = 0x5d1c9ea3, wii_magic_at = 0x18;
constexpr uint32_t boot_size = 0x440, bi2_at = 0x440, bi2_size = 0x2000;
constexpr uint32_t game_name_at = 0x20, game_name_size = 0x3e0;
constexpr uint32_t debug_monitor_offset_at = 0x400, debug_monitor_address_at = 0x404;
constexpr uint32_t dol_offset_at = 0x420, fst_offset_at = 0x424, fst_size_at = 0x428, fst_max_size_at = 0x42c;
constexpr uint32_t apploader_at = 0x2440, apploader_header_size = 0x20, apploader_date_size = 10;
constexpr uint32_t fst_entry_size = 12;
/// The apploader copies the FST into MEM1, so it is never larger than MEM1.
constexpr uint32_t max_fst_size = 24u << 20;
} // namespace disc_layout

/// Random access to the bytes of an image; reads outside it throw kiln::Error naming it and the offset.
class DiscSource {
public:
  virtual ~DiscSource() = default;
  virtual const std::string& name() const = 0;
  virtual uint64_t size() const = 0;
  virtual std::vector<uint8_t> read(uint64_t offset, uint64_t count) const = 0;
};

/// An image file, read on demand.
std::unique_ptr<DiscSource> open_disc_file(const std::filesystem::path& path);
/// Bytes in memory (tests, fuzzing); `bytes` must outlive the source.
std::unique_ptr<DiscSource> disc_in_memory(std::span<const uint8_t> bytes, std::string name);

struct DiscHeader {
  std::string game_code;  ///< 4 characters: console, game, region ("GKLE")
  std::string maker_code; ///< 2 characters ("01")
  uint8_t disc_number = 0, version = 0, audio_streaming = 0, stream_buffer_size = 0;
  std::string game_name;
  uint32_t debug_monitor_offset = 0, debug_monitor_address = 0;
  uint32_t dol_offset = 0, fst_offset = 0, fst_size = 0, fst_max_size = 0;
  std::string game_id() const { return game_code + maker_code; }
};

struct DiscInfo { ///< bi2.bin
  uint32_t debug_monitor_size = 0, simulated_memory_size = 0, argument_offset = 0, debug_flag = 0;
  uint32_t track_location = 0, track_size = 0, country_code = 0;
};

struct ApploaderHeader {
  std::string date; ///< "2001/10/05"
  uint32_t entry = 0, size = 0, trailer_size = 0;
};

struct DiscFile {
  std::string path;          ///< from the root, '/'-separated, no leading '/': "rels/a.rel"
  bool is_directory = false;
  uint32_t offset = 0, size = 0; ///< files: where on the disc
  uint32_t index = 0;            ///< its FST entry
  uint64_t entry_offset = 0;     ///< where that entry is on the disc
};

class GameCubeDisc {
public:
  /// Reads and checks boot.bin, bi2.bin, the apploader header and the FST.
  explicit GameCubeDisc(std::unique_ptr<DiscSource> source);

  const std::string& name() const { return source_->name(); }
  uint64_t size() const { return source_->size(); }
  const DiscHeader& header() const { return header_; }
  const DiscInfo& info() const { return info_; }
  const ApploaderHeader& apploader() const { return apploader_; }
  /// Every FST entry but the root, in FST order (a directory before its contents).
  const std::vector<DiscFile>& files() const { return files_; }
  /// The entry at `path` ('/'-separated, case-insensitive as DVDOpen compares), or nullptr.
  const DiscFile* find(std::string_view path) const;
  /// Every file whose name ends in ".rel" (any case): the game's relocatable modules.
  std::vector<const DiscFile*> rel_files() const;
  /// A file's bytes; refuses one larger than `kind` allows before reading.
  std::vector<uint8_t> read(const DiscFile& file, const InputKind& kind = input::executable) const;
  /// The boot DOL boot.bin points at (its size from its own header).
  std::vector<uint8_t> read_boot_dol() const;
  /// What opened but a porter should know (a trailing FST max size, an apploader entry outside MEM1).
  const std::vector<std::string>& notes() const { return notes_; }

private:
  void read_fst();

  std::unique_ptr<DiscSource> source_;
  DiscHeader header_;
  DiscInfo info_;
  ApploaderHeader apploader_;
  std::vector<DiscFile> files_;
  std::vector<std::string> notes_;
};

/// True when `bytes` (the image's first 0x20 bytes or more) carry the GameCube disc magic word.
bool is_gamecube_disc(std::span<const uint8_t> bytes);

} // namespace kiln::gamecube
