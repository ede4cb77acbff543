#include "recompiler/loaders/switch/npdm.h"

#include <fmt/format.h>

#include "runtime/base/byte_reader.h"

namespace kiln::nx {
namespace {

using namespace npdm_layout;

std::string fixed_string(const ByteReader& file, uint64_t at, uint64_t size) {
  const std::span<const uint8_t> bytes = file.span_at(at, size);
  std::string out;
  for (uint8_t c : bytes) {
    if (!c) break;
    out += static_cast<char>(c);
  }
  return out;
}

/// The [offset, offset + size) a header field pair gives, checked against the enclosing block.
ByteReader block(const ByteReader& outer, uint64_t field_at, uint64_t minimum, const char* what) {
  const uint64_t offset = outer.peek_at<uint32_t>(field_at), size = outer.peek_at<uint32_t>(field_at + 4);
  if (offset > outer.size() || size > outer.size() - offset)
    outer.fail_at(field_at, fmt::format("{} at {:#x}+{:#x} is outside its {:#x}-byte container", what, offset, size, outer.size()));
  if (size < minimum) outer.fail_at(field_at + 4, fmt::format("{} is {:#x} bytes, smaller than its {:#x}-byte header", what, size, minimum));
  return outer.sub_reader(offset, size);
}

} // namespace

Npdm read_npdm(std::span<const uint8_t> bytes, const std::string& name) {
  const ByteReader file(bytes, name);
  if (file.size() < meta_size) file.fail_at(0, fmt::format("NPDM truncated: file has {:#x} bytes, the META header needs {:#x}", file.size(), meta_size));
  if (file.peek_at<uint32_t>(0) != meta_magic) file.fail_at(0, "not an NPDM (no \"META\" magic)");
  Npdm npdm;
  npdm.flags = file.peek_at<uint8_t>(0x0c);
  npdm.main_thread_priority = file.peek_at<uint8_t>(0x0e);
  npdm.main_thread_core = file.peek_at<uint8_t>(0x0f);
  npdm.system_resource_size = file.peek_at<uint32_t>(0x14);
  npdm.version = file.peek_at<uint32_t>(0x18);
  npdm.main_thread_stack_size = file.peek_at<uint32_t>(0x1c);
  npdm.name = fixed_string(file, 0x20, 0x10);
  npdm.product_code = fixed_string(file, 0x30, 0x10);
  if (!(npdm.flags & 1)) file.fail_at(0x0c, "the title is not 64-bit (flags bit 0 clear): kiln recompiles AArch64 titles only");
  if (npdm.main_thread_priority > 63) file.fail_at(0x0e, fmt::format("main thread priority {} is outside 0..63", npdm.main_thread_priority));
  if (npdm.main_thread_stack_size == 0 || npdm.main_thread_stack_size % 0x1000)
    file.fail_at(0x1c, fmt::format("main thread stack size {:#x} is not a non-zero multiple of the 0x1000-byte page", npdm.main_thread_stack_size));

  const ByteReader aci0 = block(file, 0x70, aci0_header_size, "ACI0");
  if (aci0.peek_at<uint32_t>(0) != aci0_magic) aci0.fail_at(0, "no \"ACI0\" magic where the META header's ACI0 offset points");
  npdm.program_id = aci0.peek_at<uint64_t>(0x10);
  const ByteReader fs = block(aci0, 0x20, fs_access_header_size, "ACI0's FS access header");
  npdm.fs_access_flags = fs.peek_at<uint64_t>(0x04);
  const ByteReader sac = block(aci0, 0x28, 0, "ACI0's service access control");
  for (uint64_t at = 0; at < sac.size();) {
    const uint8_t control = sac.peek_at<uint8_t>(at);
    const uint64_t length = (control & 7) + 1u;
    if (length > sac.size() - at - 1) sac.fail_at(at, fmt::format("service access entry of {} characters runs past the list's end", length));
    std::string service = fixed_string(sac, at + 1, length);
    if (service.size() != length) sac.fail_at(at + 1, "service access entry holds a NUL");
    npdm.services.push_back({std::move(service), (control & 0x80) != 0});
    at += 1 + length;
  }
  block(aci0, 0x30, 0, "ACI0's kernel capabilities");

  const ByteReader acid = block(file, 0x78, acid_header_size, "ACID");
  if (acid.peek_at<uint32_t>(0x200) != acid_magic) acid.fail_at(0x200, "no \"ACID\" magic 0x200 bytes into the block the META header's ACID offset gives");
  npdm.acid_program_id_min = acid.peek_at<uint64_t>(0x210);
  npdm.acid_program_id_max = acid.peek_at<uint64_t>(0x218);
  const ByteReader acid_fs = block(acid, 0x220, fs_access_control_size, "ACID's FS access control");
  npdm.acid_fs_access_flags = acid_fs.peek_at<uint64_t>(0x04);
  if (npdm.program_id < npdm.acid_program_id_min || npdm.program_id > npdm.acid_program_id_max)
    aci0.fail_at(0x10, fmt::format("program id {:016x} is outside ACID's range {:016x}..{:016x}", npdm.program_id, npdm.acid_program_id_min,
                                   npdm.acid_program_id_max));
  return npdm;
}

} // namespace kiln::nx
