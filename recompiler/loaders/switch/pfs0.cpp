#include "recompiler/loaders/switch/pfs0.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"

namespace kiln::nx {

using namespace pfs0_layout;

const Pfs0File* Pfs0::find(const std::string& name) const {
  for (const Pfs0File& f : files)
    if (f.name == name) return &f;
  return nullptr;
}

bool is_pfs0(std::span<const uint8_t> bytes) {
  return bytes.size() >= 4 && (bytes[0] | bytes[1] << 8 | bytes[2] << 16 | static_cast<uint32_t>(bytes[3]) << 24) == magic;
}

bool is_pfs0_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  uint8_t head[4] = {};
  in.read(reinterpret_cast<char*>(head), 4);
  return in.gcount() == 4 && is_pfs0(head);
}

Pfs0 read_pfs0(std::span<const uint8_t> bytes, const std::string& name) {
  const ByteReader file(bytes, name);
  if (!is_pfs0(bytes)) {
    // An NCA's header (0xc00 bytes) is encrypted with the console's header key; a decrypted one says "NCA3" at 0x200.
    const bool decrypted_nca = bytes.size() >= 0x204 && std::string_view(reinterpret_cast<const char*>(bytes.data() + 0x200), 3) == "NCA";
    const bool nca_name = name.size() >= 4 && (name.ends_with(".nca") || name.ends_with(".NCA"));
    if (decrypted_nca || nca_name)
      file.fail_at(0, "this is an NCA: kiln does not read NCAs (they are encrypted); give the program's ExeFS as a PFS0 (the "
                      "decrypted ExeFS section, or an NSP) or as an unpacked folder");
    file.fail_at(0, "not a PFS0 (no \"PFS0\" magic)");
  }
  if (file.size() < header_size) file.fail_at(0, fmt::format("PFS0 truncated: {:#x} bytes, the header needs {:#x}", file.size(), header_size));
  const uint64_t count = file.peek_at<uint32_t>(4), strings_size = file.peek_at<uint32_t>(8);
  const uint64_t table_end = header_size + count * entry_size;
  if (table_end > file.size())
    file.fail_at(4, fmt::format("{} file entries end at {:#x}, past the {:#x}-byte file", count, table_end, file.size()));
  const uint64_t data_start = table_end + strings_size;
  if (data_start > file.size())
    file.fail_at(8, fmt::format("the {:#x}-byte string table ends at {:#x}, past the {:#x}-byte file", strings_size, data_start, file.size()));
  Pfs0 out;
  std::set<std::string> names;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t at = header_size + i * entry_size;
    const uint64_t offset = file.peek_at<uint64_t>(at), size = file.peek_at<uint64_t>(at + 8);
    const uint64_t name_offset = file.peek_at<uint32_t>(at + 0x10);
    if (name_offset >= strings_size)
      file.fail_at(at + 0x10, fmt::format("file {}'s name at {:#x} is outside the {:#x}-byte string table", i, name_offset, strings_size));
    std::string file_name;
    for (uint64_t p = table_end + name_offset;; ++p) {
      if (p == data_start) file.fail_at(at + 0x10, fmt::format("file {}'s name runs past the string table (no NUL)", i));
      const char c = static_cast<char>(file.peek_at<uint8_t>(p));
      if (!c) break;
      file_name += c;
    }
    if (file_name.empty() || file_name.find('/') != std::string::npos)
      file.fail_at(at + 0x10, fmt::format("file {}'s name '{}' is not a plain file name", i, file_name));
    if (!names.insert(file_name).second) file.fail_at(at + 0x10, fmt::format("file '{}' appears twice", file_name));
    const uint64_t available = file.size() - data_start;
    if (offset > available || size > available - offset)
      file.fail_at(at, fmt::format("file '{}' at data offset {:#x}+{:#x} is outside the {:#x} bytes of data (from {:#x})", file_name, offset,
                                   size, available, data_start));
    out.files.push_back({file_name, data_start + offset, size});
  }
  return out;
}

} // namespace kiln::nx
