#include "tests/switch/npdm_writer.h"

#include "recompiler/loaders/switch/npdm.h"
#include "runtime/base/bits.h"

namespace kiln::nx::testing {
namespace {

template <typename T>
void put_at(std::vector<uint8_t>& out, size_t at, T value) {
  if (out.size() < at + sizeof(T)) out.resize(at + sizeof(T), 0);
  store<T>(out.data() + at, value, Endian::little);
}

/// Service access control: per entry a control byte (length - 1 in bits 0-2, bit 7 server) and the name.
std::vector<uint8_t> access_list(const NpdmFields& f) {
  std::vector<uint8_t> out;
  auto add = [&](const std::string& name, bool server) {
    out.push_back(static_cast<uint8_t>((name.size() - 1) | (server ? 0x80 : 0)));
    out.insert(out.end(), name.begin(), name.end());
  };
  for (const std::string& s : f.services) add(s, false);
  for (const std::string& s : f.server_services) add(s, true);
  return out;
}

} // namespace

std::vector<uint8_t> write_npdm(const NpdmFields& f) {
  using namespace npdm_layout;
  std::vector<uint8_t> out(meta_size, 0);
  put_at<uint32_t>(out, 0x00, meta_magic);
  put_at<uint8_t>(out, 0x0c, 1 | 3 << 1); // 64-bit instructions, 39-bit address space
  put_at<uint8_t>(out, 0x0e, f.main_thread_priority);
  put_at<uint8_t>(out, 0x0f, f.main_thread_core);
  put_at<uint32_t>(out, 0x14, f.system_resource_size);
  put_at<uint32_t>(out, 0x1c, f.main_thread_stack_size);
  for (size_t i = 0; i < f.name.size() && i < 0x10; ++i) out[0x20 + i] = static_cast<uint8_t>(f.name[i]);

  // ACI0: header, FS access header, service access control; no kernel capabilities.
  const std::vector<uint8_t> sac = access_list(f);
  const uint32_t aci0_at = static_cast<uint32_t>(meta_size);
  const uint32_t fs_at = static_cast<uint32_t>(aci0_header_size), sac_at = fs_at + static_cast<uint32_t>(fs_access_header_size);
  const uint32_t aci0_size = sac_at + static_cast<uint32_t>(sac.size());
  put_at<uint32_t>(out, aci0_at + 0x00, aci0_magic);
  put_at<uint64_t>(out, aci0_at + 0x10, f.program_id);
  put_at<uint32_t>(out, aci0_at + 0x20, fs_at);
  put_at<uint32_t>(out, aci0_at + 0x24, static_cast<uint32_t>(fs_access_header_size));
  put_at<uint32_t>(out, aci0_at + 0x28, sac_at);
  put_at<uint32_t>(out, aci0_at + 0x2c, static_cast<uint32_t>(sac.size()));
  put_at<uint32_t>(out, aci0_at + 0x30, aci0_size);
  put_at<uint32_t>(out, aci0_at + 0x34, 0);
  put_at<uint8_t>(out, aci0_at + fs_at + 0x00, 1); // FS access header version
  put_at<uint64_t>(out, aci0_at + fs_at + 0x04, f.fs_access_flags);
  put_at<uint32_t>(out, aci0_at + fs_at + 0x0c, static_cast<uint32_t>(fs_access_header_size)); // content owner info: empty
  put_at<uint32_t>(out, aci0_at + fs_at + 0x14, static_cast<uint32_t>(fs_access_header_size)); // save data owner info: empty
  out.resize(aci0_at + sac_at, 0);
  out.insert(out.end(), sac.begin(), sac.end());

  // ACID: signature and key (zero), then the header; the program id range holds the title's id.
  const uint32_t acid_at = static_cast<uint32_t>(align_up(out.size(), 0x10));
  const uint32_t acid_size = static_cast<uint32_t>(acid_header_size + fs_access_control_size);
  out.resize(acid_at + acid_size, 0);
  put_at<uint32_t>(out, acid_at + 0x220, static_cast<uint32_t>(acid_header_size));
  put_at<uint32_t>(out, acid_at + 0x224, static_cast<uint32_t>(fs_access_control_size));
  put_at<uint8_t>(out, acid_at + acid_header_size, 1); // version
  put_at<uint64_t>(out, acid_at + acid_header_size + 4, f.acid_fs_access_flags);
  put_at<uint32_t>(out, acid_at + 0x200, acid_magic);
  put_at<uint32_t>(out, acid_at + 0x204, acid_size - 0x100); // size from the public key on
  put_at<uint64_t>(out, acid_at + 0x210, f.program_id);
  put_at<uint64_t>(out, acid_at + 0x218, f.program_id);
  put_at<uint32_t>(out, 0x70, aci0_at);
  put_at<uint32_t>(out, 0x74, aci0_size);
  put_at<uint32_t>(out, 0x78, acid_at);
  put_at<uint32_t>(out, 0x7c, acid_size);
  return out;
}

} // namespace kiln::nx::testing
