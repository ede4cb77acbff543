#pragma once
// The recompiled program of a 32-bit linux-user platform (mipsel, ppc32) as its generated function_table.cpp
// describes it, and what main() does around the CPU: the platforms differ only in their Machine, decoded-text
// type, initial registers and the auxiliary vector entries of their architecture.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "runtime/base/bits.h"
#include "runtime/core/function_table.h"
#include "runtime/platform/linux-syscalls/process32.h"

namespace kiln::linux_calls {

template <class Machine, class DecodedText>
struct RecompiledProgram32 {
  const guest::FunctionEntry<Machine>* functions; ///< sorted by address
  size_t count;
  uint32_t entry;
  const LoadSegment32* segments;
  size_t segment_count;
  uint32_t program_headers_address;
  uint16_t program_header_count, program_header_size;
  DecodedText fallback; ///< the text, decoded: what the fallback interpreter runs
};

/// Where the program is and how it starts, for the auxiliary vector every platform gives.
struct ProgramHeaders32 {
  uint32_t address;
  uint16_t count, entry_size;
  uint32_t entry;
};

/// main() of a 32-bit recompiled program on a large host stack: reserves `space`, loads the segments, builds the
/// initial stack in `order` from argv, the environment, `architecture_auxv` (the architecture's own entries,
/// first) and the entries every Linux gives (AT_PHDR, AT_PHENT, AT_PHNUM, AT_PAGESZ, AT_ENTRY, AT_UID...,
/// AT_HWCAP = `hwcap`, AT_CLKTCK, AT_SECURE), then `start(sp)`, which sets the entry registers and runs the
/// guest. Returns the status exit/exit_group gave, or 1 after printing a kiln::Error (prefixed `platform`).
int run_program32(Space32& space, const LoadSegment32* segments, size_t segment_count, const ProgramHeaders32& headers,
                  Endian order, uint32_t hwcap, const std::vector<std::pair<uint32_t, uint32_t>>& architecture_auxv, int argc,
                  char** argv, const std::function<void(uint32_t sp)>& start);

} // namespace kiln::linux_calls
