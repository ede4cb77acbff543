// `kiln shaders disasm FILE`: every kernel of a CUDA cubin (sm_75 / sm_8x) in nvdisasm's syntax, with the
// attributes the driver reads from .nv.info. (`translate` and `validate` live in command_shaders_translate.cpp.)
#include <fmt/format.h>

#include <string>

#include "runtime/base/error.h"
#include "tools/kiln/command_registry.h"
#include "tools/kiln/shaders_graphics.h"
#include "translator/sass/sm5x/program.h"
#include "translator/sass/sm86/cubin.h"

namespace {

namespace sm86 = kiln::sass::sm86;

void print_kernel(const sm86::Kernel& kernel, const std::string& file, sm86::Architecture architecture) {
  fmt::print("// kernel {}: {} bytes of code, {} registers, {} bytes shared, {} bytes local\n", kernel.name,
             kernel.code.size(), kernel.register_count, kernel.shared_memory_size, kernel.local_memory_size);
  fmt::print("// parameters at c[0x0][0x{:x}], {} bytes:", kernel.parameter_base, kernel.parameter_size);
  for (const auto& parameter : kernel.parameters) {
    fmt::print(" #{} +0x{:x} ({} bytes)", parameter.ordinal, parameter.offset, parameter.size);
  }
  fmt::print("\n.text.{}:\n", kernel.name);
  for (const auto& instruction : sm86::decode_all(kernel.code, kernel.location(file), architecture)) {
    fmt::print("        /*{:04x}*/  {:<60} /* 0x{:016x}{:016x} */\n", instruction.offset,
               sm86::disassemble(instruction) + " ;", instruction.word.high, instruction.word.low);
  }
  fmt::print("\n");
}

void setup_shader_disasm_command(CLI::App& root) {
  CLI::App& shaders = kiln::cli::command_group(root, "shaders", "guest GPU programs: disassembly, translation to SPIR-V");
  auto* disasm = shaders.add_subcommand("disasm", "disassemble every kernel of a CUDA cubin (sm_50-62, sm_70-90; the architecture comes from its ELF header)");
  static std::string file;
  static std::string kernel_name;
  disasm->add_option("FILE", file, "the .cubin file")->required();
  disasm->add_option("--kernel", kernel_name, "only this kernel");
  static std::string arch;
  disasm->add_option("--arch", arch, "a raw graphics program (SPH + code): sm50, sm53, sm60, sm75 or sm86");
  disasm->callback([] {
    if (kiln::cli::is_raw_graphics_program(file)) {
      if (arch.empty()) throw kiln::Error(kiln::in_file(file), "not a cubin: a raw graphics program needs --arch (sm50, sm53, sm60, sm75, sm86)");
      kiln::cli::disassemble_graphics_program(file, arch);
      return;
    }
    const sm86::Cubin cubin = sm86::load_cubin(file);
    fmt::print("// {}: sm_{}, {} kernels\n", file, cubin.sm_version, cubin.kernels.size());
    bool found = kernel_name.empty();
    for (const auto& kernel : cubin.kernels) {
      if (!kernel_name.empty() && kernel.name != kernel_name) continue;
      found = true;
      if (cubin.family == sm86::InstructionSet::maxwell) {  // sm_50-62 code: the Maxwell decoder's listing
        fmt::print("// kernel {}: {} bytes of code\n.text.{}:\n{}\n", kernel.name, kernel.code.size(), kernel.name,
                   kiln::sass::sm5x::disassemble_program(kernel.code, file + ":" + kernel.name, kiln::sass::sm5x::ProgramKind::compute));
        continue;
      }
      print_kernel(kernel, file, cubin.architecture);
    }
    if (!found) throw kiln::Error(kiln::in_file(file), "no kernel named '" + kernel_name + "'");
  });
}

} // namespace

KILN_REGISTER_COMMAND("shaders_disasm", setup_shader_disasm_command);
