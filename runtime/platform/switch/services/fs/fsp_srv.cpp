// fsp-srv (switchbrew "Filesystem services"): IFileSystemProxy with the SD card, save data and the RomFS,
// IFileSystem, IFile, IDirectory and IStorage over the host folders fs_config.h names. Paths come in X buffers
// of FS_MAX_PATH bytes; file data in A (write) and B (read) buffers.
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>

#include "runtime/base/log.h"
#include "runtime/platform/switch/services/fs/fs_result.h"
#include "runtime/platform/switch/services/default_services.h"
#include "runtime/platform/switch/services/fs/host_filesystem.h"
#include "runtime/platform/switch/services/fs/storage.h"
#include "runtime/platform/switch/title_access.h"

namespace kiln::hos {

namespace {

using fs::HostFile;
using fs::HostFileSystem;

constexpr Result nullptr_argument = make_result(fs_result::module, 6063);

/// The NUL-terminated path in X buffer `index`.
Result read_path(ipc::Context& c, size_t index, std::string* path) {
  const ipc::GuestBuffer buffer = c.in_pointer(index);
  if (!buffer.size) return nullptr_argument;
  const char* text = reinterpret_cast<const char*>(buffer.host());
  const size_t length = strnlen(text, std::min<uint64_t>(buffer.size, fs::max_path));
  if (length >= fs::max_path) return fs_result::too_long_path;
  path->assign(text, length);
  return success;
}

/// IDirectory::Read's entry (0x310 bytes): name[0x301], attribute, 2 padding, type (0 directory, 1 file),
/// 3 padding, size.
struct DirectoryEntryLayout {
  char name[0x301];
  uint8_t attribute;
  uint8_t padding[2];
  uint8_t type;
  uint8_t padding2[3];
  int64_t size;
};
static_assert(sizeof(DirectoryEntryLayout) == 0x310 && offsetof(DirectoryEntryLayout, type) == 0x304 &&
              offsetof(DirectoryEntryLayout, size) == 0x308);

class FileInterface final : public ipc::ServiceObject {
public:
  explicit FileInterface(std::shared_ptr<HostFile> file) : file_(std::move(file)) {}
  std::string_view name() const override { return "fsp-srv:IFile"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "Read", ipc::bind<&FileInterface::read>},   {1, "Write", ipc::bind<&FileInterface::write>},
        {2, "Flush", ipc::bind<&FileInterface::flush>}, {3, "SetSize", ipc::bind<&FileInterface::set_size>},
        {4, "GetSize", ipc::bind<&FileInterface::get_size>},
    };
    return table;
  }
  // Read and Write take {u32 option, u32 padding, s64 offset, s64 size}; Write's option bit 0 is Flush.
  Result read(ipc::Context& c) {
    c.read<uint32_t>();
    const int64_t offset = c.read<int64_t>(), size = c.read<int64_t>();
    const ipc::GuestBuffer out = c.out_auto(0);
    if (size < 0 || static_cast<uint64_t>(size) > out.size) return fs_result::invalid_size;
    uint64_t done = 0;
    const Result r = file_->read(offset, out.host(), static_cast<uint64_t>(size), &done);
    c.write<uint64_t>(done);
    return r;
  }
  Result write(ipc::Context& c) {
    const uint32_t option = c.read<uint32_t>();
    const int64_t offset = c.read<int64_t>(), size = c.read<int64_t>();
    const ipc::GuestBuffer in = c.in_auto(0);
    if (size < 0 || static_cast<uint64_t>(size) > in.size) return fs_result::invalid_size;
    return file_->write(offset, in.host(), static_cast<uint64_t>(size), option & 1);
  }
  Result flush(ipc::Context&) { return file_->flush(); }
  Result set_size(ipc::Context& c) { return file_->set_size(c.read<int64_t>()); }
  Result get_size(ipc::Context& c) {
    int64_t size = 0;
    const Result r = file_->get_size(&size);
    c.write(size);
    return r;
  }

private:
  std::shared_ptr<HostFile> file_;
};

class DirectoryInterface final : public ipc::ServiceObject {
public:
  explicit DirectoryInterface(std::vector<fs::DirectoryEntry> entries) : entries_(std::move(entries)) {}
  std::string_view name() const override { return "fsp-srv:IDirectory"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "Read", ipc::bind<&DirectoryInterface::read>},
        {1, "GetEntryCount", ipc::bind<&DirectoryInterface::get_entry_count>},
    };
    return table;
  }
  /// As many entries as the B buffer holds, from where the last Read stopped; the count read.
  Result read(ipc::Context& c) {
    const ipc::GuestBuffer out = c.out_auto(0);
    const size_t room = out.size / sizeof(DirectoryEntryLayout);
    int64_t count = 0;
    for (; count < static_cast<int64_t>(room) && next_ < entries_.size(); ++count, ++next_) {
      const fs::DirectoryEntry& e = entries_[next_];
      DirectoryEntryLayout layout{};
      std::memcpy(layout.name, e.name.data(), std::min(e.name.size(), sizeof layout.name - 1));
      layout.type = static_cast<uint8_t>(e.type);
      layout.size = e.size;
      std::memcpy(out.host() + count * sizeof layout, &layout, sizeof layout);
    }
    c.write(count);
    return success;
  }
  Result get_entry_count(ipc::Context& c) {
    c.write(static_cast<int64_t>(entries_.size()));
    return success;
  }

private:
  std::vector<fs::DirectoryEntry> entries_;
  size_t next_ = 0;
};

class FileSystemInterface final : public ipc::ServiceObject {
public:
  explicit FileSystemInterface(std::shared_ptr<HostFileSystem> fs) : fs_(std::move(fs)) {}
  std::string_view name() const override { return "fsp-srv:IFileSystem"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "CreateFile", ipc::bind<&FileSystemInterface::create_file>},
        {1, "DeleteFile", ipc::bind<&FileSystemInterface::delete_file>},
        {2, "CreateDirectory", ipc::bind<&FileSystemInterface::create_directory>},
        {3, "DeleteDirectory", ipc::bind<&FileSystemInterface::delete_directory>},
        {4, "DeleteDirectoryRecursively", ipc::bind<&FileSystemInterface::delete_directory_recursively>},
        {5, "RenameFile", ipc::bind<&FileSystemInterface::rename_file>},
        {6, "RenameDirectory", ipc::bind<&FileSystemInterface::rename_directory>},
        {7, "GetEntryType", ipc::bind<&FileSystemInterface::get_entry_type>},
        {8, "OpenFile", ipc::bind<&FileSystemInterface::open_file>},
        {9, "OpenDirectory", ipc::bind<&FileSystemInterface::open_directory>},
        {10, "Commit", ipc::bind<&FileSystemInterface::commit>},
        {11, "GetFreeSpaceSize", ipc::bind<&FileSystemInterface::get_free_space_size>},
        {12, "GetTotalSpaceSize", ipc::bind<&FileSystemInterface::get_total_space_size>},
        {13, "CleanDirectoryRecursively", ipc::bind<&FileSystemInterface::clean_directory_recursively>},
        {14, "GetFileTimeStampRaw", ipc::bind<&FileSystemInterface::get_file_time_stamp_raw>},
    };
    return table;
  }
  /// {u32 option (1: concatenation file, not kept), s64 size} + path.
  Result create_file(ipc::Context& c) {
    c.read<uint32_t>();
    const int64_t size = c.read<int64_t>();
    return with_path(c, [&](const std::string& p) { return fs_->create_file(p, size); });
  }
  Result delete_file(ipc::Context& c) { return with_path(c, [&](const std::string& p) { return fs_->delete_file(p); }); }
  Result create_directory(ipc::Context& c) { return with_path(c, [&](const std::string& p) { return fs_->create_directory(p); }); }
  Result delete_directory(ipc::Context& c) { return with_path(c, [&](const std::string& p) { return fs_->delete_directory(p, false); }); }
  Result delete_directory_recursively(ipc::Context& c) {
    return with_path(c, [&](const std::string& p) { return fs_->delete_directory(p, true); });
  }
  Result rename_file(ipc::Context& c) { return rename(c, false); }
  Result rename_directory(ipc::Context& c) { return rename(c, true); }
  Result get_entry_type(ipc::Context& c) {
    return with_path(c, [&](const std::string& p) {
      fs::EntryType type{};
      const Result r = fs_->entry_type(p, &type);
      if (r == success) c.write<uint32_t>(static_cast<uint32_t>(type));
      return r;
    });
  }
  Result open_file(ipc::Context& c) {
    const uint32_t mode = c.read<uint32_t>();
    return with_path(c, [&](const std::string& p) {
      std::shared_ptr<HostFile> file;
      const Result r = fs_->open_file(p, mode, &file);
      if (r == success) c.push_object(std::make_shared<FileInterface>(std::move(file)));
      return r;
    });
  }
  Result open_directory(ipc::Context& c) {
    const uint32_t filter = c.read<uint32_t>();
    return with_path(c, [&](const std::string& p) {
      std::vector<fs::DirectoryEntry> entries;
      const Result r = fs_->list_directory(p, filter, &entries);
      if (r == success) c.push_object(std::make_shared<DirectoryInterface>(std::move(entries)));
      return r;
    });
  }
  Result commit(ipc::Context&) { return fs_->commit(); }
  Result get_free_space_size(ipc::Context& c) { return space(c, &HostFileSystem::free_space); }
  Result get_total_space_size(ipc::Context& c) { return space(c, &HostFileSystem::total_space); }
  Result clean_directory_recursively(ipc::Context& c) { return with_path(c, [&](const std::string& p) { return fs_->clean_directory(p); }); }
  /// {u64 created, u64 modified, u64 accessed, u8 is_valid, 7 padding}: POSIX seconds.
  Result get_file_time_stamp_raw(ipc::Context& c) {
    return with_path(c, [&](const std::string& p) {
      fs::FileTimes times;
      const Result r = fs_->timestamps(p, &times);
      if (r != success) return r;
      c.write(times.created);
      c.write(times.modified);
      c.write(times.accessed);
      c.write<uint64_t>(1); // is_valid, then padding
      return success;
    });
  }

private:
  template <typename F>
  Result with_path(ipc::Context& c, F&& f) {
    std::string path;
    if (const Result r = read_path(c, 0, &path); r != success) return r;
    return f(path);
  }
  Result rename(ipc::Context& c, bool directory) {
    std::string from, to;
    if (const Result r = read_path(c, 0, &from); r != success) return r;
    if (const Result r = read_path(c, 1, &to); r != success) return r;
    return fs_->rename(from, to, directory);
  }
  Result space(ipc::Context& c, Result (HostFileSystem::*query)(uint64_t*)) {
    std::string path;
    if (const Result r = read_path(c, 0, &path); r != success) return r;
    std::string host;
    if (const Result r = fs_->resolve(path, &host); r != success) return r;
    uint64_t bytes = 0;
    const Result r = (fs_.get()->*query)(&bytes);
    c.write(bytes);
    return r;
  }

  std::shared_ptr<HostFileSystem> fs_;
};

class StorageInterface final : public ipc::ServiceObject {
public:
  explicit StorageInterface(std::shared_ptr<fs::Storage> storage) : storage_(std::move(storage)) {}
  std::string_view name() const override { return "fsp-srv:IStorage"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "Read", ipc::bind<&StorageInterface::read>},
        {1, "Write", ipc::bind<&StorageInterface::write>},
        {4, "GetSize", ipc::bind<&StorageInterface::get_size>},
    };
    return table;
  }
  /// {s64 offset, s64 size} into the B buffer.
  Result read(ipc::Context& c) {
    const int64_t offset = c.read<int64_t>(), size = c.read<int64_t>();
    const ipc::GuestBuffer out = c.out_auto(0);
    if (offset < 0) return fs_result::invalid_offset;
    if (size < 0 || static_cast<uint64_t>(size) > out.size) return fs_result::invalid_size;
    return storage_->read(static_cast<uint64_t>(offset), out.host(), static_cast<uint64_t>(size));
  }
  Result write(ipc::Context&) { return fs_result::unsupported_operation; } // the RomFS is read-only
  Result get_size(ipc::Context& c) {
    c.write(static_cast<int64_t>(storage_->size()));
    return success;
  }

private:
  std::shared_ptr<fs::Storage> storage_;
};

/// What every fsp-srv session shares: the configuration, the RomFS (made once), the mounted saves.
struct FileSystemState {
  fs::FileSystemConfig config;
  std::mutex lock;
  std::shared_ptr<fs::Storage> romfs;
  std::map<std::string, std::weak_ptr<HostFileSystem>> saves; ///< one instance per save folder while mounted
  std::shared_ptr<HostFileSystem> sd_card;
};

/// FsSaveDataAttribute (0x40 bytes): application id, user id (2 u64), system save data id, type, rank, index.
struct SaveDataAttribute {
  uint64_t application_id;
  uint64_t user_id[2];
  uint64_t system_save_data_id;
  uint8_t type, rank;
  uint16_t index;
  uint32_t padding;
  uint64_t reserved[3];
};
static_assert(sizeof(SaveDataAttribute) == 0x40);
constexpr uint8_t save_type_account = 1, save_type_device = 3;

class FileSystemProxy final : public ipc::ServiceObject {
public:
  explicit FileSystemProxy(std::shared_ptr<FileSystemState> state) : state_(std::move(state)) {}
  std::string_view name() const override { return "fsp-srv"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {1, "SetCurrentProcess", ipc::bind<&FileSystemProxy::set_current_process>},
        {18, "OpenSdCardFileSystem", ipc::bind<&FileSystemProxy::open_sd_card_file_system>},
        {22, "CreateSaveDataFileSystem", ipc::bind<&FileSystemProxy::create_save_data_file_system>},
        {51, "OpenSaveDataFileSystem", ipc::bind<&FileSystemProxy::open_save_data_file_system>},
        {200, "OpenDataStorageByCurrentProcess", ipc::bind<&FileSystemProxy::open_data_storage_by_current_process>},
        {1005, "GetGlobalAccessLogMode", ipc::bind<&FileSystemProxy::get_global_access_log_mode>},
    };
    return table;
  }
  Result set_current_process(ipc::Context&) { return success; } // one process: its id is the kernel's
  Result open_sd_card_file_system(ipc::Context& c) {
    if (const Result r = require(c, fs_permission::sd_card, "SdCard (bit 21)", "OpenSdCardFileSystem"); r != success) return r;
    std::lock_guard lock(state_->lock);
    if (!state_->sd_card) {
      if (!make_folder(state_->config.sd_card, c)) return fs_result::permission_denied;
      state_->sd_card = std::make_shared<HostFileSystem>(state_->config.sd_card, HostFileSystem::Kind::plain);
    }
    c.push_object(std::make_shared<FileSystemInterface>(state_->sd_card));
    return success;
  }
  /// {SaveDataAttribute, SaveDataCreationInfo (0x40), SaveDataMetaInfo (0x10)}: makes the save's folder.
  Result create_save_data_file_system(ipc::Context& c) {
    const SaveDataAttribute attribute = c.read<SaveDataAttribute>();
    // Creating the title's own save takes CreateOwnSaveData or CreateSaveData; another title's, CreateSaveData.
    const bool own = attribute.application_id == 0 || attribute.application_id == c.kernel().config().program_id;
    const Result allowed = own ? require(c, fs_permission::create_own_save_data | fs_permission::create_save_data,
                                         "CreateOwnSaveData (bit 35) or CreateSaveData (bit 13)", "CreateSaveDataFileSystem")
                               : require(c, fs_permission::create_save_data, "CreateSaveData (bit 13)", "CreateSaveDataFileSystem of another title's save");
    if (allowed != success) return allowed;
    std::string folder;
    if (const Result r = save_folder(c, attribute, &folder); r != success) return r;
    struct stat st {};
    if (::stat(folder.c_str(), &st) == 0) return fs_result::path_already_exists;
    return make_folder(folder, c) ? success : fs_result::permission_denied;
  }
  /// {u8 save data space id, 7 padding, SaveDataAttribute}.
  Result open_save_data_file_system(ipc::Context& c) {
    c.read<uint8_t>();
    const SaveDataAttribute attribute = c.read<SaveDataAttribute>();
    // A title's own save data needs no permission; another title's is only for a title with every permission.
    if (attribute.application_id != 0 && attribute.application_id != c.kernel().config().program_id)
      if (const Result r = require(c, 0, "FullPermission (bit 63)", fmt::format("OpenSaveDataFileSystem of title {:016x}'s save", attribute.application_id));
          r != success)
        return r;
    std::string folder;
    if (const Result r = save_folder(c, attribute, &folder); r != success) return r;
    std::error_code error;
    if (!std::filesystem::is_directory(folder, error)) return fs_result::target_not_found;
    std::lock_guard lock(state_->lock);
    std::shared_ptr<HostFileSystem> save = state_->saves[folder].lock();
    if (!save) state_->saves[folder] = save = std::make_shared<HostFileSystem>(folder, HostFileSystem::Kind::save_data);
    c.push_object(std::make_shared<FileSystemInterface>(std::move(save)));
    return success;
  }
  Result open_data_storage_by_current_process(ipc::Context& c) {
    std::lock_guard lock(state_->lock);
    if (!state_->romfs) {
      const std::string& path = state_->config.romfs;
      if (path.empty()) {
        c.kernel().report_once("fsp-srv romfs", fmt::format("fsp-srv: the title asked for its RomFS (guest address {:#x}) and kiln.toml's "
                                                            "[switch.fs] names none; replying TargetNotFound",
                                                            c.pc()));
        return fs_result::target_not_found;
      }
      std::string error;
      std::error_code code;
      state_->romfs = std::filesystem::is_directory(path, code) ? fs::build_romfs_from_folder(path, &error) : fs::open_image_storage(path, &error);
      if (!state_->romfs) {
        log::error("fsp-srv: {}", error);
        return fs_result::target_not_found;
      }
    }
    c.push_object(std::make_shared<StorageInterface>(state_->romfs));
    return success;
  }
  Result get_global_access_log_mode(ipc::Context& c) {
    c.write<uint32_t>(0); // access logging off
    return success;
  }

private:
  /// PermissionDenied unless main.npdm's FS permissions hold one of `bits` or FullPermission (a homebrew NRO has
  /// every permission); a refusal is logged once, naming the request and the permission.
  Result require(ipc::Context& c, uint64_t bits, const std::string& permission, const std::string& request) {
    const std::optional<uint64_t>& granted = state_->config.permissions;
    if (!granted || (*granted & (bits | fs_permission::full_permission))) return success;
    c.kernel().report_once("fsp-srv permission " + request,
                           fmt::format("fsp-srv: {} at guest address {:#x} refused: main.npdm's FS access control ({:#x}) lacks {}; "
                                       "replying PermissionDenied ({:#x})",
                                       request, c.pc(), *granted, permission, fs_result::permission_denied));
    return fs_result::permission_denied;
  }
  static bool make_folder(const std::string& folder, ipc::Context& c) {
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error)
      c.kernel().report_once("fsp-srv folder " + folder, fmt::format("fsp-srv: cannot make the host folder {}: {}", folder, error.message()));
    return !error;
  }
  /// SAVE_ROOT/<program id>/<user id>: one save per title and user (type, rank and index are not kept apart).
  Result save_folder(ipc::Context& c, const SaveDataAttribute& a, std::string* folder) {
    if (a.type != save_type_account && a.type != save_type_device) {
      c.kernel().report_once(fmt::format("fsp-srv save type {}", a.type),
                             fmt::format("fsp-srv: save data of type {} (guest address {:#x}) is not provided; replying TargetNotFound", a.type, c.pc()));
      return fs_result::target_not_found;
    }
    const uint64_t program = a.application_id ? a.application_id : c.kernel().config().program_id;
    *folder = fmt::format("{}/{:016x}/{:016x}{:016x}", state_->config.save_root, program, a.user_id[1], a.user_id[0]);
    return success;
  }

  std::shared_ptr<FileSystemState> state_;
};

} // namespace

void register_file_system(ServiceRegistry& registry, const fs::FileSystemConfig& config) {
  auto state = std::make_shared<FileSystemState>();
  state->config = config;
  registry.add("fsp-srv", [state] { return std::make_shared<FileSystemProxy>(state); });
  registry.add_interface("fsp-srv:IFileSystem", [] { return std::make_shared<FileSystemInterface>(nullptr); });
  registry.add_interface("fsp-srv:IFile", [] { return std::make_shared<FileInterface>(nullptr); });
  registry.add_interface("fsp-srv:IDirectory", [] { return std::make_shared<DirectoryInterface>(std::vector<fs::DirectoryEntry>{}); });
  registry.add_interface("fsp-srv:IStorage", [] { return std::make_shared<StorageInterface>(nullptr); });
}

} // namespace kiln::hos
