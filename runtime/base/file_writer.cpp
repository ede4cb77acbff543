#include "runtime/base/file_writer.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

#include "runtime/base/error.h"

namespace kiln {
namespace fs = std::filesystem;

namespace {
std::string size_text(uint64_t bytes) {
  if (bytes >= input::mib && bytes % input::mib == 0) return std::to_string(bytes / input::mib) + " MiB";
  return std::to_string(bytes) + " bytes";
}
} // namespace

void refuse_oversized(const fs::path& path, uint64_t size, const InputKind& kind) {
  throw Error(in_file(path.string()), "the file is " + std::to_string(size) + " bytes, over the " + size_text(kind.max_bytes) +
                                          " limit for " + kind.what);
}

std::vector<uint8_t> read_file(const fs::path& path, const InputKind& kind) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw Error(in_file(path.string()), "is a folder, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(in_file(path.string()), with_errno("cannot open for reading"));
  if (fs::is_regular_file(path, ec)) {
    const uint64_t size = fs::file_size(path, ec);
    if (ec) throw Error(in_file(path.string()), "cannot determine the file size: " + ec.message());
    if (size > kind.max_bytes) refuse_oversized(path, size, kind);
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size)))
      throw Error(in_file(path.string()), "read failed");
    return bytes;
  }
  // A pipe or device: read in pieces, never past the limit.
  std::vector<uint8_t> bytes;
  char piece[1 << 16];
  while (in.read(piece, sizeof piece) || in.gcount() > 0) {
    bytes.insert(bytes.end(), piece, piece + in.gcount());
    if (bytes.size() > kind.max_bytes) refuse_oversized(path, bytes.size(), kind);
  }
  if (in.bad()) throw Error(in_file(path.string()), "read failed");
  return bytes;
}

static bool file_holds(const fs::path& path, std::span<const uint8_t> bytes) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) != bytes.size() || ec) return false;
  std::ifstream in(path, std::ios::binary);
  std::vector<char> existing(bytes.size());
  if (!bytes.empty() && !in.read(existing.data(), static_cast<std::streamsize>(existing.size()))) return false;
  return bytes.empty() || std::memcmp(existing.data(), bytes.data(), bytes.size()) == 0;
}

WriteResult write_file_if_changed(const fs::path& path, std::span<const uint8_t> bytes) {
  if (file_holds(path, bytes)) return WriteResult::unchanged;
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  if (ec) throw Error(in_file(path.parent_path().string()), "cannot create folder: " + ec.message());
  fs::path temp = path;
  temp += ".kiln-tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(in_file(temp.string()), with_errno("cannot open for writing"));
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) throw Error(in_file(temp.string()), with_errno("write failed"));
  }
  fs::rename(temp, path, ec);
  if (ec) throw Error(in_file(path.string()), "cannot replace file: " + ec.message());
  return WriteResult::written;
}

WriteResult write_file_if_changed(const fs::path& path, std::string_view text) {
  return write_file_if_changed(path, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

} // namespace kiln
