#include "runtime/base/pad_script.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <sstream>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"

namespace kiln {
namespace {

template <typename Number>
bool parse_number(std::string_view text, Number& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

} // namespace

PadScriptText::PadScriptText(std::string_view text, std::string file, std::span<const std::string_view> settings)
    : file_(std::move(file)) {
  std::istringstream stream{std::string(text)};
  std::string text_line;
  std::optional<unsigned> last_frame;
  for (unsigned number = 1; std::getline(stream, text_line); ++number) {
    if (const size_t hash = text_line.find('#'); hash != std::string::npos) text_line.resize(hash);
    PadScriptLine line{.number = number};
    std::istringstream words(text_line);
    for (std::string word; words >> word;) line.words.push_back(word);
    if (line.words.empty()) continue;
    const std::string first = line.words.front();
    if (std::find(settings.begin(), settings.end(), first) != settings.end()) {
      if (last_frame) fail(line, fmt::format("'{}' must come before the first state", first));
      lines_.push_back(std::move(line));
      continue;
    }
    unsigned frame = 0;
    if (!parse_number(first, frame)) {
      std::string known;
      for (std::string_view setting : settings) known += fmt::format(" or '{}'", setting);
      fail(line, fmt::format("'{}' is not a frame number{}", first, known));
    }
    if (last_frame && frame <= *last_frame) fail(line, fmt::format("frame {} does not come after frame {}", frame, *last_frame));
    line.frame = last_frame = frame;
    line.words.erase(line.words.begin());
    lines_.push_back(std::move(line));
  }
}

PadScriptText PadScriptText::from_file(const std::string& path, std::span<const std::string_view> settings) {
  const std::vector<uint8_t> bytes = read_file(path, kiln::input::text);
  return PadScriptText(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path, settings);
}

void PadScriptText::fail(const PadScriptLine& line, std::string_view what) const {
  throw Error(in_file(file_), fmt::format("line {}: {}", line.number, what));
}

std::optional<PadScriptAxis> PadScriptText::axis(const PadScriptLine& line, std::string_view word, int low, int high) const {
  const size_t eq = word.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  PadScriptAxis axis{.name = std::string(word.substr(0, eq))};
  if (!parse_number(word.substr(eq + 1), axis.value) || axis.value < low || axis.value > high)
    fail(line, fmt::format("'{}': an axis takes {}..{}", word, low, high));
  return axis;
}

} // namespace kiln
