// Cubin parsing: ELF64 section headers and symbols, then the per-kernel sections ptxas writes
// (.text.K, .nv.info.K, .nv.constant0.K, .nv.shared.K) and the file-wide .nv.info attributes keyed by symbol.
#include "translator/sass/sm86/cubin.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "runtime/base/byte_reader.h"
#include "runtime/base/file_writer.h"

namespace kiln::sass::sm86 {
namespace {

// EIATTR numbers (the attribute byte of a .nv.info record) and EIFMT record formats.
constexpr uint8_t kFormatNone = 1, kFormatByte = 2, kFormatHalf = 3, kFormatSized = 4;
constexpr uint8_t kAttrMaxThreads = 0x05, kAttrParamCbank = 0x0a, kAttrRequiredThreads = 0x10,
                  kAttrFrameSize = 0x11, kAttrKernelParamInfo = 0x17, kAttrCbankParamSize = 0x19,
                  kAttrExitOffsets = 0x1c, kAttrRegisterCount = 0x2f;

constexpr uint32_t kSectionNoBits = 8;

struct Section {
  std::string name;
  uint32_t name_offset = 0;
  uint32_t type = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t link = 0;
  uint32_t info = 0;
  uint64_t header_offset = 0;
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
  cubin.sm_version = extract_bits(flags, 8, 8);
  if (cubin.sm_version == 75) cubin.architecture = Architecture::sm75;
  else if (cubin.sm_version >= 80 && cubin.sm_version < 90) cubin.architecture = Architecture::sm86;
  else reader.fail_at(0x30, fmt::format("cubin for sm_{} (flags 0x{:x}): kiln decodes sm_75 and sm_8x", cubin.sm_version, flags));

  const uint64_t section_table = reader.peek_at<uint64_t>(0x28);
  const uint16_t entry_size = reader.peek_at<uint16_t>(0x3a);
  const uint16_t section_count = reader.peek_at<uint16_t>(0x3c);
  const uint16_t names_index = reader.peek_at<uint16_t>(0x3e);
  if (entry_size != 64) reader.fail_at(0x3a, fmt::format("section header size {} (ELF64 uses 64)", entry_size));
  if (names_index >= section_count) reader.fail_at(0x3e, fmt::format("section-name table index {} >= section count {}", names_index, section_count));
  if (section_table > bytes.size() || uint64_t{section_count} * 64 > bytes.size() - section_table) {
    reader.fail_at(0x28, fmt::format("section headers (offset 0x{:x}, {} entries) run past the end of the file ({} bytes)",
                                     section_table, section_count, bytes.size()));
  }

  std::vector<Section> sections(section_count);
  for (size_t i = 0; i < section_count; ++i) {
    ByteReader header = reader.sub_reader(section_table + i * 64, 64);
    Section& section = sections[i];
    section.header_offset = header.absolute_offset();
    section.name_offset = header.u32();
    section.type = header.u32();
    header.skip(16);  // flags, address
    section.offset = header.u64();
    section.size = header.u64();
    section.link = header.u32();
    section.info = header.u32();
    if (section.type != kSectionNoBits && section.type != 0 &&
        (section.offset > bytes.size() || section.size > bytes.size() - section.offset)) {
      reader.fail_at(section.header_offset, fmt::format("section {} (offset 0x{:x}, size 0x{:x}) runs past the end of the file ({} bytes)",
                                                        i, section.offset, section.size, bytes.size()));
    }
  }
  const Section& names = sections[names_index];
  ByteReader name_table = reader.sub_reader(names.offset, names.size);
  for (auto& section : sections) {
    const uint32_t name = section.name_offset;
    if (name >= name_table.size()) reader.fail_at(section.header_offset, fmt::format("section name offset 0x{:x} outside the name table", name));
    name_table.seek(name);
    section.name = std::string(name_table.c_string());
  }

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

  const std::string text_prefix = ".text.";
  for (size_t index = 0; index < sections.size(); ++index) {
    const Section& text = sections[index];
    if (!text.name.starts_with(text_prefix)) continue;
    Kernel kernel;
    kernel.name = text.name.substr(text_prefix.size());
    if (text.size % 16 != 0) {
      reader.fail_at(text.offset, fmt::format("kernel {}: code size {} is not a multiple of 16 bytes", kernel.name, text.size));
    }
    const auto code = reader.span_at(text.offset, text.size);
    kernel.code.assign(code.begin(), code.end());
    kernel.code_file_offset = text.offset;
    const uint32_t symbol = extract_bits(text.info, 0, 24);
    kernel.register_count = extract_bits(text.info, 24, 8);
    if (auto it = register_counts.find(symbol); it != register_counts.end()) kernel.register_count = it->second;
    if (auto it = frame_sizes.find(symbol); it != frame_sizes.end()) kernel.local_memory_size = it->second;

    for (const auto& section : sections) {
      if (section.info != index) continue;
      if (section.name == ".nv.info." + kernel.name) {
        for (auto& record : read_info_records(reader, section)) apply_kernel_attribute(kernel, record, section.name);
      } else if (section.name == ".nv.constant0." + kernel.name) {
        const auto constants = reader.span_at(section.offset, section.size);
        kernel.constant0.assign(constants.begin(), constants.end());
      } else if (section.name == ".nv.shared." + kernel.name) {
        kernel.shared_memory_size = static_cast<uint32_t>(section.size);
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
      if (exit % 16 != 0 || exit >= kernel.code.size()) {
        reader.fail_at(text.offset, fmt::format("kernel {}: EXIT offset 0x{:x} is not an instruction of its {}-byte code",
                                                kernel.name, exit, kernel.code.size()));
      }
    }
    cubin.kernels.push_back(std::move(kernel));
  }
  return cubin;
}

Cubin load_cubin(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return parse_cubin(bytes, path.string());
}

} // namespace kiln::sass::sm86
