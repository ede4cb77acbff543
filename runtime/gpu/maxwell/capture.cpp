#include "runtime/gpu/maxwell/capture.h"

#include <fmt/format.h>
#include <zstd.h>

#include <cstring>

#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/gpu/maxwell/channel.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/gpu.h"

namespace kiln::maxwell {

namespace {

constexpr char magic[8] = {'K', 'I', 'L', 'N', 'G', 'P', 'U', '1'};
constexpr uint32_t format_version = 2; // 2: per-channel host classes

class Writer {
public:
  void u8(uint8_t v) { bytes.push_back(v); }
  void u32(uint32_t v) { append(&v, 4); }
  void u64(uint64_t v) { append(&v, 8); }
  void hash(const Hash128& h) { u64(h.high); u64(h.low); }
  void append(const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    bytes.insert(bytes.end(), p, p + size);
  }
  std::vector<uint8_t> bytes;
};

Hash128 read_hash(ByteReader& in) {
  Hash128 h;
  h.high = in.u64();
  h.low = in.u64();
  return h;
}

} // namespace

uint32_t Capture::host_class(uint32_t channel) const {
  return channel < host_classes.size() ? host_classes[channel] : static_cast<uint32_t>(ClassId::host);
}

Hash128 Capture::add_blob(std::span<const uint8_t> bytes) {
  const Hash128 hash = hash128(bytes);
  blobs.try_emplace(hash, bytes.begin(), bytes.end());
  return hash;
}

void Capture::save(const std::filesystem::path& path) const {
  Writer body;
  body.u32(format_version);
  body.u32(channel_count);
  for (uint32_t channel = 0; channel < channel_count; ++channel) body.u32(host_class(channel));
  body.u32(static_cast<uint32_t>(blobs.size()));
  for (const auto& [hash, bytes] : blobs) {
    body.hash(hash);
    body.u32(static_cast<uint32_t>(bytes.size()));
    body.append(bytes.data(), bytes.size());
  }
  body.u32(static_cast<uint32_t>(pages.size()));
  for (const auto& [address, hash] : pages) {
    body.u64(address);
    body.hash(hash);
  }
  body.u32(static_cast<uint32_t>(events.size()));
  for (const CaptureEvent& event : events) {
    body.u8(static_cast<uint8_t>(event.kind));
    if (event.kind == CaptureEvent::Kind::submission) {
      body.u32(event.channel);
      body.u32(static_cast<uint32_t>(event.entries.size()));
      for (const GpfifoEntry& entry : event.entries) {
        body.u32(entry.word0());
        body.u32(entry.word1());
      }
    } else {
      body.u64(event.address);
      body.hash(event.content);
    }
  }
  std::vector<uint8_t> file(16 + ZSTD_compressBound(body.bytes.size()));
  std::memcpy(file.data(), magic, 8);
  const uint64_t body_size = body.bytes.size();
  std::memcpy(file.data() + 8, &body_size, 8);
  const size_t compressed = ZSTD_compress(file.data() + 16, file.size() - 16, body.bytes.data(), body.bytes.size(), 9);
  if (ZSTD_isError(compressed)) throw Error(in_file(path.string()), std::string("zstd: ") + ZSTD_getErrorName(compressed));
  file.resize(16 + compressed);
  write_file_if_changed(path, file);
}

Capture Capture::load(const std::filesystem::path& path) {
  const std::vector<uint8_t> file = read_file(path, kiln::input::gpu_capture);
  const std::string name = path.string();
  ByteReader header(file, name);
  const auto start = header.bytes(8);
  if (std::memcmp(start.data(), magic, 8) != 0) header.fail_at(0, "not a kiln GPU capture (magic KILNGPU1 expected)");
  const uint64_t body_size = header.u64();
  if (body_size > (uint64_t{1} << 34)) header.fail_at(8, fmt::format("body size {} is implausible", body_size));
  std::vector<uint8_t> body(body_size);
  const size_t size = ZSTD_decompress(body.data(), body.size(), file.data() + 16, file.size() - 16);
  if (ZSTD_isError(size) || size != body_size) {
    throw Error(at_offset(name, 16), fmt::format("zstd body does not decompress to {} bytes{}", body_size,
                                                 ZSTD_isError(size) ? std::string(": ") + ZSTD_getErrorName(size) : ""));
  }
  // Offsets in messages below are inside the decompressed body.
  ByteReader in(body, name + " (decompressed body)");
  Capture capture;
  const uint32_t version = in.u32();
  if (version != 1 && version != format_version) in.fail_at(0, fmt::format("capture version {} (kiln reads 1 and {})", version, format_version));
  capture.channel_count = in.u32();
  if (capture.channel_count > 4096) in.fail_at(4, "implausible channel count");
  for (uint32_t channel = 0; version >= 2 && channel < capture.channel_count; ++channel) {
    const size_t at = in.position();
    const uint32_t host = in.u32();
    if (!is_host_class(host)) in.fail_at(at, fmt::format("channel {}: {} is no host class", channel, class_name(host)));
    capture.host_classes.push_back(host);
  }
  const uint32_t blob_count = in.u32();
  for (uint32_t i = 0; i < blob_count; ++i) {
    const size_t at = in.position();
    const Hash128 hash = read_hash(in);
    const uint32_t blob_size = in.u32();
    const auto bytes = in.bytes(blob_size);
    if (hash128(bytes) != hash) in.fail_at(at, "blob content does not match its hash");
    capture.blobs.emplace(hash, std::vector<uint8_t>(bytes.begin(), bytes.end()));
  }
  const uint32_t page_count = in.u32();
  for (uint32_t i = 0; i < page_count; ++i) {
    const size_t at = in.position();
    const uint64_t address = in.u64();
    const Hash128 hash = read_hash(in);
    if (!capture.blobs.count(hash)) in.fail_at(at, fmt::format("page 0x{:x} names a blob the file lacks", address));
    if (address % AddressSpace::page_size != 0) in.fail_at(at, fmt::format("page address 0x{:x} is not aligned", address));
    capture.pages.emplace(address, hash);
  }
  const uint32_t event_count = in.u32();
  for (uint32_t i = 0; i < event_count; ++i) {
    const size_t at = in.position();
    CaptureEvent event;
    const uint8_t kind = in.u8();
    if (kind == 0) {
      event.kind = CaptureEvent::Kind::submission;
      event.channel = in.u32();
      if (event.channel >= capture.channel_count) in.fail_at(at, fmt::format("submission to channel {}", event.channel));
      const uint32_t count = in.u32();
      if (count > in.remaining() / 8) in.fail_at(at, "submission longer than the file");
      for (uint32_t k = 0; k < count; ++k) {
        const uint32_t word0 = in.u32();
        event.entries.push_back(GpfifoEntry::decode(word0, in.u32()));
      }
    } else if (kind == 1) {
      event.kind = CaptureEvent::Kind::cpu_write;
      event.address = in.u64();
      event.content = read_hash(in);
      if (!capture.blobs.count(event.content)) in.fail_at(at, "CPU write names a blob the file lacks");
    } else {
      in.fail_at(at, fmt::format("unknown event kind {}", kind));
    }
    capture.events.push_back(std::move(event));
  }
  if (in.remaining() != 0) in.fail("trailing bytes after the last event");
  return capture;
}

CaptureRecorder::CaptureRecorder(Gpu& gpu) : gpu_(gpu) {
  note_channels();
  gpu_.memory().set_first_touch_callback([this](uint64_t page, std::span<const uint8_t> bytes) {
    const Hash128 content = capture_.add_blob(bytes);
    capture_.pages.emplace(page, content);
    recorded_[page] = content;
  });
  gpu_.set_submit_observer([this](uint32_t channel, std::span<const GpfifoEntry> entries) {
    record_changed_pages();
    CaptureEvent event;
    event.channel = channel;
    event.entries.assign(entries.begin(), entries.end());
    capture_.events.push_back(std::move(event));
    note_channels();
  });
}

void CaptureRecorder::note_channels() {
  capture_.channel_count = std::max(capture_.channel_count, gpu_.channel_count());
  capture_.host_classes.resize(capture_.channel_count, static_cast<uint32_t>(ClassId::host));
  for (uint32_t channel = 0; channel < gpu_.channel_count(); ++channel) capture_.host_classes[channel] = gpu_.channel(channel).host_class();
}

CaptureRecorder::~CaptureRecorder() {
  if (!finished_) finish();
}

void CaptureRecorder::note_cpu_write(uint64_t address, uint64_t size) {
  // Pages the GPU never touched are captured now (with the new bytes: the GPU never saw the old ones).
  gpu_.memory().note_access(address, size, true);
  const std::vector<uint8_t> bytes = gpu_.memory().read_bytes(address, size);
  CaptureEvent event;
  event.kind = CaptureEvent::Kind::cpu_write;
  event.address = address;
  event.content = capture_.add_blob(bytes);
  capture_.events.push_back(std::move(event));
  // The pages this write covers hold their current bytes in the capture from here on.
  for (uint64_t page = address / AddressSpace::page_size * AddressSpace::page_size; page < address + size;
       page += AddressSpace::page_size) {
    if (recorded_.count(page)) recorded_[page] = hash128(gpu_.memory().read_bytes(page, AddressSpace::page_size));
  }
}

void CaptureRecorder::record_changed_pages() {
  for (auto& [page, content] : recorded_) {
    if (!gpu_.memory().is_mapped(page, AddressSpace::page_size)) continue;
    const std::vector<uint8_t> bytes = gpu_.memory().read_bytes(page, AddressSpace::page_size);
    const Hash128 now = hash128(bytes);
    if (now == content) continue;
    CaptureEvent event;
    event.kind = CaptureEvent::Kind::cpu_write;
    event.address = page;
    event.content = capture_.add_blob(bytes);
    content = event.content;
    capture_.events.push_back(std::move(event));
  }
}

Capture CaptureRecorder::finish() {
  if (!finished_) {
    finished_ = true;
    gpu_.memory().set_first_touch_callback(nullptr);
    gpu_.set_submit_observer(nullptr);
    note_channels();
  }
  return capture_;
}

} // namespace kiln::maxwell
