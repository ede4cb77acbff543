#include <algorithm>
#include <fstream>
#include <string_view>

#include "runtime/base/elf_container.h"
#include "recompiler/loaders/dol/disc_image.h"
#include "recompiler/loaders/dol/dol.h"
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

/// The first bytes of a file (a disc image is read on demand, never whole: it can be 1.4 GB).
std::vector<uint8_t> file_start(const std::filesystem::path& path, size_t count) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes(count);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(count));
  bytes.resize(static_cast<size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  return bytes;
}

} // namespace

Input identify_input(const RecompileOptions& options) {
  if (options.platform != "linux-user" && options.platform != "switch" && options.platform != "psx" && options.platform != "gamecube")
    throw Error("unknown platform '" + options.platform + "' (supported: linux-user, switch, psx, gamecube)");
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
  const bool regular = std::filesystem::is_regular_file(options.input, ec);
  // A GameCube disc image (its magic word at 0x1C), opened on demand by the front end.
  if (regular && (options.platform == "gamecube" || options.platform == "linux-user") &&
      gamecube::is_gamecube_disc(file_start(options.input, gamecube::disc_layout::magic_at + 4))) {
    input.container = Container::gamecube_disc;
    input.isa = Isa::ppc;
    input.platform = "gamecube";
    return input;
  }
  if (regular) input.bytes = read_file(options.input, kiln::input::executable);
  // A DOL has no magic word: a header whose sections are consistent (inside the file and MEM1, word-aligned, not
  // overlapping, the entry in a text section) is one; with --platform gamecube the DOL loader says what is wrong.
  if (options.platform == "gamecube" || gamecube::is_dol(input.bytes)) {
    input.container = Container::dol;
    input.isa = Isa::ppc;
    input.platform = "gamecube";
    return input;
  }
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
