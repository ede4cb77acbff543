#include <catch2/catch.hpp>

#include <filesystem>
#include <thread>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"

using namespace kiln;
namespace fs = std::filesystem;

namespace {
fs::path fresh_temp_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("kiln-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}
} // namespace

TEST_CASE("write_file_if_changed writes new files and leaves identical ones untouched", "[file_writer]") {
  const fs::path dir = fresh_temp_dir("writer");
  const fs::path file = dir / "nested" / "out.cpp";
  CHECK(write_file_if_changed(file, "int x = 1;\n") == WriteResult::written);
  const auto first_time = fs::last_write_time(file);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(write_file_if_changed(file, "int x = 1;\n") == WriteResult::unchanged);
  CHECK(fs::last_write_time(file) == first_time);
  CHECK(write_file_if_changed(file, "int x = 2;\n") == WriteResult::written);
  const auto bytes = read_file(file);
  CHECK(std::string(bytes.begin(), bytes.end()) == "int x = 2;\n");
  CHECK_FALSE(fs::exists(dir / "nested" / "out.cpp.kiln-tmp"));
  CHECK(write_file_if_changed(dir / "empty", "") == WriteResult::written);
  CHECK(write_file_if_changed(dir / "empty", "") == WriteResult::unchanged);
  fs::remove_all(dir);
}

TEST_CASE("read_file of a missing file names the path", "[file_writer]") {
  CHECK_THROWS_WITH(read_file("/nonexistent/kiln/file.bin"), Catch::StartsWith("/nonexistent/kiln/file.bin: cannot open"));
}
