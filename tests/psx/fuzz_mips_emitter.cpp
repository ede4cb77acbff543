// libFuzzer: random program text through MIPS function discovery and the C++ emitter. Whatever the words,
// discovery and emission must finish without a crash, every reachable undecodable word must be reported, and
// a bad entry point must be a kiln::Error.
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <vector>

#include "recompiler/emit/mips/function_discovery.h"
#include "recompiler/emit/mips/function_writer.h"
#include "runtime/base/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const kiln::mips::Decoder decoder(kiln::mips::Variant::r3000);
  if (size < 4) return 0;
  uint32_t entry_offset;
  std::memcpy(&entry_offset, data, 4);
  // 256 words are enough to reach every shape of discovery; longer inputs only slow each run (Capstone).
  std::vector<uint8_t> text(data + 4, data + std::min<size_t>(size, 4 + 1024));
  constexpr uint32_t base = 0x80010000u;
  try {
    const kiln::mips::ProgramImage image(std::move(text), base, base + (entry_offset & 0xFFFC), decoder, "fuzz.exe");
    std::string out;
    std::vector<kiln::pipeline::UntranslatedInstruction> untranslated;
    for (const auto& f : image.functions()) kiln::mips::write_function(image, f, out, untranslated);
    for (const auto& u : untranslated)
      if (!image.contains(u.address) && u.text.find("outside") == std::string::npos) __builtin_trap();
  } catch (const kiln::Error&) {
  }
  return 0;
}
