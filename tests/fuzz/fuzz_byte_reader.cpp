// Drives the bounded reader with a little program taken from the input itself: every read either
// succeeds inside the buffer or throws kiln::Error; anything else (a crash, a sanitizer report) is a bug.
#include <cstddef>
#include <cstdint>

#include "runtime/base/byte_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const size_t program_size = data[0] % 32 + 1;
  if (size < 1 + program_size) return 0;
  const uint8_t* program = data + 1;
  kiln::ByteReader reader({data + 1 + program_size, size - 1 - program_size}, "fuzz-input");
  try {
    for (size_t i = 0; i < program_size; ++i) {
      const uint8_t op = program[i];
      const size_t argument = op >> 3;
      switch (op & 7) {
      case 0: (void)reader.u8(); break;
      case 1: (void)reader.u16(); break;
      case 2: (void)reader.u32(); break;
      case 3: (void)reader.u64(); break;
      case 4: (void)reader.c_string(); break;
      case 5: reader.seek(argument); break;
      case 6: (void)reader.sub_reader(argument, reader.remaining()).bytes(argument); break;
      case 7: reader.set_endian(reader.endian() == kiln::Endian::little ? kiln::Endian::big : kiln::Endian::little);
              break;
      }
    }
  } catch (const kiln::Error&) {
  }
  return 0;
}
