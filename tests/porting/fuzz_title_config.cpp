// libFuzzer: random text as a kiln.toml. Every outcome is a parsed config or a kiln::Error; toml++ and the field
// readers must never crash, hang or throw anything else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "recompiler/config/title_config.h"
#include "runtime/base/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    (void)kiln::config::parse_title_config(std::string_view(reinterpret_cast<const char*>(data), size), "/nonexistent/fuzz/kiln.toml");
  } catch (const kiln::Error&) {
  }
  return 0;
}
