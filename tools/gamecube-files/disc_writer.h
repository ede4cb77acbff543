#pragma once
// Writing GameCube disc images (the layout in recompiler/loaders/dol/disc_image.h): boot.bin naming the game and
// where the boot DOL and the FST are, bi2.bin, the apploader, the DOL, the FST of a folder's files, then the files.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kiln::gamecube::writer {

struct DiscInput {
  std::string game_id = "GKLE01";   ///< 4 characters of game code, 2 of maker code
  std::string game_name = "kiln";
  uint8_t disc_number = 0, version = 0;
  uint32_t country_code = 1;         ///< bi2.bin: 0 Japan, 1 America, 2 Europe
  std::vector<uint8_t> dol;          ///< the boot DOL
  /// The apploader as it sits on the disc from 0x2440 (header, code, trailer). Empty: a header-only apploader
  /// (the date below, entry 0x81200000, one `blr` of code) that satisfies readers but boots nothing.
  std::vector<uint8_t> apploader;
  std::string apploader_date = "2001/09/14";
  std::filesystem::path root;        ///< the folder whose files the FST lists (empty: none)
  uint32_t file_alignment = 0x8000;  ///< where each file starts (a power of two, at least 4)
};

/// Writes the image and reads it back; throws kiln::Error naming the input that cannot go on a disc (an ID that
/// is not 6 characters, a DOL the loader refuses, an apploader whose header does not match its size, a name table
/// or image that grows past its limit).
void write_disc(const DiscInput& input, const std::filesystem::path& output);

} // namespace kiln::gamecube::writer
