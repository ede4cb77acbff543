#include "recompiler/loaders/dol/guest_image.h"

#include <fmt/format.h>

#include <algorithm>

#include "recompiler/loaders/dol/memory_map.h"
#include "runtime/base/bits.h"
#include "runtime/base/error.h"

namespace kiln::gamecube {

std::string mem1_ranges_text() {
  return fmt::format("{:#x}-{:#x} (cached) or {:#x}-{:#x} (uncached)", cached_base, cached_base + mem1_size - 1, uncached_base,
                     uncached_base + mem1_size - 1);
}

namespace {

std::string describe(const ImageSegment& s) {
  return fmt::format("{} [{:#x}, {:#x})", s.name, s.address, s.end()) + (s.source.empty() ? "" : " from " + s.source);
}

ErrorLocation where(const ImageSegment& s) {
  return s.source.empty() ? at_address("", s.address) : at_offset(s.source, s.file_offset);
}

} // namespace

void GuestImage::add_segment(ImageSegment segment) {
  const auto offset = mem1_offset(segment.address, segment.size);
  if (!offset)
    throw Error(where(segment), fmt::format("{} is outside MEM1, which is {}", describe(segment), mem1_ranges_text()));
  if (segment.bytes.size() > segment.size)
    throw Error(where(segment), fmt::format("{} holds {:#x} bytes, more than its size", describe(segment), segment.bytes.size()));
  for (const ImageSegment& other : segments) {
    const uint32_t other_offset = *mem1_offset(other.address, other.size);
    if (segment.size != 0 && other.size != 0 && *offset < other_offset + other.size && other_offset < *offset + segment.size)
      throw Error(where(segment), fmt::format("{} overlaps {} in MEM1", describe(segment), describe(other)));
  }
  const auto at = std::upper_bound(segments.begin(), segments.end(), segment.address,
                                   [](uint32_t a, const ImageSegment& s) { return a < s.address; });
  segments.insert(at, std::move(segment));
}

const ImageSegment* GuestImage::segment_at(uint32_t address) const {
  for (const ImageSegment& s : segments)
    if (s.contains(address)) return &s;
  return nullptr;
}

ImageSegment* GuestImage::segment_at(uint32_t address) {
  return const_cast<ImageSegment*>(static_cast<const GuestImage*>(this)->segment_at(address));
}

std::vector<uint8_t> GuestImage::read(uint32_t address, uint32_t size) const {
  std::vector<uint8_t> out(size, 0);
  uint64_t done = 0;
  while (done < size) {
    const uint64_t at = uint64_t{address} + done;
    const ImageSegment* s = at <= 0xffffffffu ? segment_at(static_cast<uint32_t>(at)) : nullptr;
    if (!s) throw Error(at_address(name, at), fmt::format("no segment of {} holds address {:#x}", name, at));
    const uint64_t inside = at - s->address;
    const uint64_t count = std::min<uint64_t>(size - done, s->size - inside);
    if (inside < s->bytes.size())
      std::copy_n(s->bytes.begin() + static_cast<std::ptrdiff_t>(inside), std::min<uint64_t>(count, s->bytes.size() - inside),
                  out.begin() + static_cast<std::ptrdiff_t>(done));
    done += count;
  }
  return out;
}

uint32_t GuestImage::read_word(uint32_t address) const { return load<uint32_t>(read(address, 4).data(), Endian::big); }

} // namespace kiln::gamecube
