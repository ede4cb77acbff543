#pragma once
// A GPU virtual address space: ranges of GPU addresses mapped onto guest memory, as nvhost-as-gpu maps nvmap
// handles. Every engine reads and writes guest memory through it; an access outside the mapped ranges throws
// kiln::Error naming the GPU address.
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

namespace kiln::maxwell {

/// Owned backing store for tests and replays (a running title maps its own guest memory instead).
using GuestBytes = std::vector<uint8_t>;

/// Called once per page before its first access while a recorder is attached: the page's GPU address and its
/// bytes before that access (capture uses it to save the memory a frame starts from).
using FirstTouchCallback = std::function<void(uint64_t page_address, std::span<const uint8_t> bytes)>;

class AddressSpace {
public:
  static constexpr uint64_t page_size = 0x1000;
  static constexpr uint64_t address_limit = uint64_t{1} << 40; // Maxwell GPU addresses are 40 bits

  /// Maps [gpu_address, gpu_address + host.size()) onto `host`, which must outlive the mapping. Both address and
  /// size must be page-aligned; the range must not overlap a mapped one.
  void map(uint64_t gpu_address, std::span<uint8_t> host);
  /// Allocates owned zeroed memory and maps it; returns its host bytes.
  std::span<uint8_t> map_owned(uint64_t gpu_address, uint64_t size);
  void unmap(uint64_t gpu_address);

  bool is_mapped(uint64_t gpu_address, uint64_t size) const;
  void read(uint64_t gpu_address, std::span<uint8_t> out) const;
  void write(uint64_t gpu_address, std::span<const uint8_t> bytes);
  uint32_t read_u32(uint64_t gpu_address) const;
  uint64_t read_u64(uint64_t gpu_address) const;
  void write_u32(uint64_t gpu_address, uint32_t value);
  void write_u64(uint64_t gpu_address, uint64_t value);
  std::vector<uint8_t> read_bytes(uint64_t gpu_address, uint64_t size) const;

  /// Host pointer to a contiguous mapped range, or nullptr when the range is unmapped or crosses mappings.
  /// No first-touch callback is made (callers that use it for reads call note_read).
  const uint8_t* host_pointer(uint64_t gpu_address, uint64_t size) const;

  /// Every mapped range (GPU address, size), in address order.
  std::vector<std::pair<uint64_t, uint64_t>> mappings() const;

  void set_first_touch_callback(FirstTouchCallback callback);
  /// Only accesses while tracking is on count as touches (the GPU sets it while it processes, so the CPU's own
  /// set-up writes are part of the memory the GPU finds). `force` counts an access regardless.
  void set_tracking(bool on) { tracking_ = on; }
  void note_access(uint64_t gpu_address, uint64_t size, bool force = false) const;

private:
  struct Mapping {
    uint8_t* host;
    uint64_t size;
  };
  // Finds the mapping holding [address, address+size) entirely; throws naming the address otherwise.
  uint8_t* translate(uint64_t address, uint64_t size, const char* what) const;

  std::map<uint64_t, Mapping> mappings_;
  std::map<uint64_t, GuestBytes> owned_;
  FirstTouchCallback first_touch_;
  bool tracking_ = false;
  mutable std::unordered_set<uint64_t> touched_;
};

} // namespace kiln::maxwell
