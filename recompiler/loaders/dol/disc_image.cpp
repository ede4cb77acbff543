#include "recompiler/loaders/dol/disc_image.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>

#include "recompiler/loaders/dol/dol.h"
#include "recompiler/loaders/dol/memory_map.h"
#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"

namespace kiln::gamecube {
namespace {

using namespace disc_layout;

[[noreturn]] void fail_at(const std::string& name, uint64_t offset, const std::string& message) {
  throw Error(at_offset(name, offset), message);
}

void require_inside(const std::string& name, uint64_t size, uint64_t offset, uint64_t count, const char* what) {
  if (offset > size || count > size - offset)
    fail_at(name, offset, fmt::format("{} [{:#x}, {:#x}) runs past the end of the image ({:#x} bytes)", what, offset, offset + count, size));
}

class FileSource final : public DiscSource {
public:
  explicit FileSource(const std::filesystem::path& path) : name_(path.string()), stream_(path, std::ios::binary) {
    if (!stream_) throw Error(in_file(name_), with_errno("cannot open the disc image"));
    std::error_code ec;
    size_ = std::filesystem::file_size(path, ec);
    if (ec) throw Error(in_file(name_), "cannot read the disc image's size: " + ec.message());
  }
  const std::string& name() const override { return name_; }
  uint64_t size() const override { return size_; }
  std::vector<uint8_t> read(uint64_t offset, uint64_t count) const override {
    require_inside(name_, size_, offset, count, "a read");
    std::vector<uint8_t> out(count);
    stream_.clear();
    stream_.seekg(static_cast<std::streamoff>(offset));
    stream_.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(count));
    if (!stream_) throw Error(at_offset(name_, offset), with_errno(fmt::format("cannot read {:#x} bytes", count)));
    return out;
  }

private:
  std::string name_;
  mutable std::ifstream stream_;
  uint64_t size_ = 0;
};

class MemorySource final : public DiscSource {
public:
  MemorySource(std::span<const uint8_t> bytes, std::string name) : bytes_(bytes), name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  uint64_t size() const override { return bytes_.size(); }
  std::vector<uint8_t> read(uint64_t offset, uint64_t count) const override {
    require_inside(name_, bytes_.size(), offset, count, "a read");
    return {bytes_.begin() + static_cast<std::ptrdiff_t>(offset), bytes_.begin() + static_cast<std::ptrdiff_t>(offset + count)};
  }

private:
  std::span<const uint8_t> bytes_;
  std::string name_;
};

/// The text of a fixed-size, NUL-padded field.
std::string field_text(const ByteReader& r, size_t at, size_t size) {
  const auto bytes = r.span_at(at, size);
  const auto end = std::find(bytes.begin(), bytes.end(), uint8_t{0});
  return std::string(bytes.begin(), end);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

} // namespace

std::unique_ptr<DiscSource> open_disc_file(const std::filesystem::path& path) { return std::make_unique<FileSource>(path); }

std::unique_ptr<DiscSource> disc_in_memory(std::span<const uint8_t> bytes, std::string name) {
  return std::make_unique<MemorySource>(bytes, std::move(name));
}

bool is_gamecube_disc(std::span<const uint8_t> bytes) {
  return bytes.size() >= magic_at + 4 && load<uint32_t>(bytes.data() + magic_at, Endian::big) == magic;
}

GameCubeDisc::GameCubeDisc(std::unique_ptr<DiscSource> source) : source_(std::move(source)) {
  const std::string& image = source_->name();
  const uint64_t disc_size = source_->size();
  if (disc_size > max_disc_size)
    fail_at(image, 0, fmt::format("the image has {} bytes, more than a GameCube disc holds ({})", disc_size, max_disc_size));
  if (disc_size < apploader_at + apploader_header_size)
    fail_at(image, 0, fmt::format("the image has {:#x} bytes, fewer than the disc header, bi2.bin and the apploader header ({:#x})",
                                  disc_size, apploader_at + apploader_header_size));
  const std::vector<uint8_t> headers = source_->read(0, apploader_at + apploader_header_size);
  const ByteReader r(headers, image, Endian::big);
  if (r.peek_at<uint32_t>(magic_at) != magic) {
    if (r.peek_at<uint32_t>(wii_magic_at) == wii_magic) r.fail_at(wii_magic_at, "this is a Wii disc image; kiln reads GameCube discs");
    r.fail_at(magic_at, fmt::format("not a GameCube disc image: the word at 0x1c is {:#010x}, not the disc magic {:#010x}",
                                    r.peek_at<uint32_t>(magic_at), magic));
  }
  header_.game_code = field_text(r, 0, 4);
  header_.maker_code = field_text(r, 4, 2);
  header_.disc_number = r.peek_at<uint8_t>(6);
  header_.version = r.peek_at<uint8_t>(7);
  header_.audio_streaming = r.peek_at<uint8_t>(8);
  header_.stream_buffer_size = r.peek_at<uint8_t>(9);
  header_.game_name = field_text(r, game_name_at, game_name_size);
  header_.debug_monitor_offset = r.peek_at<uint32_t>(debug_monitor_offset_at);
  header_.debug_monitor_address = r.peek_at<uint32_t>(debug_monitor_address_at);
  header_.dol_offset = r.peek_at<uint32_t>(dol_offset_at);
  header_.fst_offset = r.peek_at<uint32_t>(fst_offset_at);
  header_.fst_size = r.peek_at<uint32_t>(fst_size_at);
  header_.fst_max_size = r.peek_at<uint32_t>(fst_max_size_at);

  info_.debug_monitor_size = r.peek_at<uint32_t>(bi2_at + 0x00);
  info_.simulated_memory_size = r.peek_at<uint32_t>(bi2_at + 0x04);
  info_.argument_offset = r.peek_at<uint32_t>(bi2_at + 0x08);
  info_.debug_flag = r.peek_at<uint32_t>(bi2_at + 0x0c);
  info_.track_location = r.peek_at<uint32_t>(bi2_at + 0x10);
  info_.track_size = r.peek_at<uint32_t>(bi2_at + 0x14);
  info_.country_code = r.peek_at<uint32_t>(bi2_at + 0x18);

  apploader_.date = field_text(r, apploader_at, apploader_date_size);
  apploader_.entry = r.peek_at<uint32_t>(apploader_at + 0x10);
  apploader_.size = r.peek_at<uint32_t>(apploader_at + 0x14);
  apploader_.trailer_size = r.peek_at<uint32_t>(apploader_at + 0x18);
  if (uint64_t{apploader_at} + apploader_header_size + apploader_.size + apploader_.trailer_size > disc_size)
    r.fail_at(apploader_at + 0x14, fmt::format("the apploader ({:#x} bytes of code, {:#x} of trailer after its header at {:#x}) runs past "
                                               "the end of the image ({:#x} bytes)", apploader_.size, apploader_.trailer_size,
                                               apploader_at, disc_size));
  if (!mem1_offset(apploader_.entry, 4))
    notes_.push_back(fmt::format("{}: the apploader's entry point {:#x} is outside MEM1", image, apploader_.entry));

  if (uint64_t{header_.dol_offset} + dol_layout::header_size > disc_size || header_.dol_offset < apploader_at)
    r.fail_at(dol_offset_at, fmt::format("the boot DOL offset {:#x} is not inside the image past the apploader (image: {:#x} bytes)",
                                         header_.dol_offset, disc_size));
  if (header_.fst_max_size < header_.fst_size)
    notes_.push_back(fmt::format("{}: FST max size {:#x} is below the FST size {:#x}", image, header_.fst_max_size, header_.fst_size));
  read_fst();
}

void GameCubeDisc::read_fst() {
  const std::string& image = source_->name();
  if (header_.fst_size < fst_entry_size || header_.fst_size > max_fst_size)
    fail_at(image, fst_size_at, fmt::format("FST size {:#x} is not between one entry ({} bytes) and MEM1's {:#x}", header_.fst_size,
                                            fst_entry_size, max_fst_size));
  require_inside(image, source_->size(), header_.fst_offset, header_.fst_size, "the FST");
  const std::vector<uint8_t> fst = source_->read(header_.fst_offset, header_.fst_size);
  const ByteReader r(fst, image, Endian::big, header_.fst_offset);
  const auto entry_at = [](uint32_t i) { return size_t{i} * fst_entry_size; };
  if (r.peek_at<uint8_t>(0) != 1) r.fail_at(0, "the FST's first entry (the root) is not a directory");
  const uint32_t count = r.peek_at<uint32_t>(8);
  if (count == 0 || uint64_t{count} * fst_entry_size > fst.size())
    r.fail_at(8, fmt::format("the root says the FST has {} entries, which do not fit its {:#x} bytes", count, fst.size()));
  const ByteReader names = r.sub_reader(entry_at(count), fst.size() - entry_at(count));

  struct Open {
    uint32_t index; ///< the directory's entry
    uint32_t end;   ///< one past its last entry
    std::string path;
  };
  std::vector<Open> open{{0, count, ""}};
  for (uint32_t i = 1; i < count; ++i) {
    while (i >= open.back().end) open.pop_back();
    const size_t at = entry_at(i);
    const uint32_t word0 = r.peek_at<uint32_t>(at);
    const uint8_t flags = static_cast<uint8_t>(word0 >> 24);
    const uint32_t name_offset = word0 & 0xffffffu;
    if (flags > 1) r.fail_at(at, fmt::format("FST entry {} has flags {:#x} (0 is a file, 1 a directory)", i, flags));
    if (name_offset >= names.size())
      r.fail_at(at + 1, fmt::format("FST entry {} names offset {:#x}, past the name table ({:#x} bytes)", i, name_offset, names.size()));
    ByteReader name_reader = names;
    name_reader.seek(name_offset);
    const std::string_view name = name_reader.c_string();
    if (name.empty() || name.find('/') != std::string_view::npos || name == "." || name == "..")
      r.fail_at(at + 1, fmt::format("FST entry {} has the name '{}', which is not a file name", i, name));
    DiscFile file{.path = open.back().path + std::string(name), .is_directory = flags == 1, .index = i,
                  .entry_offset = header_.fst_offset + at};
    const uint32_t first = r.peek_at<uint32_t>(at + 4), second = r.peek_at<uint32_t>(at + 8);
    if (file.is_directory) {
      // `first` is the parent's index, `second` one past this directory's last entry, inside the parent's range.
      if (first != open.back().index || second <= i || second > open.back().end)
        r.fail_at(at + 4, fmt::format("FST directory entry {} '{}' has parent {} and end {}, but it lies in entry {}'s entries {}..{}", i,
                                      file.path, first, second, open.back().index, i, open.back().end));
      open.push_back({i, second, file.path + "/"});
    } else {
      file.offset = first;
      file.size = second;
      if (uint64_t{first} + second > source_->size())
        r.fail_at(at + 4, fmt::format("FST file entry {} '{}' [{:#x}, {:#x}) runs past the end of the image ({:#x} bytes)", i,
                                      file.path, first, uint64_t{first} + second, source_->size()));
    }
    files_.push_back(std::move(file));
  }
}

const DiscFile* GameCubeDisc::find(std::string_view path) const {
  while (path.starts_with('/')) path.remove_prefix(1);
  const std::string wanted = lower(path);
  for (const DiscFile& f : files_)
    if (lower(f.path) == wanted) return &f;
  return nullptr;
}

std::vector<const DiscFile*> GameCubeDisc::rel_files() const {
  std::vector<const DiscFile*> out;
  for (const DiscFile& f : files_)
    if (!f.is_directory && lower(f.path).ends_with(".rel")) out.push_back(&f);
  return out;
}

std::vector<uint8_t> GameCubeDisc::read(const DiscFile& file, const InputKind& kind) const {
  if (file.is_directory) fail_at(name(), file.entry_offset, fmt::format("'{}' is a directory", file.path));
  if (file.size > kind.max_bytes) refuse_oversized(name() + ":" + file.path, file.size, kind);
  return source_->read(file.offset, file.size);
}

std::vector<uint8_t> GameCubeDisc::read_boot_dol() const {
  const std::vector<uint8_t> header = source_->read(header_.dol_offset, dol_layout::header_size);
  const uint32_t size = dol_file_size(header, name() + " (boot DOL at " + fmt::format("{:#x}", header_.dol_offset) + ")");
  require_inside(name(), source_->size(), header_.dol_offset, size, "the boot DOL");
  if (size > input::executable.max_bytes) refuse_oversized(name() + " (boot DOL)", size, input::executable);
  return source_->read(header_.dol_offset, size);
}

} // namespace kiln::gamecube
