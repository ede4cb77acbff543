#pragma once
// The capture format: a frame's GPFIFO submissions and the guest memory they read, content-addressed and
// zstd-compressed, so a porter can replay the frame without the title.
//
// File: "KILNGPU1", u64 body size, then one zstd frame holding the body (little-endian):
//   u32 version (2), u32 channel count, channel count x u32 host class (B06F or C56F; version 1 has none: B06F),
//   u32 blob count, blobs {16-byte XXH128, u32 size, bytes} (each distinct page content once),
//   u32 page count, pages {u64 GPU address, 16-byte hash}: memory as the frame found it,
//   u32 event count, events in order: u8 0 = submission {u32 channel, u32 count, count x (u32 word0, u32 word1)},
//                                     u8 1 = CPU write {u64 GPU address, 16-byte hash} between submissions.
#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <vector>

#include "runtime/base/hash.h"
#include "runtime/gpu/maxwell/pushbuffer.h"

namespace kiln::maxwell {

class Gpu;

struct HashLess {
  bool operator()(const Hash128& a, const Hash128& b) const {
    return a.high != b.high ? a.high < b.high : a.low < b.low;
  }
};

struct CaptureEvent {
  enum class Kind : uint8_t { submission = 0, cpu_write = 1 };
  Kind kind = Kind::submission;
  uint32_t channel = 0;
  std::vector<GpfifoEntry> entries;
  uint64_t address = 0; ///< cpu_write
  Hash128 content{};    ///< cpu_write
};

struct Capture {
  uint32_t channel_count = 0;
  std::vector<uint32_t> host_classes; ///< per channel (missing entries: B06F)
  /// Channel `channel`'s host class.
  uint32_t host_class(uint32_t channel) const;
  std::map<Hash128, std::vector<uint8_t>, HashLess> blobs;
  std::map<uint64_t, Hash128> pages; ///< page GPU address -> content
  std::vector<CaptureEvent> events;

  void save(const std::filesystem::path& path) const;
  /// Throws kiln::Error naming the file and offset for a damaged or foreign file.
  static Capture load(const std::filesystem::path& path);
  Hash128 add_blob(std::span<const uint8_t> bytes);
};

/// Records what a Gpu processes from now on: each page's content before its first access and every submission.
class CaptureRecorder {
public:
  explicit CaptureRecorder(Gpu& gpu);
  ~CaptureRecorder();
  CaptureRecorder(const CaptureRecorder&) = delete;
  CaptureRecorder& operator=(const CaptureRecorder&) = delete;

  /// The CPU changed guest memory the GPU may read later. Optional: at every submission the recorder also
  /// compares each page the GPU has touched with what it last recorded and records the pages that changed, so a
  /// running title that never calls this is captured faithfully too.
  void note_cpu_write(uint64_t address, uint64_t size);
  /// Stops recording and returns the capture.
  Capture finish();

private:
  /// Records a cpu_write event for every touched page whose bytes differ from what the capture holds for it.
  void record_changed_pages();
  /// The channel count and each channel's host class, as the GPU has them now.
  void note_channels();

  Gpu& gpu_;
  Capture capture_;
  std::map<uint64_t, Hash128> recorded_; ///< page -> the content the capture gives it at this point of the events
  bool finished_ = false;
};

} // namespace kiln::maxwell
