#include <algorithm>
#include <string_view>

#include "runtime/base/elf_container.h"
#include "recompiler/loaders/switch/exefs.h"
#include "recompiler/loaders/switch/switch_module.h"
#include "recompiler/pipeline/front_end.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"

namespace kiln::pipeline {
namespace {

bool is_psx_exe(std::span<const uint8_t> bytes) {
  static constexpr std::string_view magic = "PS-X EXE";
  return bytes.size() >= magic.size() && std::equal(magic.begin(), magic.end(), bytes.begin());
}

} // namespace

Input identify_input(const RecompileOptions& options) {
  if (options.platform != "linux-user" && options.platform != "switch" && options.platform != "psx")
    throw Error("unknown platform '" + options.platform + "' (supported: linux-user, switch, psx)");
  Input input;
  input.path = options.input;
  input.platform = options.platform;
  std::error_code ec;
  // A folder or a PFS0 (an NSP, a decrypted ExeFS section) is a Switch title's ExeFS.
  if (options.platform != "psx" && nx::is_exefs_input(options.input)) {
    nx::require_exefs(options.input);
    input.container = Container::exefs_folder;
    input.platform = "switch";
    return input;
  }
  if (std::filesystem::is_regular_file(options.input, ec)) input.bytes = read_file(options.input, kiln::input::executable);
  if (options.platform == "psx" || is_psx_exe(input.bytes)) {
    input.container = Container::psx_exe; // the PS-X EXE loader names what is wrong with anything else
    input.isa = Isa::mips;
    input.platform = "psx";
    return input;
  }
  if (nx::detect_format(input.bytes)) {
    input.container = Container::switch_module;
    input.platform = "switch";
    return input;
  }
  // Any other file is read as an ELF: a 32-bit MIPS one by the MIPS front end, a 32-bit PowerPC one by the PowerPC
  // front end, the rest by the AArch64 one, whose reader names what is wrong with a file that is not an AArch64 ELF.
  input.container = Container::elf;
  if (elf::is_elf(input.bytes, false, elf::em_mips)) input.isa = Isa::mips;
  if (elf::is_elf(input.bytes, false, elf::em_ppc)) input.isa = Isa::ppc;
  return input;
}

} // namespace kiln::pipeline
