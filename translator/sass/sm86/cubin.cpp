// Cubin parsing: the ELF64 tables through the shared container (runtime/base/elf_container.h), then the
// per-kernel sections ptxas writes (.text.K, .nv.info.K, .nv.constant0.K, .nv.shared.K) and the file-wide .nv.info
// attributes keyed by symbol.
#include "translator/sass/sm86/cubin.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "runtime/base/byte_reader.h"
#include "runtime/base/elf_container.h"
#include "runtime/base/file_writer.h"

namespace kiln::sass::sm86 {
namespace {

// EIATTR numbers (the attribute byte of a .nv.info record) and EIFMT record formats.
constexpr uint8_t kFormatNone = 1, kFormatByte = 2, kFormatHalf = 3, kFormatSized = 4;
constexpr uint8_t kAttrMaxThreads = 0x05, kAttrParamCbank = 0x0a, kAttrRequiredThreads = 0x10,
                  kAttrFrameSize = 0x11, kAttrKernelParamInfo = 0x17, kAttrCbankParamSize = 0x19,
                  kAttrExitOffsets = 0x1c, kAttrRegisterCount = 0x2f;

constexpr uint32_t kRelocationCuda64 = 2;  // R_CUDA_64: a 64-bit absolute address (nvlink's R_CUDA_* order)
constexpr uint32_t kMaxConstantBank = 17;

struct Section {
  std::string name;
  uint32_t type = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t link = 0;
  uint32_t info = 0;
  uint64_t alignment = 0;
  uint64_t header_offset = 0;
};

struct Symbol {
  std::string name;
  uint16_t section = 0;
  uint64_t value = 0;
};

struct InfoRecord {
  uint8_t format;
  uint8_t attribute;
  uint16_t half;                 // the inline value (format 2/3) or the size (format 4)
  ByteReader value;              // format 4 payload
  uint64_t file_offset;
};

std::vector<InfoRecord> read_info_records(const ByteReader& file, const Section& section) {
  ByteReader reader = file.sub_reader(section.offset, section.size);
  std::vector<InfoRecord> records;
  while (reader.remaining() > 0) {
    const uint64_t record_offset = reader.absolute_offset();
    const uint8_t format = reader.u8();
    const uint8_t attribute = reader.u8();
    const uint16_t half = reader.u16();
    if (format < kFormatNone || format > kFormatSized) {
      throw Error(at_offset(file.name(), record_offset),
                  fmt::format("{}: .nv.info record with unknown format {} (attribute 0x{:02x})", section.name, format,
                              attribute));
    }
    if (format == kFormatSized) {
      if (half > reader.remaining()) {
        throw Error(at_offset(file.name(), record_offset),
                    fmt::format("{}: .nv.info attribute 0x{:02x} claims {} bytes, {} left in the section",
                                section.name, attribute, half, reader.remaining()));
      }
      records.push_back({format, attribute, half, reader.sub_reader(reader.position(), half), record_offset});
      reader.skip(half);
    } else {
      records.push_back({format, attribute, half, ByteReader({}, file.name()), record_offset});
    }
  }
  return records;
}

void require_size(const InfoRecord& record, const std::string& section, size_t multiple, size_t minimum) {
  const size_t size = record.value.size();
  if (record.format != kFormatSized || size < minimum || size % multiple != 0) {
    throw Error(at_offset(record.value.name(), record.file_offset),
                fmt::format("{}: .nv.info attribute 0x{:02x} has {} bytes (format {}), expected a multiple of {}",
                            section, record.attribute, size, record.format, multiple));
  }
}

void apply_kernel_attribute(Kernel& kernel, InfoRecord& record, const std::string& section) {
  ByteReader& value = record.value;
  switch (record.attribute) {
  case kAttrParamCbank:
    require_size(record, section, 8, 8);
    (void)value.u32();  // the constant-bank symbol
    kernel.parameter_base = value.u16();
    kernel.parameter_size = value.u16();
    return;
  case kAttrCbankParamSize:
    if (record.format != kFormatHalf) break;
    kernel.parameter_size = record.half;
    return;
  case kAttrKernelParamInfo: {
    require_size(record, section, 12, 12);
    (void)value.u32();  // index (always 0)
    KernelParameter parameter;
    parameter.ordinal = value.u16();
    parameter.offset = value.u16();
    parameter.size = extract_bits(value.u32(), 18, 14);
    kernel.parameters.push_back(parameter);
    return;
  }
  case kAttrExitOffsets:
    require_size(record, section, 4, 4);
    while (value.remaining() > 0) kernel.exit_offsets.push_back(value.u32());
    return;
  case kAttrRequiredThreads:
    require_size(record, section, 12, 12);
    kernel.required_block_size = std::array<uint32_t, 3>{value.u32(), value.u32(), value.u32()};
    return;
  case kAttrMaxThreads:
    require_size(record, section, 12, 12);
    kernel.max_threads = value.u32() * value.u32() * value.u32();
    return;
  default: break;
  }
  const auto bytes = record.format == kFormatSized ? value.span_at(0, value.size()) : std::span<const uint8_t>();
  InfoAttribute other{record.format, record.attribute, {bytes.begin(), bytes.end()}};
  if (record.format == kFormatByte || record.format == kFormatHalf) {
    other.value = {static_cast<uint8_t>(record.half), static_cast<uint8_t>(record.half >> 8)};
  }
  kernel.other_attributes.push_back(std::move(other));
}

// ".nv.constantN" (module) or ".nv.constantN.<kernel>" (when `kernel` is given) -> N, for N in 1..17.
std::optional<uint32_t> constant_bank_number(const std::string& name, const std::string& kernel) {
  const std::string prefix = ".nv.constant";
  if (!name.starts_with(prefix)) return std::nullopt;
  const std::string rest = name.substr(prefix.size());
  const size_t dot = rest.find('.');
  const std::string number = rest.substr(0, dot);
  if (number.empty() || number.size() > 2 || number.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  if ((dot == std::string::npos) != kernel.empty() || (dot != std::string::npos && rest.substr(dot + 1) != kernel)) return std::nullopt;
  const uint32_t bank = static_cast<uint32_t>(std::stoul(number));
  if (bank == 0 || bank > kMaxConstantBank) return std::nullopt;
  return bank;
}

std::vector<Symbol> read_symbols(const elf::Container& container, const std::vector<elf::SectionHeader>& headers) {
  std::vector<Symbol> symbols;
  for (const auto& section : headers) {
    if (section.type != elf::sht_symtab) continue;
    for (const elf::SymbolEntry& entry : container.symbols(headers, section)) symbols.push_back(Symbol{entry.name, entry.section, entry.value});
  }
  return symbols;
}

// Module global memory: .nv.global.init's bytes, then .nv.global (zeroed) at its alignment. Returns each
// section's offset inside it.
std::map<size_t, uint64_t> lay_out_globals(const ByteReader& file, const std::vector<Section>& sections, Cubin& cubin) {
  std::map<size_t, uint64_t> placement;
  for (size_t i = 0; i < sections.size(); ++i) {
    if (sections[i].name != ".nv.global.init") continue;
    placement[i] = cubin.global_init.size();
    const auto bytes = file.span_at(sections[i].offset, sections[i].size);
    cubin.global_init.insert(cubin.global_init.end(), bytes.begin(), bytes.end());
  }
  cubin.global_size = cubin.global_init.size();
  for (size_t i = 0; i < sections.size(); ++i) {
    if (sections[i].name != ".nv.global") continue;
    const uint64_t alignment = std::max<uint64_t>(sections[i].alignment, 1);
    if (!is_power_of_two(alignment) || alignment > 4096) file.fail_at(sections[i].header_offset, fmt::format(".nv.global alignment {} is not a power of two up to 4096", alignment));
    placement[i] = align_up(cubin.global_size, alignment);
    cubin.global_size = placement[i] + sections[i].size;
  }
  return placement;
}

// The bank in section `index`, with the relocations of the ".rel" section that applies to it.
ConstantBank read_constant_bank(const ByteReader& file, const std::vector<Section>& sections, size_t index, uint32_t bank_number,
                                const std::vector<Symbol>& symbols, const std::map<size_t, uint64_t>& global_placement) {
  const Section& section = sections[index];
  ConstantBank bank;
  bank.bank = bank_number;
  const auto bytes = file.span_at(section.offset, section.size);
  bank.bytes.assign(bytes.begin(), bytes.end());
  for (const auto& rel : sections) {
    if (rel.type != elf::sht_rel || rel.info != index) continue;
    ByteReader reader = file.sub_reader(rel.offset, rel.size);
    while (reader.remaining() >= 16) {
      const uint64_t entry = reader.absolute_offset();
      const uint64_t offset = reader.u64();
      const uint64_t info = reader.u64();
      const uint32_t type = static_cast<uint32_t>(info), symbol_index = static_cast<uint32_t>(info >> 32);
      if (type != kRelocationCuda64) file.fail_at(entry, fmt::format("{}: relocation type {} (kiln applies R_CUDA_64 = 2 to constant banks)", rel.name, type));
      if (offset > bank.bytes.size() || bank.bytes.size() - offset < 8) file.fail_at(entry, fmt::format("{}: relocation at 0x{:x} outside the {}-byte bank", rel.name, offset, bank.bytes.size()));
      if (symbol_index >= symbols.size()) file.fail_at(entry, fmt::format("{}: relocation against symbol {}, the table has {}", rel.name, symbol_index, symbols.size()));
      const Symbol& symbol = symbols[symbol_index];
      const auto placed = global_placement.find(symbol.section);
      if (placed == global_placement.end()) {
        file.fail_at(entry, fmt::format("{}: relocation against {} in section {}, which is not module global memory (.nv.global.init/.nv.global)",
                                        rel.name, symbol.name, symbol.section));
      }
      ConstantRelocation relocation{static_cast<uint32_t>(offset), symbol.name, placed->second + symbol.value, 0};
      std::memcpy(&relocation.addend, bank.bytes.data() + offset, 8);
      bank.relocations.push_back(std::move(relocation));
    }
  }
  return bank;
}

} // namespace

const Kernel* Cubin::find_kernel(std::string_view name) const {
  for (const auto& kernel : kernels) {
    if (kernel.name == name) return &kernel;
  }
  return nullptr;
}

Cubin parse_cubin(std::span<const uint8_t> bytes, const std::string& file) {
  ByteReader reader(bytes, file);
  if (bytes.size() < 0x40 || reader.peek_at<uint32_t>(0) != 0x464c457fu) reader.fail_at(0, "not an ELF file (no \\x7fELF magic)");
  if (bytes[4] != 2 || bytes[5] != 1) reader.fail_at(4, "not a little-endian ELF64 file (a cubin is ELF64 LE)");
  const uint16_t machine = reader.peek_at<uint16_t>(0x12);
  if (machine != 190) reader.fail_at(0x12, fmt::format("ELF machine {} is not NVIDIA CUDA (190)", machine));

  Cubin cubin;
  cubin.file = file;
  const uint32_t flags = reader.peek_at<uint32_t>(0x30);
  // Two ELF ABIs: CUDA 12 and later write OS ABI 0x41 version 8 with the SM number in flag bits 8-15; earlier
  // toolkits write OS ABI 0x33 version 7 with it in bits 0-7 (and the virtual architecture in bits 16-23).
  const uint8_t os_abi = bytes[7], abi_version = bytes[8];
  if (os_abi == 0x41 && abi_version >= 8) cubin.sm_version = extract_bits(flags, 8, 8);
  else if (os_abi == 0x33 && abi_version == 7) cubin.sm_version = extract_bits(flags, 0, 8);
  else reader.fail_at(7, fmt::format("ELF OS ABI 0x{:02x} version {} is neither CUDA ABI (0x33 v7, 0x41 v8)", os_abi, abi_version));
  const uint32_t sm = cubin.sm_version;
  if (sm == 50 || sm == 52 || sm == 53 || (sm >= 60 && sm <= 62)) cubin.family = InstructionSet::maxwell;
  else if (sm == 70 || sm == 72 || sm == 75) cubin.architecture = Architecture::sm75;
  else if (sm == 80 || sm == 86 || sm == 87 || sm == 89 || sm == 90) cubin.architecture = Architecture::sm86;
  else reader.fail_at(0x30, fmt::format("cubin for sm_{} (flags 0x{:x}): kiln decodes sm_50-62 and sm_70-90", sm, flags));
  const uint32_t instruction_size = cubin.instruction_size();

  // The ELF tables through the one ELF reader: section headers with their names, symbols.
  const elf::Container container(bytes, file);
  const std::vector<elf::SectionHeader> headers = container.section_headers();
  std::vector<Section> sections;
  for (const elf::SectionHeader& h : headers)
    sections.push_back(Section{h.name, h.type, h.file_offset, h.size, h.link, h.info, h.alignment, h.header_offset});

  // File-wide attributes keyed by the kernel's symbol index.
  std::map<uint32_t, uint32_t> register_counts, frame_sizes;
  for (const auto& section : sections) {
    if (section.name != ".nv.info") continue;
    for (auto& record : read_info_records(reader, section)) {
      if (record.attribute != kAttrRegisterCount && record.attribute != kAttrFrameSize) continue;
      require_size(record, section.name, 8, 8);
      const uint32_t symbol = record.value.u32();
      (record.attribute == kAttrRegisterCount ? register_counts : frame_sizes)[symbol] = record.value.u32();
    }
  }

  const std::vector<Symbol> symbols = read_symbols(container, headers);
  const std::map<size_t, uint64_t> global_placement = lay_out_globals(reader, sections, cubin);
  std::vector<ConstantBank> module_banks;
  for (size_t index = 0; index < sections.size(); ++index) {
    if (auto bank = constant_bank_number(sections[index].name, "")) {
      module_banks.push_back(read_constant_bank(reader, sections, index, *bank, symbols, global_placement));
    }
  }

  const std::string text_prefix = ".text.";
  for (size_t index = 0; index < sections.size(); ++index) {
    const Section& text = sections[index];
    if (!text.name.starts_with(text_prefix)) continue;
    Kernel kernel;
    kernel.name = text.name.substr(text_prefix.size());
    if (text.size % instruction_size != 0 || text.size == 0) {
      reader.fail_at(text.offset, fmt::format("kernel {}: code size {} is not a positive multiple of {} bytes", kernel.name,
                                              text.size, instruction_size));
    }
    const auto code = reader.span_at(text.offset, text.size);
    kernel.code.assign(code.begin(), code.end());
    kernel.code_file_offset = text.offset;
    const uint32_t symbol = extract_bits(text.info, 0, 24);
    kernel.register_count = extract_bits(text.info, 24, 8);
    if (auto it = register_counts.find(symbol); it != register_counts.end()) kernel.register_count = it->second;
    if (auto it = frame_sizes.find(symbol); it != frame_sizes.end()) kernel.local_memory_size = it->second;

    kernel.constant_banks = module_banks;
    for (size_t other = 0; other < sections.size(); ++other) {
      const Section& section = sections[other];
      if (section.info != index) continue;
      if (section.type == elf::sht_rel || section.type == elf::sht_rela) {
        const size_t relocation_size = section.type == elf::sht_rela ? 24 : 16;  // RELA adds an addend
        ByteReader entries = reader.sub_reader(section.offset, section.size);
        while (entries.remaining() >= relocation_size) {
          const uint64_t entry = entries.absolute_offset();
          const uint64_t offset = entries.u64();
          const uint64_t info = entries.u64();
          const uint64_t addend = relocation_size == 24 ? entries.u64() : 0;
          if (offset >= kernel.code.size()) {
            reader.fail_at(entry, fmt::format("{}: relocation at 0x{:x} outside the {}-byte code", section.name, offset, kernel.code.size()));
          }
          kernel.code_relocations.push_back(offset);
          const auto symbol_index = static_cast<uint32_t>(info >> 32);
          if (symbol_index >= symbols.size()) {
            reader.fail_at(entry, fmt::format("{}: relocation against symbol {}, the table has {}", section.name, symbol_index, symbols.size()));
          }
          CodeRelocation relocation{offset, static_cast<uint32_t>(info), symbols[symbol_index].name, std::nullopt, addend};
          if (const auto placed = global_placement.find(symbols[symbol_index].section); placed != global_placement.end()) {
            relocation.global_offset = placed->second + symbols[symbol_index].value;
          }
          kernel.code_symbols.push_back(std::move(relocation));
        }
      }
      if (auto bank = constant_bank_number(section.name, kernel.name)) {
        kernel.constant_banks.push_back(read_constant_bank(reader, sections, other, *bank, symbols, global_placement));
      }
      if (section.name == ".nv.info." + kernel.name) {
        for (auto& record : read_info_records(reader, section)) apply_kernel_attribute(kernel, record, section.name);
      } else if (section.name == ".nv.constant0." + kernel.name) {
        const auto constants = reader.span_at(section.offset, section.size);
        kernel.constant0.assign(constants.begin(), constants.end());
      } else if (section.name == ".nv.shared." + kernel.name) {
        kernel.shared_memory_size = static_cast<uint32_t>(section.size);
      }
    }
    std::sort(kernel.constant_banks.begin(), kernel.constant_banks.end(),
              [](const ConstantBank& a, const ConstantBank& b) { return a.bank < b.bank; });
    for (size_t i = 1; i < kernel.constant_banks.size(); ++i) {
      if (kernel.constant_banks[i].bank == kernel.constant_banks[i - 1].bank) {
        reader.fail_at(text.offset, fmt::format("kernel {}: constant bank {} defined twice", kernel.name, kernel.constant_banks[i].bank));
      }
    }
    std::sort(kernel.parameters.begin(), kernel.parameters.end(),
              [](const KernelParameter& a, const KernelParameter& b) { return a.ordinal < b.ordinal; });
    for (const auto& parameter : kernel.parameters) {
      if (uint64_t{parameter.offset} + parameter.size > kernel.parameter_size) {
        reader.fail_at(text.offset, fmt::format("kernel {}: parameter {} (offset {}, size {}) lies outside the {}-byte parameter block",
                                                kernel.name, parameter.ordinal, parameter.offset, parameter.size, kernel.parameter_size));
      }
    }
    for (uint32_t exit : kernel.exit_offsets) {
      if (exit % instruction_size != 0 || exit >= kernel.code.size()) {
        reader.fail_at(text.offset, fmt::format("kernel {}: EXIT offset 0x{:x} is not an instruction of its {}-byte code",
                                                kernel.name, exit, kernel.code.size()));
      }
    }
    cubin.kernels.push_back(std::move(kernel));
  }
  if (cubin.kernels.empty()) reader.fail_at(0, "no kernel: the cubin has no .text.<kernel> section, so no code to translate");
  return cubin;
}

Cubin load_cubin(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file(path, kiln::input::gpu_program);
  return parse_cubin(bytes, path.string());
}

} // namespace kiln::sass::sm86
