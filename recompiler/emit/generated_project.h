#pragma once
// The start every generated CMake project shares (AArch64, PS1, mipsel, ppc32 and GameCube generators): C++20,
// Release unless the user picks a build type, KILN_SOURCE_DIR pointing at the runtime sources, and the
// optimisation level of the generated functions.
#include <fmt/format.h>

#include <filesystem>
#include <string>
#include <string_view>

namespace kiln::emit {

inline std::string cmake_project_preamble(std::string_view project_name, const std::filesystem::path& source_root) {
  return fmt::format(R"cmake(cmake_minimum_required(VERSION 3.20)
project({} CXX ASM)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release)
endif()
set(KILN_SOURCE_DIR "{}" CACHE PATH "kiln source tree (runtime sources)")
# The generated functions' optimisation level (`kiln build --optimization`): -O2 for a port. A whole static libc
# is tens of MB of C++: -Og or -O1 build it several times faster where build time matters more than speed.
set(KILN_GENERATED_OPTIMIZATION -O2 CACHE STRING "optimization level of the generated functions")
)cmake",
                     project_name, source_root.generic_string());
}

} // namespace kiln::emit
