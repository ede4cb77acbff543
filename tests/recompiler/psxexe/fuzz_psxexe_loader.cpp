// libFuzzer: any byte string either parses as a PS-X EXE or raises kiln::Error; nothing else.
#include <cstddef>
#include <cstdint>
#include <span>

#include "recompiler/loaders/psxexe/psx_exe.h"
#include "runtime/base/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const kiln::psx::PsxExe exe = kiln::psx::parse_psx_exe(std::span<const uint8_t>(data, size), "fuzz");
    if (exe.text.empty() || exe.pc0 < exe.text_address || exe.pc0 >= exe.text_end()) __builtin_trap();
  } catch (const kiln::Error&) {
  }
  return 0;
}
