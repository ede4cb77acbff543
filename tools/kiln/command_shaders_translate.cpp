// `kiln shaders translate` and `kiln shaders validate`: guest GPU programs to SPIR-V, and the spirv-val gate
// for directories of modules (what porters' CI jobs call).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/base/log.h"
#include "tools/kiln/command_registry.h"
#include "tools/kiln/shaders_graphics.h"
#include "translator/ir/ir.h"
#include "translator/sass/sm5x/lower.h"
#include "translator/sass/sm86/cubin.h"
#include "translator/sass/sm86/lower.h"
#include "translator/spirv/emit_compute.h"
#include "translator/spirv/validate.h"

namespace {

namespace fs = std::filesystem;
using kiln::Error;

struct TranslateOptions {
  std::string input;
  std::string arch = "sm86";
  std::string output;
  std::string kernel;
  std::string warp = "emulated";
  bool glsl = false;
  bool dump_ir = false;
  std::vector<std::string> constant_banks; ///< raw graphics programs: BANK:FILE
  bool zero_registers = false;             ///< raw graphics programs: host options (seed 002)
  uint32_t gather_bias_bits = 0;
  std::string fma = "exact";
  bool no_float64 = false;
};

void translate(const TranslateOptions& options) {
  const kiln::spirv::FloatOptions floats{.fma = *kiln::spirv::parse_fma_mode(options.fma), .host_float64 = !options.no_float64};
  if (kiln::cli::is_raw_graphics_program(options.input)) { // SPH + code, not a cubin
    kiln::cli::translate_graphics_program(options.input, options.arch, options.output, options.glsl, options.constant_banks,
                                          {.zero_registers = options.zero_registers, .gather_bias_bits = options.gather_bias_bits, .floats = floats});
    return;
  }
  const kiln::sass::sm86::Cubin cubin = kiln::sass::sm86::load_cubin(options.input);
  // A cubin names its architecture in its ELF header; --arch is for raw graphics programs, which do not.
  const bool maxwell = cubin.family == kiln::sass::sm86::InstructionSet::maxwell;
  const auto architecture = cubin.architecture;
  std::vector<const kiln::sass::sm86::Kernel*> kernels;
  for (const auto& kernel : cubin.kernels) {
    if (options.kernel.empty() || kernel.name == options.kernel) kernels.push_back(&kernel);
  }
  if (kernels.empty()) {
    throw Error(kiln::in_file(options.input), options.kernel.empty() ? "no kernels" : fmt::format("no kernel named '{}'", options.kernel));
  }
  // One kernel: OUT is the module. Several: OUT is a folder that receives <kernel>.spv for each.
  const bool into_folder = kernels.size() > 1;
  if (into_folder) fs::create_directories(options.output);
  const kiln::spirv::ComputeOptions compute{.warp_model = options.warp == "subgroup" ? kiln::spirv::WarpModel::Subgroup
                                                                                     : kiln::spirv::WarpModel::Emulated,
                                            .floats = floats};
  for (const auto* kernel : kernels) {
    const kiln::ir::Function function = maxwell ? kiln::sass::sm5x::lower_kernel(*kernel, options.input)
                                                 : kiln::sass::sm86::translate_kernel(*kernel, options.input, architecture);
    if (options.dump_ir) fmt::print("{}", kiln::ir::to_string(function));
    const std::vector<uint32_t> module = kiln::spirv::emit_compute(function, compute);
    const std::string path = into_folder ? (fs::path(options.output) / (kernel->name + ".spv")).string() : options.output;
    kiln::spirv::write_validated(path, module, fmt::format("{}: kernel {}", options.input, kernel->name));
    if (options.glsl) {
      kiln::write_file_if_changed(fs::path(path).replace_extension(".comp"), kiln::spirv::to_glsl(module));
    }
    kiln::log::info("{}: {} -> {} ({} words)", options.input, kernel->name, path, module.size());
  }
}

void validate_folder(const std::string& folder) {
  if (!fs::is_directory(folder)) throw Error(kiln::in_file(folder), "not a directory");
  std::vector<fs::path> modules;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (entry.is_regular_file() && entry.path().extension() == ".spv") modules.push_back(entry.path());
  }
  std::sort(modules.begin(), modules.end());
  // A CI gate must not pass on nothing: a folder without modules is an error.
  if (modules.empty()) throw Error(kiln::in_file(folder), "no .spv modules in this folder: nothing to validate");
  size_t failures = 0;
  for (const auto& path : modules) {
    const std::vector<uint8_t> bytes = kiln::read_file(path, kiln::input::gpu_program);
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    std::vector<std::string> messages;
    if (bytes.size() % 4 != 0 || words.empty()) messages.emplace_back("size is not a whole number of 32-bit words");
    else messages = kiln::spirv::validate(words);
    if (messages.empty()) continue;
    ++failures;
    std::string first = messages.front();
    std::replace(first.begin(), first.end(), '\n', ' ');
    fmt::print("{}: {}\n", path.string(), first); // one line per failing module
  }
  std::fflush(stdout); // the per-module lines come before the summary error
  if (failures != 0) throw Error(fmt::format("{} of {} SPIR-V module(s) in {} fail validation for Vulkan 1.2", failures, modules.size(), folder));
  kiln::log::info("{} SPIR-V module(s) in {} pass validation for Vulkan 1.2", modules.size(), folder);
}

void setup_shader_translate_commands(CLI::App& root) {
  CLI::App& shaders = kiln::cli::command_group(root, "shaders", "guest GPU programs: disassembly, translation to SPIR-V");

  static TranslateOptions options;
  auto* translate_command = shaders.add_subcommand("translate", "translate a cubin's kernels to SPIR-V (validated; invalid modules are never written)");
  translate_command->add_option("file", options.input, "cubin (ELF) file, or a raw graphics program (SPH + code)")->required()->check(CLI::ExistingFile);
  translate_command->add_option("--arch", options.arch, "guest architecture")->check(CLI::IsMember({"sm86", "sm75", "sm50", "sm53", "sm60"}))->capture_default_str();
  translate_command->add_option("-o,--output", options.output, "module to write; a folder when the cubin holds several kernels")->required();
  translate_command->add_option("--kernel", options.kernel, "translate only this kernel");
  translate_command->add_option("--warp", options.warp, "warp model: emulated (any subgroup size) or subgroup (host subgroups of 32)")
      ->check(CLI::IsMember({"emulated", "subgroup"}))->capture_default_str();
  translate_command->add_flag("--glsl", options.glsl, "also write GLSL (.comp) beside each module, for reading");
  translate_command->add_flag("--dump-ir", options.dump_ir, "print the IR of each kernel");
  translate_command->add_option("--const-bank", options.constant_banks,
                                "raw graphics programs: BANK:FILE, a constant bank's contents (32-bit little-endian words) the "
                                "translator may read, e.g. 1:jump_tables.bin for Maxwell BRX; repeatable");
  translate_command->add_flag("--zero-registers", options.zero_registers,
                              "raw graphics programs: registers read before any write start at 0 (for Mesa drivers)");
  translate_command->add_option("--gather-bias-bits", options.gather_bias_bits,
                                "raw graphics programs: bias texture gathers by half a step of this many sub-texel bits "
                                "(the host's subTexelPrecisionBits; non-NVIDIA hosts)")->check(CLI::Range(0, 16));
  translate_command->add_option("--fma", options.fma,
                                "single-rounding multiply-add: exact (integer code, no FP64), fused (the host's Fma, for hosts that "
                                "fuse it) or f64 (exact through doubles: needs shaderFloat64)")
      ->check(CLI::IsMember({"exact", "fused", "f64"}))->capture_default_str();
  translate_command->add_flag("--no-float64", options.no_float64,
                              "the host has no shaderFloat64: a double-precision guest instruction is an error naming its address");
  translate_command->callback([] { translate(options); });

  static std::string folder;
  auto* validate_command = shaders.add_subcommand("validate", "run spirv-val (Vulkan 1.2) over every .spv in a folder; one line per failure");
  validate_command->add_option("dir", folder, "folder to search (recursively)")->required();
  validate_command->callback([] { validate_folder(folder); });
}

} // namespace

KILN_REGISTER_COMMAND("shaders_translate", setup_shader_translate_commands);
