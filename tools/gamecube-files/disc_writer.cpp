#include "tools/gamecube-files/disc_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "recompiler/loaders/dol/disc_image.h"
#include "recompiler/loaders/dol/dol.h"
#include "recompiler/loaders/dol/memory_map.h"
#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"

namespace kiln::gamecube::writer {
namespace {

using namespace disc_layout;

constexpr uint32_t stub_apploader_entry = 0x81200000, blr = 0x4e800020, header_alignment = 0x100;

struct Entry {
  std::filesystem::path source; ///< files
  std::string name;
  bool is_directory = false;
  uint32_t parent = 0, end = 0; ///< directories: parent index, one past the last entry
  uint32_t offset = 0, size = 0;
};

void add_folder(const std::filesystem::path& folder, uint32_t parent, std::vector<Entry>& entries) {
  std::vector<std::filesystem::directory_entry> children(std::filesystem::directory_iterator(folder), {});
  std::sort(children.begin(), children.end(), [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });
  for (const auto& child : children) {
    const std::string name = child.path().filename().string();
    if (child.is_directory()) {
      const uint32_t index = static_cast<uint32_t>(entries.size());
      entries.push_back({.name = name, .is_directory = true, .parent = parent});
      add_folder(child.path(), index, entries);
      entries[index].end = static_cast<uint32_t>(entries.size());
    } else if (child.is_regular_file()) {
      const uint64_t size = child.file_size();
      if (size > max_disc_size) refuse_oversized(child.path(), size, {"a file on a disc", max_disc_size});
      entries.push_back({.source = child.path(), .name = name, .offset = 0, .size = static_cast<uint32_t>(size)});
    } else {
      throw Error(in_file(child.path().string()), "neither a file nor a folder: a disc holds only those");
    }
  }
}

std::vector<uint8_t> stub_apploader(const std::string& date) {
  std::vector<uint8_t> a(apploader_header_size + 4, 0);
  std::copy_n(date.begin(), std::min<size_t>(date.size(), apploader_date_size), a.begin());
  store<uint32_t>(a.data() + 0x10, stub_apploader_entry, Endian::big);
  store<uint32_t>(a.data() + 0x14, 4, Endian::big);
  store<uint32_t>(a.data() + apploader_header_size, blr, Endian::big);
  return a;
}

} // namespace

void write_disc(const DiscInput& input, const std::filesystem::path& output) {
  if (input.game_id.size() != 6) throw Error(fmt::format("game ID '{}' is not 6 characters (4 of game code, 2 of maker)", input.game_id));
  if (input.game_name.size() >= game_name_size) throw Error(fmt::format("the game name is longer than {} bytes", game_name_size - 1));
  if (input.file_alignment < 4 || !is_power_of_two(input.file_alignment))
    throw Error(fmt::format("file alignment {:#x} is not a power of two of at least 4", input.file_alignment));
  (void)parse_dol(input.dol, "the boot DOL");
  const std::vector<uint8_t> apploader = input.apploader.empty() ? stub_apploader(input.apploader_date) : input.apploader;
  if (apploader.size() < apploader_header_size ||
      apploader.size() != uint64_t{apploader_header_size} + load<uint32_t>(apploader.data() + 0x14, Endian::big) +
                              load<uint32_t>(apploader.data() + 0x18, Endian::big))
    throw Error("the apploader's size is not its header plus the code and trailer sizes the header gives");

  std::vector<Entry> entries{{.name = "", .is_directory = true}};
  if (!input.root.empty()) add_folder(input.root, 0, entries);
  entries[0].end = static_cast<uint32_t>(entries.size());
  std::vector<uint8_t> names;
  std::vector<uint32_t> name_offsets;
  for (const Entry& e : entries) {
    name_offsets.push_back(static_cast<uint32_t>(names.size()));
    names.insert(names.end(), e.name.begin(), e.name.end());
    names.push_back(0);
  }
  if (names.size() > 0xffffff) throw Error("the FST's name table is larger than its 24-bit offsets reach");
  const uint64_t fst_size = entries.size() * fst_entry_size + names.size();

  const uint64_t dol_offset = align_up(apploader_at + apploader.size(), header_alignment);
  const uint64_t fst_offset = align_up(dol_offset + input.dol.size(), header_alignment);
  uint64_t next = fst_offset + fst_size;
  for (Entry& e : entries) {
    if (e.is_directory) continue;
    next = align_up(next, input.file_alignment);
    e.offset = static_cast<uint32_t>(next);
    next += e.size;
  }
  if (next > max_disc_size) throw Error(fmt::format("the image would be {} bytes, more than a disc holds ({})", next, max_disc_size));

  std::vector<uint8_t> head(apploader_at, 0);
  std::copy(input.game_id.begin(), input.game_id.end(), head.begin());
  head[6] = input.disc_number;
  head[7] = input.version;
  std::copy(input.game_name.begin(), input.game_name.end(), head.begin() + game_name_at);
  const auto put = [](std::vector<uint8_t>& v, size_t at, uint64_t value) { store<uint32_t>(v.data() + at, static_cast<uint32_t>(value), Endian::big); };
  put(head, magic_at, magic);
  put(head, dol_offset_at, dol_offset);
  put(head, fst_offset_at, fst_offset);
  put(head, fst_size_at, fst_size);
  put(head, fst_max_size_at, fst_size);
  put(head, bi2_at + 0x04, mem1_size);
  put(head, bi2_at + 0x18, input.country_code);

  std::vector<uint8_t> fst(entries.size() * fst_entry_size, 0);
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    put(fst, i * fst_entry_size, (e.is_directory ? 1u << 24 : 0u) | name_offsets[i]);
    put(fst, i * fst_entry_size + 4, e.is_directory ? e.parent : e.offset);
    put(fst, i * fst_entry_size + 8, e.is_directory ? e.end : e.size);
  }
  fst.insert(fst.end(), names.begin(), names.end());

  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(in_file(output.string()), with_errno("cannot create"));
  uint64_t written = 0;
  const auto write_at = [&](uint64_t offset, std::span<const uint8_t> bytes) {
    static const std::vector<uint8_t> zeros(64 * 1024, 0);
    while (written < offset) {
      const uint64_t n = std::min<uint64_t>(zeros.size(), offset - written);
      out.write(reinterpret_cast<const char*>(zeros.data()), static_cast<std::streamsize>(n));
      written += n;
    }
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    written += bytes.size();
  };
  write_at(0, head);
  write_at(apploader_at, apploader);
  write_at(dol_offset, input.dol);
  write_at(fst_offset, fst);
  for (const Entry& e : entries)
    if (!e.is_directory) write_at(e.offset, read_file(e.source, {"a file on a disc", max_disc_size}));
  out.close();
  if (!out) throw Error(in_file(output.string()), with_errno("cannot write"));
  const GameCubeDisc image(open_disc_file(output)); // what the reader would refuse is refused here
  (void)image.read_boot_dol();
}

} // namespace kiln::gamecube::writer
