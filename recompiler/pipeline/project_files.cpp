#include "recompiler/pipeline/project_files.h"

#include <fmt/format.h>

#include "runtime/base/file_writer.h"
#include "runtime/base/hash.h"

namespace kiln::pipeline {

void ProjectFiles::write(const std::string& name, std::string_view text) {
  write(name, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

void ProjectFiles::write(const std::string& name, std::span<const uint8_t> bytes) {
  names_.insert(name);
  if (write_file_if_changed(folder_ / name, bytes) == WriteResult::written) ++written_;
  else ++unchanged_;
}

void ProjectFiles::remove_stale_sources(std::initializer_list<std::string_view> prefixes) const {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder_, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.ends_with(".cpp") || names_.count(name)) continue;
    for (std::string_view prefix : prefixes)
      if (name.starts_with(prefix)) {
        std::filesystem::remove(entry.path());
        break;
      }
  }
}

std::string& FunctionSources::body(uint64_t start) {
  if (body_.empty()) name_ = fmt::format("functions_{:x}.cpp", start);
  return body_;
}

void FunctionSources::added(uint64_t start, size_t instructions) {
  instructions_ += instructions;
  const bool boundary = (hash64(fmt::format("{:x}", start)) & 3) == 0;
  if (instructions_ >= instructions_per_file_ * 2 || (instructions_ >= instructions_per_file_ / 2 && boundary)) finish();
}

void FunctionSources::finish() {
  if (body_.empty()) return;
  files_.write(name_, prelude_ + body_);
  body_.clear();
  instructions_ = 0;
}

} // namespace kiln::pipeline
