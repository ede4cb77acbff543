#include "runtime/platform/switch/services/fs/storage.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>

#include "runtime/platform/switch/services/fs/fs_result.h"

namespace kiln::hos::fs {

namespace {

class ImageStorage final : public Storage {
public:
  ImageStorage(int fd, uint64_t size) : fd_(fd), size_(size) {}
  ~ImageStorage() override { ::close(fd_); }
  uint64_t size() const override { return size_; }
  Result read(uint64_t offset, uint8_t* out, uint64_t size) const override {
    if (offset > size_ || size > size_ - offset) return fs_result::out_of_range;
    for (uint64_t done = 0; done < size;) {
      const ssize_t n = ::pread(fd_, out + done, size - done, static_cast<off_t>(offset + done));
      if (n <= 0) return fs_result::out_of_range; // the image shrank under us
      done += static_cast<uint64_t>(n);
    }
    return success;
  }

private:
  int fd_;
  uint64_t size_;
};

constexpr uint32_t no_entry = 0xffffffff;
constexpr uint64_t header_size = 0x50, file_data_start = 0x200;

struct FileNode {
  std::string name, host_path;
  uint64_t size = 0;
  uint32_t parent = 0, offset = 0;
  uint64_t data_offset = 0; ///< relative to the file data start
};
struct DirectoryNode {
  std::string name;
  uint32_t parent = 0, offset = 0;
  std::vector<size_t> directories, files; ///< indices, in name order
};

/// The image: metadata bytes in memory, file data read from the host files.
class FolderRomFs final : public Storage {
public:
  std::vector<uint8_t> head;   ///< header (0x50) padded to file_data_start
  std::vector<uint8_t> tables; ///< hash tables and metadata, after the file data
  uint64_t tables_at = 0;
  std::vector<FileNode> files;

  uint64_t size() const override { return tables_at + tables.size(); }
  Result read(uint64_t offset, uint8_t* out, uint64_t size) const override {
    if (offset > this->size() || size > this->size() - offset) return fs_result::out_of_range;
    std::memset(out, 0, size); // alignment padding between files reads as zero
    const uint64_t end = offset + size;
    copy_from(head, 0, offset, end, out);
    copy_from(tables, tables_at, offset, end, out);
    for (const FileNode& f : files) {
      const uint64_t start = file_data_start + f.data_offset, stop = start + f.size;
      const uint64_t from = std::max(start, offset), to = std::min(stop, end);
      if (from >= to) continue;
      const int fd = ::open(f.host_path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) return fs_result::out_of_range;
      for (uint64_t at = from; at < to;) {
        const ssize_t n = ::pread(fd, out + (at - offset), to - at, static_cast<off_t>(at - start));
        if (n <= 0) break; // a file that shrank since the image was made reads as zeros past its end
        at += static_cast<uint64_t>(n);
      }
      ::close(fd);
    }
    return success;
  }

private:
  static void copy_from(const std::vector<uint8_t>& bytes, uint64_t base, uint64_t offset, uint64_t end, uint8_t* out) {
    const uint64_t from = std::max(base, offset), to = std::min(base + bytes.size(), end);
    if (from < to) std::memcpy(out + (from - offset), bytes.data() + (from - base), to - from);
  }
};

template <typename T>
void put(std::vector<uint8_t>& bytes, size_t at, T value) {
  std::memcpy(bytes.data() + at, &value, sizeof(T));
}

uint32_t entry_size(size_t fixed, const std::string& name) { return static_cast<uint32_t>(fixed + ((name.size() + 3) & ~size_t{3})); }

bool scan(const std::filesystem::path& folder, size_t index, std::vector<DirectoryNode>& directories, std::vector<FileNode>& files,
          std::string* error) {
  std::error_code code;
  std::vector<std::filesystem::directory_entry> entries;
  for (const auto& entry : std::filesystem::directory_iterator(folder, code)) entries.push_back(entry);
  if (code) {
    *error = fmt::format("{}: cannot read the RomFS folder: {}", folder.string(), code.message());
    return false;
  }
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });
  for (const auto& entry : entries) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory(code)) {
      const size_t child = directories.size();
      directories.push_back({name, static_cast<uint32_t>(index), 0, {}, {}});
      directories[index].directories.push_back(child);
      if (!scan(entry.path(), child, directories, files, error)) return false;
    } else if (entry.is_regular_file(code)) {
      directories[index].files.push_back(files.size());
      files.push_back({name, entry.path().string(), entry.file_size(code), static_cast<uint32_t>(index), 0, 0});
    }
  }
  return true;
}

} // namespace

uint32_t romfs_name_hash(uint32_t parent, const std::string& name) {
  uint32_t hash = parent ^ 123456789u;
  for (const char c : name) {
    hash = (hash >> 5) | (hash << 27);
    hash ^= static_cast<uint8_t>(c);
  }
  return hash;
}

uint32_t romfs_bucket_count(uint32_t entries) {
  if (entries < 3) return 3;
  if (entries < 19) return entries | 1;
  uint32_t count = entries;
  const auto divisible = [](uint32_t n) {
    for (const uint32_t p : {2u, 3u, 5u, 7u, 11u, 13u, 17u})
      if (n % p == 0) return true;
    return false;
  };
  while (divisible(count)) ++count;
  return count;
}

std::shared_ptr<Storage> open_image_storage(const std::string& path, std::string* error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    *error = fmt::format("{}: cannot open the RomFS image: {}", path, std::strerror(errno));
    if (fd >= 0) ::close(fd);
    return nullptr;
  }
  return std::make_shared<ImageStorage>(fd, static_cast<uint64_t>(st.st_size));
}

std::shared_ptr<Storage> build_romfs_from_folder(const std::string& folder, std::string* error) {
  std::vector<DirectoryNode> directories{{"", 0, 0, {}, {}}};
  std::vector<FileNode> files;
  if (!scan(folder, 0, directories, files, error)) return nullptr;

  // Metadata offsets: directories and files in the order scanned (the root first).
  uint32_t directory_meta_size = 0, file_meta_size = 0;
  for (DirectoryNode& d : directories) {
    d.offset = directory_meta_size;
    directory_meta_size += entry_size(0x18, d.name);
  }
  uint64_t data_size = 0;
  for (FileNode& f : files) {
    f.offset = file_meta_size;
    file_meta_size += entry_size(0x20, f.name);
    f.data_offset = data_size;
    data_size = (data_size + f.size + 0xf) & ~uint64_t{0xf};
  }
  const uint32_t directory_buckets = romfs_bucket_count(static_cast<uint32_t>(directories.size()));
  const uint32_t file_buckets = romfs_bucket_count(static_cast<uint32_t>(files.size()));

  auto image = std::make_shared<FolderRomFs>();
  image->tables_at = (file_data_start + data_size + 3) & ~uint64_t{3};
  const uint64_t directory_hash_at = 0, directory_meta_at = directory_hash_at + 4 * directory_buckets;
  const uint64_t file_hash_at = directory_meta_at + directory_meta_size, file_meta_at = file_hash_at + 4 * file_buckets;
  image->tables.assign(file_meta_at + file_meta_size, 0);
  std::vector<uint8_t>& t = image->tables;
  for (uint32_t b = 0; b < directory_buckets; ++b) put<uint32_t>(t, directory_hash_at + 4 * b, no_entry);
  for (uint32_t b = 0; b < file_buckets; ++b) put<uint32_t>(t, file_hash_at + 4 * b, no_entry);

  // Puts an entry at the head of its name's hash chain; the entry it displaced (the chain's next).
  const auto chain = [&](uint64_t hash_at, uint32_t buckets, uint32_t parent, const std::string& name, uint32_t offset) {
    const uint64_t slot = hash_at + 4 * (romfs_name_hash(parent, name) % buckets);
    uint32_t previous = 0;
    std::memcpy(&previous, t.data() + slot, 4);
    put<uint32_t>(t, slot, offset);
    return previous;
  };
  // The metadata offset of the entry after `index` among its parent's `siblings`.
  const auto next_sibling = [](const std::vector<size_t>& siblings, size_t index, const auto& nodes) {
    const auto me = std::find(siblings.begin(), siblings.end(), index);
    return me != siblings.end() && me + 1 != siblings.end() ? nodes[*(me + 1)].offset : no_entry;
  };
  for (size_t i = 0; i < directories.size(); ++i) {
    const DirectoryNode& d = directories[i];
    const uint32_t parent = directories[d.parent].offset;
    const uint32_t sibling = i == 0 ? no_entry : next_sibling(directories[d.parent].directories, i, directories);
    const uint64_t at = directory_meta_at + d.offset;
    put<uint32_t>(t, at + 0x00, parent);
    put<uint32_t>(t, at + 0x04, sibling);
    put<uint32_t>(t, at + 0x08, d.directories.empty() ? no_entry : directories[d.directories.front()].offset);
    put<uint32_t>(t, at + 0x0c, d.files.empty() ? no_entry : files[d.files.front()].offset);
    put<uint32_t>(t, at + 0x10, chain(directory_hash_at, directory_buckets, parent, d.name, d.offset));
    put<uint32_t>(t, at + 0x14, static_cast<uint32_t>(d.name.size()));
    std::memcpy(t.data() + at + 0x18, d.name.data(), d.name.size());
  }
  for (size_t i = 0; i < files.size(); ++i) {
    const FileNode& f = files[i];
    const uint32_t parent = directories[f.parent].offset;
    const uint64_t at = file_meta_at + f.offset;
    put<uint32_t>(t, at + 0x00, parent);
    put<uint32_t>(t, at + 0x04, next_sibling(directories[f.parent].files, i, files));
    put<uint64_t>(t, at + 0x08, f.data_offset);
    put<uint64_t>(t, at + 0x10, f.size);
    put<uint32_t>(t, at + 0x18, chain(file_hash_at, file_buckets, parent, f.name, f.offset));
    put<uint32_t>(t, at + 0x1c, static_cast<uint32_t>(f.name.size()));
    std::memcpy(t.data() + at + 0x20, f.name.data(), f.name.size());
  }

  image->head.assign(file_data_start, 0);
  const uint64_t header[10] = {header_size,
                               image->tables_at + directory_hash_at, 4ull * directory_buckets,
                               image->tables_at + directory_meta_at, directory_meta_size,
                               image->tables_at + file_hash_at, 4ull * file_buckets,
                               image->tables_at + file_meta_at, file_meta_size,
                               file_data_start};
  std::memcpy(image->head.data(), header, sizeof header);
  image->files = std::move(files);
  return image;
}

} // namespace kiln::hos::fs
