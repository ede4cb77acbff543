#pragma once
// A CUDA cubin (an ELF64 file that nvcc -cubin / ptxas writes): its kernels, their code, the .nv.info attributes
// the driver reads (parameter layout, EXIT offsets, register and memory sizes) and their constant bank 0.
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "translator/sass/sm86/instruction.h"

namespace kiln::sass::sm86 {

/// One kernel parameter as .nv.info's EIATTR_KPARAM_INFO lists it.
struct KernelParameter {
  uint32_t ordinal = 0;  ///< position in the C signature
  uint32_t offset = 0;   ///< byte offset inside the parameter block (add Kernel::parameter_base for cbank 0)
  uint32_t size = 0;     ///< bytes
};

/// A 64-bit address the loader writes into a constant bank: the module global `symbol` (at `symbol_offset` of
/// the module's global memory, see Cubin::global_init) plus `addend` (ELF REL: the bytes already at `offset`).
struct ConstantRelocation {
  uint32_t offset = 0;           ///< byte offset inside the bank
  std::string symbol;
  uint64_t symbol_offset = 0;    ///< offset of the symbol inside the module's global memory
  uint64_t addend = 0;
};

/// A constant bank other than 0: module constants (.nv.constant4: addresses of module globals, tables) or the
/// kernel's own compiler constants (.nv.constant2.K: literals ptxas could not encode as immediates).
struct ConstantBank {
  uint32_t bank = 0;
  std::vector<uint8_t> bytes;    ///< before relocation
  std::vector<ConstantRelocation> relocations;
};

/// A .nv.info attribute kiln does not interpret, kept so tools can show it.
struct InfoAttribute {
  uint8_t format = 0;    ///< EIFMT_*: 1 none, 2 byte, 3 half word, 4 sized blob
  uint8_t attribute = 0; ///< EIATTR_* number
  std::vector<uint8_t> value;
};

/// R_CUDA_ABS32_LO_20 / _HI_20: the low / high word of a symbol's address in a 32-bit operand at bit 20 (Maxwell's
/// MOV32I of a module global's address; numbers as nvlink's R_CUDA_* order and the CUDA 11.8 cubins give them).
inline constexpr uint32_t kRelocationAbs32Lo20 = 43;
inline constexpr uint32_t kRelocationAbs32Hi20 = 44;

/// A code relocation with what it names: the symbol and, when the symbol lies in module global memory, where.
struct CodeRelocation {
  uint64_t offset = 0;                   ///< byte offset in the kernel's code
  uint32_t type = 0;                     ///< R_CUDA_* number
  std::string symbol;
  std::optional<uint64_t> global_offset; ///< offset of the symbol inside the module's global memory (Cubin::global_init)
  uint64_t addend = 0;                   ///< RELA addend (0 for REL)
};

struct Kernel {
  std::string name;                  ///< the symbol name (extern "C" names are unmangled)
  std::vector<uint8_t> code;         ///< the .text.<name> bytes: 16-byte instructions, or Maxwell's 8-byte words
  uint64_t code_file_offset = 0;     ///< where `code` starts in the file (for error messages)
  uint32_t register_count = 0;       ///< GPRs per thread (the .text section's sh_info bits 24-31)
  uint32_t shared_memory_size = 0;   ///< static shared memory bytes (.nv.shared.<name>)
  uint32_t local_memory_size = 0;    ///< per-thread stack frame bytes (EIATTR_FRAME_SIZE)
  uint32_t parameter_base = 0;       ///< byte offset of the parameters in constant bank 0 (EIATTR_PARAM_CBANK)
  uint32_t parameter_size = 0;       ///< bytes of parameters (EIATTR_PARAM_CBANK / CBANK_PARAM_SIZE)
  std::vector<KernelParameter> parameters;  ///< sorted by ordinal
  std::vector<uint32_t> exit_offsets;       ///< byte offsets of EXIT instructions (EIATTR_EXIT_INSTR_OFFSETS)
  std::optional<std::array<uint32_t, 3>> required_block_size;  ///< EIATTR_REQNTID (__launch_bounds__ / reqntid)
  uint32_t max_threads = 0;          ///< EIATTR_MAX_THREADS, 0 when absent
  std::vector<uint8_t> constant0;    ///< .nv.constant0.<name>: driver constants + parameters, as the kernel sees them
  std::vector<ConstantBank> constant_banks;  ///< banks 1-17 it can read (module banks, then its own), by bank number
  std::vector<InfoAttribute> other_attributes;  ///< attributes not interpreted above
  /// Code offsets that a .rel.text.<name> entry patches: operands the loader fills in (a symbol's address in
  /// MOV/MOV32I/UMOV, an absolute call's target), which the word holds as 0.
  std::vector<uint64_t> code_relocations;
  std::vector<CodeRelocation> code_symbols;  ///< the same relocations with their symbols, in the same order

  DecodeLocation location(const std::string& file) const { return {file, name, code_file_offset}; }
};

/// The two NVIDIA instruction encodings a cubin can hold.
enum class InstructionSet : uint8_t {
  maxwell,  ///< sm_50-62: 64-bit instructions, a scheduling control word before every three (translator/sass/sm5x)
  volta,    ///< sm_70-90: 128-bit instructions with their control bits (this decoder)
};

/// Where CUDA's driver puts the launch shape in constant bank 0 (byte offsets of three-word vectors and of the
/// local-memory stack top), which differs between the two families.
struct DriverConstants {
  uint32_t block_dim = 0;  ///< blockDim.x, .y, .z
  uint32_t grid_dim = 0;   ///< gridDim.x, .y, .z
  uint32_t stack_top = 0;  ///< the per-thread local-memory size the kernel's first MOV R1 reads
};
/// Maxwell/Pascal: blockDim at 0x8, gridDim at 0x14, stack at 0x20 (parameters from 0x140); Volta and later:
/// 0x0, 0xc, 0x28 (parameters from 0x160). From the kernels' own reads in the CUDA 11.8 listings.
constexpr DriverConstants driver_constants(InstructionSet family) {
  return family == InstructionSet::maxwell ? DriverConstants{0x8, 0x14, 0x20} : DriverConstants{0x0, 0xc, 0x28};
}

struct Cubin {
  std::string file;                  ///< the name errors use
  uint32_t sm_version = 0;           ///< from the ELF header: 50, 53, 75, 86, 90, ...
  InstructionSet family = InstructionSet::volta;
  /// The Volta-family encoding variant (sm_70-75 decode as sm75, sm_80-90 as sm86); unused for Maxwell cubins.
  Architecture architecture = Architecture::sm86;
  uint32_t instruction_size() const { return family == InstructionSet::maxwell ? 8 : 16; }
  std::vector<Kernel> kernels;       ///< in section order
  /// The module's global memory (what a loader allocates once per module): .nv.global.init's bytes followed by
  /// .nv.global's zeroed bytes. Constant-bank relocations point into it.
  std::vector<uint8_t> global_init;
  uint64_t global_size = 0;          ///< bytes in all (>= global_init.size())

  const Kernel* find_kernel(std::string_view name) const;
};

/// Parses a cubin held in memory. `file` names it in errors. Throws kiln::Error (file + offset + what was
/// expected) on anything malformed: not ELF64, truncated sections, bad .nv.info records, odd code sizes.
Cubin parse_cubin(std::span<const uint8_t> bytes, const std::string& file);

/// Reads and parses a cubin file.
Cubin load_cubin(const std::filesystem::path& path);

} // namespace kiln::sass::sm86
