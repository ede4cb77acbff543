#pragma once
// A Horizon file system over a host folder: the SD card and each save data are one. Guest paths ("/a/b") are
// checked before the host sees them: they must start with '/', stay under 0x300 bytes, hold none of
// Horizon's forbidden characters, and neither '..' nor a symbolic link may lead out of the folder.
//
// Save data (Kind::save_data) is transactional as Horizon's is: a file opened for writing is a staged copy in
// a folder beside the save's (`<root>.staging`); Commit makes each staged copy durable (fsync) and renames it
// over the file, so a crash never leaves a half-written file; what is not committed when the file system
// closes is dropped, and staged copies a crashed run left are removed when the save is opened again.
// Directory operations (create, delete, rename) take effect at once.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/platform/switch/kernel/result.h"

namespace kiln::hos::fs {

constexpr size_t max_path = 0x301; ///< FS_MAX_PATH: the X buffer a path comes in, NUL included

enum class EntryType : uint8_t { directory = 0, file = 1 };

/// OpenFile's mode bits and OpenDirectory's filter bits (switchbrew "Filesystem services").
namespace open_mode {
constexpr uint32_t read = 1, write = 2, append = 4;
}
namespace directory_filter {
constexpr uint32_t directories = 1, files = 2, no_file_size = 0x80000000u;
}

struct DirectoryEntry {
  std::string name;
  EntryType type;
  int64_t size;
};

/// GetFileTimeStampRaw: POSIX seconds. Linux keeps no creation time in stat, so `created` is the status
/// change time.
struct FileTimes {
  uint64_t created = 0, modified = 0, accessed = 0;
};

class HostFileSystem;

class HostFile {
public:
  HostFile(int fd, uint32_t mode, std::shared_ptr<HostFileSystem> owner) : fd_(fd), mode_(mode), owner_(std::move(owner)) {}
  ~HostFile();
  HostFile(const HostFile&) = delete;
  HostFile& operator=(const HostFile&) = delete;

  Result read(int64_t offset, uint8_t* out, uint64_t size, uint64_t* done);
  /// Past the end only with open_mode::append (the file grows); `flush` makes it durable at once.
  Result write(int64_t offset, const uint8_t* data, uint64_t size, bool flush);
  Result flush();
  Result set_size(int64_t size);
  Result get_size(int64_t* size);
  uint32_t mode() const { return mode_; }

private:
  int fd_;
  uint32_t mode_;
  std::shared_ptr<HostFileSystem> owner_; ///< keeps the save's staging alive while the file is open
};

class HostFileSystem : public std::enable_shared_from_this<HostFileSystem> {
public:
  enum class Kind { plain, save_data };
  /// `root` must be an existing folder.
  HostFileSystem(std::string root, Kind kind);
  ~HostFileSystem();

  /// The host path a guest path names, or the fs result that refuses it.
  Result resolve(std::string_view guest_path, std::string* host_path) const;

  Result create_file(std::string_view path, int64_t size);
  Result delete_file(std::string_view path);
  Result create_directory(std::string_view path);
  Result delete_directory(std::string_view path, bool recursive);
  Result clean_directory(std::string_view path); ///< deletes what the directory holds, keeps it
  Result rename(std::string_view from, std::string_view to, bool directory);
  Result entry_type(std::string_view path, EntryType* type);
  Result open_file(std::string_view path, uint32_t mode, std::shared_ptr<HostFile>* file);
  Result list_directory(std::string_view path, uint32_t filter, std::vector<DirectoryEntry>* entries);
  /// Save data: publishes every staged file (TargetLocked while one is still open for writing). Plain: a no-op.
  Result commit();
  Result free_space(uint64_t* bytes);
  Result total_space(uint64_t* bytes);
  Result timestamps(std::string_view path, FileTimes* times);

  const std::string& root() const { return root_; }

private:
  friend class HostFile;
  /// resolve(), and the path must exist as a directory (or a file): else PathNotFound.
  Result resolve_existing(std::string_view guest_path, bool directory, std::string* host_path) const;
  std::string staged_path_for(const std::string& host_path); ///< under lock_
  void forget_staged(const std::string& host_prefix);       ///< drops staged copies at or under it; under lock_

  std::string root_, real_root_;
  Kind kind_;
  std::string staging_;
  std::mutex lock_;
  std::map<std::string, std::string> staged_; ///< save data: host path -> its staged copy
  uint64_t next_stage_ = 0;
  int open_writers_ = 0;
};

/// Maps a host errno to the fs result a guest expects (unknown ones: PermissionDenied, logged with `what`).
Result from_errno(int error, const std::string& what);

} // namespace kiln::hos::fs
