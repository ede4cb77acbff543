#include "runtime/platform/linux-syscalls/abi.h"

#include <fcntl.h>

#include <algorithm>

namespace kiln::linux_calls {

namespace {

#include "runtime/platform/linux-syscalls/abi_numbers.inc"

/// The host kernel's O_LARGEFILE (x86-64: 0100000). glibc's O_LARGEFILE is 0 on LP64, but the kernel reports the
/// bit in F_GETFL, so it must map back to the guest's.
constexpr int host_o_largefile = 0100000;
/// The host's __O_SYNC part of O_SYNC (O_SYNC = __O_SYNC | O_DSYNC).
constexpr int host_o_sync_only = O_SYNC & ~O_DSYNC;

// The O_* bits where each ABI differs from x86-64 (the kernel's uapi asm/fcntl.h of each architecture).
constexpr FlagBit asm_generic_open_flags[] = {
    {040000, O_DIRECTORY}, {0100000, O_NOFOLLOW}, {0200000, O_DIRECT}, {0400000, host_o_largefile}};
constexpr FlagBit mips_open_flags[] = {
    {0x0008, O_APPEND},   {0x0010, O_DSYNC},   {0x0080, O_NONBLOCK},        {0x0100, O_CREAT},
    {0x0200, O_TRUNC},    {0x0400, O_EXCL},    {0x0800, O_NOCTTY},          {0x1000, FASYNC},
    {0x2000, host_o_largefile}, {0x4000, host_o_sync_only}, {0x8000, O_DIRECT}};
constexpr FlagBit powerpc_open_flags[] = {
    {040000, O_DIRECTORY}, {0100000, O_NOFOLLOW}, {0200000, host_o_largefile}, {0400000, O_DIRECT}};

// MIPS numbers errno differently from 35 on (arch/mips/include/uapi/asm/errno.h); AArch64 and PowerPC use the
// asm-generic values, as x86-64 does.
constexpr ErrnoValue mips_errno_values[] = {
    {35, 45},   {36, 78},   {37, 46},   {38, 89},   {39, 93},   {40, 90},   {42, 35},   {43, 36},   {44, 37},
    {45, 38},   {46, 39},   {47, 40},   {48, 41},   {49, 42},   {50, 43},   {51, 44},   {52, 50},   {53, 51},
    {54, 52},   {55, 53},   {56, 54},   {57, 55},   {72, 74},   {74, 77},   {75, 79},   {76, 80},   {77, 81},
    {78, 82},   {79, 83},   {80, 84},   {81, 85},   {82, 86},   {83, 87},   {84, 88},   {85, 91},   {86, 92},
    {87, 94},   {88, 95},   {89, 96},   {90, 97},   {91, 98},   {92, 99},   {93, 120},  {94, 121},  {95, 122},
    {96, 123},  {97, 124},  {98, 125},  {99, 126},  {100, 127}, {101, 128}, {102, 129}, {103, 130}, {104, 131},
    {105, 132}, {106, 133}, {107, 134}, {108, 143}, {109, 144}, {110, 145}, {111, 146}, {112, 147}, {113, 148},
    {114, 149}, {115, 150}, {116, 151}, {117, 135}, {118, 137}, {119, 138}, {120, 139}, {121, 140}, {122, 1133},
    {123, 159}, {124, 160}, {125, 158}, {126, 161}, {127, 162}, {128, 163}, {129, 164}, {130, 165}, {131, 166},
    {132, 167}, {133, 168}};

} // namespace

// struct sigaction as each kernel lays it out: arm64 {handler, flags, restorer, mask: 8 bytes}; MIPS {flags,
// handler, mask: 16 bytes}; powerpc32 {handler, flags, restorer, mask: 8 bytes}.
const Abi aarch64_abi{"aarch64", "aarch64", Endian::little, 8, aarch64_numbers,
                      asm_generic_open_flags, {}, 0x20, ~uint64_t{0}, 32};
const Abi mips_o32_abi{"mips o32", "mips", Endian::little, 4, mips_o32_numbers,
                       mips_open_flags, mips_errno_values, 0x800, 0x7FFFFFFF, 24};
const Abi ppc32_abi{"ppc32", "ppc", Endian::big, 4, ppc32_numbers,
                    powerpc_open_flags, {}, 0x20, 0xFFFFFFFF, 20};

const char* call_name(Call call) {
  switch (call) {
#define KILN_LINUX_CALL_NAME(name) case Call::name: return #name;
    KILN_LINUX_CALLS(KILN_LINUX_CALL_NAME)
#undef KILN_LINUX_CALL_NAME
    case Call::count: break;
  }
  return "unknown";
}

std::optional<Call> call_of(const Abi& abi, uint32_t number) {
  const auto it = std::lower_bound(abi.numbers.begin(), abi.numbers.end(), number,
                                   [](const CallNumber& n, uint32_t value) { return n.number < value; });
  if (it == abi.numbers.end() || it->number != number) return std::nullopt;
  return it->call;
}

int host_open_flags(const Abi& abi, uint32_t guest) {
  uint32_t listed = 0;
  int host = 0;
  for (const FlagBit& f : abi.open_flags) {
    listed |= f.guest;
    if (guest & f.guest) host |= f.host;
  }
  return host | static_cast<int>(guest & ~listed);
}

uint32_t guest_open_flags(const Abi& abi, int host) {
  int listed = 0;
  uint32_t guest = 0;
  for (const FlagBit& f : abi.open_flags) {
    listed |= f.host;
    if (host & f.host) guest |= f.guest;
  }
  return guest | static_cast<uint32_t>(host & ~listed);
}

uint32_t guest_errno(const Abi& abi, int host_errno) {
  for (const ErrnoValue& e : abi.errno_values)
    if (e.host == host_errno) return e.guest;
  return static_cast<uint32_t>(host_errno);
}

} // namespace kiln::linux_calls
