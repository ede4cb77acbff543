#pragma once
// IStorage backings: a RomFS image file read in place, and a RomFS image made from a host folder (the
// metadata built in memory at open, file data read from the folder's files when the guest reads it).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/platform/switch/kernel/result.h"

namespace kiln::hos::fs {

class Storage {
public:
  virtual ~Storage() = default;
  virtual uint64_t size() const = 0;
  /// Reads [offset, offset + size); a range past the end is OutOfRange.
  virtual Result read(uint64_t offset, uint8_t* out, uint64_t size) const = 0;
};

/// A file on the host as a storage (a RomFS image). Null with `error` set when it cannot be opened.
std::shared_ptr<Storage> open_image_storage(const std::string& path, std::string* error);

/// The RomFS image of a host folder (switchbrew "RomFS": header, file data at 0x200, directory and file hash
/// tables and metadata), entries in name order. Null with `error` set when the folder cannot be read.
std::shared_ptr<Storage> build_romfs_from_folder(const std::string& folder, std::string* error);

/// RomFS's name hash (switchbrew "RomFS"), exposed for tests of the tables.
uint32_t romfs_name_hash(uint32_t parent, const std::string& name);
/// The bucket count RomFS builders use for `entries` entries.
uint32_t romfs_bucket_count(uint32_t entries);

} // namespace kiln::hos::fs
