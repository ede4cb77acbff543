#pragma once
// A PFS0 written field by field from switchbrew's "PFS0" page (not from kiln's reader): header "PFS0", file
// count, string table size, reserved; 0x18-byte entries {data offset, size, name offset, reserved}; the
// string table; the data. Names are padded to a multiple of 0x20 bytes, as packers commonly align the data.
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::test {

struct Pfs0Input {
  std::string name;
  std::vector<uint8_t> bytes;
};

inline std::vector<uint8_t> make_pfs0(const std::vector<Pfs0Input>& files) {
  std::string strings;
  std::vector<uint32_t> name_offsets;
  for (const Pfs0Input& f : files) {
    name_offsets.push_back(static_cast<uint32_t>(strings.size()));
    strings += f.name;
    strings += '\0';
  }
  while ((0x10 + 0x18 * files.size() + strings.size()) % 0x20) strings += '\0';
  std::vector<uint8_t> out;
  auto u32 = [&](uint32_t v) { for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i))); };
  auto u64 = [&](uint64_t v) { for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i))); };
  u32(0x30534650);
  u32(static_cast<uint32_t>(files.size()));
  u32(static_cast<uint32_t>(strings.size()));
  u32(0);
  uint64_t data_offset = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    u64(data_offset);
    u64(files[i].bytes.size());
    u32(name_offsets[i]);
    u32(0);
    data_offset += files[i].bytes.size();
  }
  out.insert(out.end(), strings.begin(), strings.end());
  for (const Pfs0Input& f : files) out.insert(out.end(), f.bytes.begin(), f.bytes.end());
  return out;
}

} // namespace kiln::test
