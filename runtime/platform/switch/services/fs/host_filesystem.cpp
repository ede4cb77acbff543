#include "runtime/platform/switch/services/fs/host_filesystem.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "runtime/base/log.h"
#include "runtime/platform/switch/services/fs/fs_result.h"

namespace kiln::hos::fs {

namespace {

constexpr size_t max_path_length = max_path - 1;

std::string real_path(const std::string& path) {
  char buffer[PATH_MAX];
  return ::realpath(path.c_str(), buffer) ? std::string(buffer) : std::string();
}

bool inside(const std::string& path, const std::string& root) {
  return path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/');
}

Result sync_directory_of(const std::string& path) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  const int fd = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return from_errno(errno, parent);
  const int r = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  return r == 0 ? success : from_errno(error, parent);
}

Result copy_file(const std::string& from, const std::string& to) {
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return from_errno(errno, from);
  const int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) {
    const int error = errno;
    ::close(in);
    return from_errno(error, to);
  }
  char buffer[1 << 16];
  Result result = success;
  for (;;) {
    const ssize_t n = ::read(in, buffer, sizeof buffer);
    if (n < 0) result = from_errno(errno, from);
    if (n <= 0) break;
    if (::write(out, buffer, static_cast<size_t>(n)) != n) {
      result = from_errno(errno, to);
      break;
    }
  }
  ::close(in);
  ::close(out);
  return result;
}

} // namespace

Result from_errno(int error, const std::string& what) {
  switch (error) {
  case ENOENT:
  case ENOTDIR: return fs_result::path_not_found;
  case EEXIST: return fs_result::path_already_exists;
  case ENOTEMPTY: return fs_result::directory_not_empty;
  case ENOSPC:
  case EDQUOT: return fs_result::usable_space_not_enough;
  case ENAMETOOLONG: return fs_result::too_long_path;
  case EACCES:
  case EPERM:
  case EROFS: return fs_result::permission_denied;
  default:
    log::error("fsp-srv: host error on {}: {}; replying PermissionDenied", what, std::strerror(error));
    return fs_result::permission_denied;
  }
}

// --- files ---

HostFile::~HostFile() {
  ::close(fd_);
  if (mode_ & open_mode::write) {
    std::lock_guard lock(owner_->lock_);
    --owner_->open_writers_;
  }
}

Result HostFile::read(int64_t offset, uint8_t* out, uint64_t size, uint64_t* done) {
  *done = 0;
  if (!(mode_ & open_mode::read)) return fs_result::read_not_permitted;
  if (offset < 0) return fs_result::invalid_offset;
  if (static_cast<int64_t>(size) < 0) return fs_result::invalid_size;
  while (*done < size) {
    const ssize_t n = ::pread(fd_, out + *done, size - *done, offset + static_cast<int64_t>(*done));
    if (n < 0) return from_errno(errno, "a file read");
    if (n == 0) break;
    *done += static_cast<uint64_t>(n);
  }
  return success;
}

Result HostFile::write(int64_t offset, const uint8_t* data, uint64_t size, bool flush_now) {
  if (!(mode_ & open_mode::write)) return fs_result::write_not_permitted;
  if (offset < 0) return fs_result::invalid_offset;
  if (static_cast<int64_t>(size) < 0) return fs_result::invalid_size;
  int64_t current = 0;
  if (const Result r = get_size(&current); r != success) return r;
  if (offset + static_cast<int64_t>(size) > current && !(mode_ & open_mode::append)) return fs_result::file_extension_without_append;
  for (uint64_t written = 0; written < size;) {
    const ssize_t n = ::pwrite(fd_, data + written, size - written, offset + static_cast<int64_t>(written));
    if (n < 0) return from_errno(errno, "a file write");
    written += static_cast<uint64_t>(n);
  }
  return flush_now ? flush() : success;
}

Result HostFile::flush() {
  if (!(mode_ & open_mode::write)) return success;
  return ::fsync(fd_) == 0 ? success : from_errno(errno, "a file flush");
}

Result HostFile::set_size(int64_t size) {
  if (!(mode_ & open_mode::write)) return fs_result::write_not_permitted;
  if (size < 0) return fs_result::invalid_size;
  return ::ftruncate(fd_, size) == 0 ? success : from_errno(errno, "a file resize");
}

Result HostFile::get_size(int64_t* size) {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) return from_errno(errno, "a file's size");
  *size = st.st_size;
  return success;
}

// --- the file system ---

HostFileSystem::HostFileSystem(std::string root, Kind kind) : root_(std::move(root)), kind_(kind) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
  real_root_ = real_path(root_);
  if (kind_ == Kind::save_data) {
    staging_ = root_ + ".staging";
    std::error_code ignored;
    std::filesystem::remove_all(staging_, ignored); // what a crashed run staged was never committed
    std::filesystem::create_directories(staging_, ignored);
  }
}

HostFileSystem::~HostFileSystem() {
  if (kind_ == Kind::save_data) {
    std::error_code ignored;
    std::filesystem::remove_all(staging_, ignored); // uncommitted changes are dropped, as on Horizon
  }
}

Result HostFileSystem::resolve(std::string_view guest, std::string* host) const {
  if (guest.empty() || guest[0] != '/') return fs_result::invalid_path_format;
  if (guest.size() > max_path_length) return fs_result::too_long_path;
  std::vector<std::string_view> parts;
  size_t at = 0;
  while (at < guest.size()) {
    const size_t end = std::min(guest.find('/', at), guest.size());
    const std::string_view part = guest.substr(at, end - at);
    at = end + 1;
    for (const char c : part)
      if (c == ':' || c == '*' || c == '?' || c == '<' || c == '>' || c == '|' || c == '\\') return fs_result::invalid_character;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (parts.empty()) return fs_result::directory_unobtainable;
      parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  std::string path = root_;
  for (const std::string_view part : parts) (path += '/') += part;
  // A symbolic link must not lead out of the root: the deepest existing ancestor must resolve inside it.
  for (std::string probe = path;; probe = std::filesystem::path(probe).parent_path().string()) {
    struct stat st {};
    if (::lstat(probe.c_str(), &st) == 0) {
      if (!inside(real_path(probe), real_root_)) return fs_result::directory_unobtainable;
      break;
    }
    if (probe.size() <= root_.size()) break;
  }
  *host = std::move(path);
  return success;
}

std::string HostFileSystem::staged_path_for(const std::string& host_path) {
  auto found = staged_.find(host_path);
  if (found != staged_.end()) return found->second;
  return staged_[host_path] = staging_ + "/" + std::to_string(next_stage_++);
}

void HostFileSystem::forget_staged(const std::string& prefix) {
  for (auto it = staged_.begin(); it != staged_.end();) {
    if (inside(it->first, prefix)) {
      ::unlink(it->second.c_str());
      it = staged_.erase(it);
    } else {
      ++it;
    }
  }
}

Result HostFileSystem::create_file(std::string_view path, int64_t size) {
  if (size < 0) return fs_result::invalid_size;
  std::string host;
  if (const Result r = resolve(path, &host); r != success) return r;
  struct stat st {};
  if (::lstat(host.c_str(), &st) == 0) return fs_result::path_already_exists;
  // Made complete beside its place and renamed in, so the file never exists half made.
  const std::string temporary = host + ".kiln-new";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return from_errno(errno, temporary);
  Result result = ::ftruncate(fd, size) == 0 ? success : from_errno(errno, host);
  if (result == success && kind_ == Kind::save_data && ::fsync(fd) != 0) result = from_errno(errno, host);
  ::close(fd);
  if (result == success && ::rename(temporary.c_str(), host.c_str()) != 0) result = from_errno(errno, host);
  if (result != success) ::unlink(temporary.c_str());
  else if (kind_ == Kind::save_data) result = sync_directory_of(host);
  return result;
}

Result HostFileSystem::resolve_existing(std::string_view path, bool directory, std::string* host) const {
  if (const Result r = resolve(path, host); r != success) return r;
  struct stat st {};
  if (::lstat(host->c_str(), &st) != 0) return from_errno(errno, *host);
  return S_ISDIR(st.st_mode) == directory ? success : fs_result::path_not_found;
}

Result HostFileSystem::delete_file(std::string_view path) {
  std::string host;
  if (const Result r = resolve_existing(path, false, &host); r != success) return r;
  if (::unlink(host.c_str()) != 0) return from_errno(errno, host);
  std::lock_guard lock(lock_);
  forget_staged(host);
  return success;
}

Result HostFileSystem::create_directory(std::string_view path) {
  std::string host;
  if (const Result r = resolve(path, &host); r != success) return r;
  return ::mkdir(host.c_str(), 0755) == 0 ? success : from_errno(errno, host);
}

Result HostFileSystem::delete_directory(std::string_view path, bool recursive) {
  std::string host;
  if (const Result r = resolve_existing(path, true, &host); r != success) return r;
  if (host == root_) return fs_result::directory_unobtainable; // the root itself cannot go
  if (recursive) {
    std::error_code error;
    std::filesystem::remove_all(host, error);
    if (error) return from_errno(error.value(), host);
  } else if (::rmdir(host.c_str()) != 0) {
    return from_errno(errno == EEXIST ? ENOTEMPTY : errno, host);
  }
  std::lock_guard lock(lock_);
  forget_staged(host);
  return success;
}

Result HostFileSystem::clean_directory(std::string_view path) {
  std::string host;
  if (const Result r = resolve(path, &host); r != success) return r;
  std::error_code error;
  if (!std::filesystem::is_directory(host, error)) return fs_result::path_not_found;
  for (const auto& entry : std::filesystem::directory_iterator(host, error)) {
    std::filesystem::remove_all(entry.path(), error);
    if (error) return from_errno(error.value(), entry.path().string());
  }
  if (error) return from_errno(error.value(), host);
  std::lock_guard lock(lock_);
  forget_staged(host);
  return success;
}

Result HostFileSystem::rename(std::string_view from, std::string_view to, bool directory) {
  std::string host_from, host_to;
  if (const Result r = resolve_existing(from, directory, &host_from); r != success) return r;
  if (const Result r = resolve(to, &host_to); r != success) return r;
  struct stat st {};
  if (::lstat(host_to.c_str(), &st) == 0) return fs_result::path_already_exists;
  if (directory && inside(host_to, host_from)) return fs_result::directory_unobtainable; // into itself
  if (::rename(host_from.c_str(), host_to.c_str()) != 0) return from_errno(errno, host_from);
  std::lock_guard lock(lock_);
  std::map<std::string, std::string> moved;
  for (auto it = staged_.begin(); it != staged_.end();) {
    if (inside(it->first, host_from)) {
      moved[host_to + it->first.substr(host_from.size())] = it->second;
      it = staged_.erase(it);
    } else {
      ++it;
    }
  }
  staged_.merge(moved);
  return success;
}

Result HostFileSystem::entry_type(std::string_view path, EntryType* type) {
  std::string host;
  if (const Result r = resolve(path, &host); r != success) return r;
  struct stat st {};
  if (::stat(host.c_str(), &st) != 0) return from_errno(errno, host);
  *type = S_ISDIR(st.st_mode) ? EntryType::directory : EntryType::file;
  return success;
}

Result HostFileSystem::open_file(std::string_view path, uint32_t mode, std::shared_ptr<HostFile>* file) {
  if (mode == 0 || (mode & ~(open_mode::read | open_mode::write | open_mode::append)) || (mode & (open_mode::read | open_mode::write)) == 0)
    return fs_result::invalid_open_mode;
  std::string host;
  if (const Result r = resolve(path, &host); r != success) return r;
  struct stat st {};
  if (::stat(host.c_str(), &st) != 0) return from_errno(errno, host);
  if (S_ISDIR(st.st_mode)) return fs_result::path_not_found;
  std::string target = host;
  const bool writing = mode & open_mode::write;
  std::lock_guard lock(lock_);
  if (kind_ == Kind::save_data) {
    const auto staged = staged_.find(host);
    if (staged != staged_.end()) {
      target = staged->second;
    } else if (writing) {
      target = staged_path_for(host);
      if (const Result r = copy_file(host, target); r != success) {
        staged_.erase(host);
        return r;
      }
    }
  }
  const int fd = ::open(target.c_str(), (writing ? O_RDWR : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) return from_errno(errno, host);
  if (writing) ++open_writers_;
  *file = std::make_shared<HostFile>(fd, mode, shared_from_this());
  return success;
}

Result HostFileSystem::list_directory(std::string_view path, uint32_t filter, std::vector<DirectoryEntry>* entries) {
  std::string host;
  if (const Result r = resolve(path, &host); r != success) return r;
  std::error_code error;
  if (!std::filesystem::is_directory(host, error)) return fs_result::path_not_found;
  entries->clear();
  std::lock_guard lock(lock_);
  for (const auto& entry : std::filesystem::directory_iterator(host, error)) {
    const std::string entry_path = entry.path().string();
    if (entry.is_symlink(error) && !inside(real_path(entry_path), real_root_)) continue; // leads out: not shown
    if (kind_ == Kind::save_data && entry_path.size() > 9 && entry_path.ends_with(".kiln-new")) continue;
    struct stat st {};
    if (::stat(entry_path.c_str(), &st) != 0) continue;
    const bool is_directory = S_ISDIR(st.st_mode);
    if (!(filter & (is_directory ? directory_filter::directories : directory_filter::files))) continue;
    int64_t size = 0;
    if (!is_directory && !(filter & directory_filter::no_file_size)) {
      const auto staged = staged_.find(entry_path);
      struct stat staged_st {};
      size = staged != staged_.end() && ::stat(staged->second.c_str(), &staged_st) == 0 ? staged_st.st_size : st.st_size;
    }
    entries->push_back({entry.path().filename().string(), is_directory ? EntryType::directory : EntryType::file, size});
  }
  if (error) return from_errno(error.value(), host);
  std::sort(entries->begin(), entries->end(), [](const DirectoryEntry& a, const DirectoryEntry& b) { return a.name < b.name; });
  return success;
}

Result HostFileSystem::commit() {
  if (kind_ != Kind::save_data) return success;
  std::lock_guard lock(lock_);
  if (open_writers_ > 0) return fs_result::target_locked;
  for (auto it = staged_.begin(); it != staged_.end();) {
    const int fd = ::open(it->second.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return from_errno(errno, it->first);
    const int synced = ::fsync(fd);
    const int error = errno;
    ::close(fd);
    if (synced != 0) return from_errno(error, it->first);
    if (::rename(it->second.c_str(), it->first.c_str()) != 0) return from_errno(errno, it->first);
    if (const Result r = sync_directory_of(it->first); r != success) return r;
    it = staged_.erase(it);
  }
  return success;
}

Result HostFileSystem::free_space(uint64_t* bytes) {
  struct statvfs st {};
  if (::statvfs(root_.c_str(), &st) != 0) return from_errno(errno, root_);
  *bytes = static_cast<uint64_t>(st.f_bavail) * st.f_frsize;
  return success;
}

Result HostFileSystem::total_space(uint64_t* bytes) {
  struct statvfs st {};
  if (::statvfs(root_.c_str(), &st) != 0) return from_errno(errno, root_);
  *bytes = static_cast<uint64_t>(st.f_blocks) * st.f_frsize;
  return success;
}

Result HostFileSystem::timestamps(std::string_view path, FileTimes* times) {
  std::string host;
  if (const Result r = resolve(path, &host); r != success) return r;
  struct stat st {};
  if (::stat(host.c_str(), &st) != 0) return from_errno(errno, host);
  times->created = static_cast<uint64_t>(st.st_ctim.tv_sec);
  times->modified = static_cast<uint64_t>(st.st_mtim.tv_sec);
  times->accessed = static_cast<uint64_t>(st.st_atim.tv_sec);
  return success;
}

} // namespace kiln::hos::fs
