// audren:u, the audio renderer (switchbrew "Audio services": IAudioRendererManager, IAudioRenderer and the
// AudioRendererParameter; the RequestUpdate data as libnx's audren.h lays it out: an UpdateDataHeader of 0x40
// bytes, then behaviour 0x10, memory pools 0x20 each, voice channel resources 0x70 each, voices 0x170 each,
// effects 0xc0 each, mixes 0x930 each, sinks 0x140 each, the performance buffer 0x10; the reply: the header,
// memory pools 0x10 each, voices 0x10 each, effects 0x10 each, sinks 0x20 each, performance 0x10, behaviour
// 0xb0). A renderer thread renders one frame of `sample_count` samples every 5 ms while started: each started
// PCM16 voice's wave buffers (a ring of four; a slot whose sent_to_server flag is clear holds a new buffer)
// are resampled to the renderer's 48 kHz by the host's resampler (docs/host.md's formula), scaled by the voice's
// volume and its channel resources' mix volumes into the final mix's buffers, scaled by the final mix's volume,
// and the device sink's first two inputs are the stereo frame that goes to the same output as audout's.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <deque>
#include <mutex>
#include <vector>

#include "runtime/base/log.h"
#include "runtime/core/guest_memory.h"
#include "runtime/host/audio_resampler.h"
#include "runtime/platform/switch/services/audio/audio_destination.h"
#include "runtime/platform/switch/services/default_services.h"
#include "runtime/platform/switch/services/periodic_thread.h"

namespace kiln::hos {

namespace {

constexpr uint32_t audio_module = 153;
constexpr Result invalid_parameter = make_result(audio_module, 41);   ///< kiln's choice for a parameter it cannot render
constexpr Result invalid_update_data = make_result(audio_module, 42); ///< sizes or buffers that do not fit the layout
constexpr uint32_t state_started = 0, state_stopped = 1;
constexpr uint32_t revision_magic = 0x00564552; // "REV" and the revision digit in the top byte
constexpr size_t mix_buffers_max = 24, voice_channels_max = 6, wave_buffer_slots = 4;
constexpr std::chrono::microseconds frame_period(5000); // 200 frames a second

// Sizes of the update data's parts (libnx audren.h).
constexpr size_t header_size = 0x40, behavior_in_size = 0x10, memory_pool_in_size = 0x20, channel_in_size = 0x70,
                 voice_in_size = 0x170, effect_in_size = 0xc0, mix_in_size = 0x930, sink_in_size = 0x140, performance_in_size = 0x10;
constexpr size_t memory_pool_out_size = 0x10, voice_out_size = 0x10, effect_out_size = 0x10, sink_out_size = 0x20,
                 performance_out_size = 0x10, behavior_out_size = 0xb0;
constexpr uint32_t pool_request_detach = 2, pool_detached = 3, pool_request_attach = 4, pool_attached = 5;
constexpr uint8_t voice_started = 0, voice_paused = 2, format_pcm16 = 2;
constexpr uint8_t sink_device = 1;
constexpr uint32_t final_mix_id = 0;

/// AudioRendererParameter (0x34 bytes).
struct RendererParameter {
  int32_t sample_rate, sample_count, mix_buffer_count, submix_count, voice_count, sink_count, effect_count, performance_frame_count;
  uint8_t voice_drop_enable, padding[3];
  int32_t splitter_count, splitter_destination_count, external_context_size;
  uint32_t revision;
};
static_assert(sizeof(RendererParameter) == 0x34);

/// UpdateDataHeader: revision, then the sizes of the parts in order, total size at 0x3c.
struct UpdateHeader {
  uint32_t revision, behavior, memory_pools, voices, channels, effects, mixes, sinks, performance, padding[6], total;
};
static_assert(sizeof(UpdateHeader) == header_size);

template <typename T>
T field(const uint8_t* base, size_t offset) {
  T value;
  std::memcpy(&value, base + offset, sizeof value);
  return value;
}

/// Why a parameter set cannot be rendered, or empty.
std::string unsupported(const RendererParameter& p) {
  if ((p.revision & 0xffffff) != revision_magic) return fmt::format("revision {:#x} is not 'REVn'", p.revision);
  if (p.sample_rate != static_cast<int32_t>(audio_device_rate)) return fmt::format("sample rate {} (kiln renders 48000)", p.sample_rate);
  if (p.sample_count != p.sample_rate / 200) return fmt::format("sample count {} (a 5 ms frame is {})", p.sample_count, p.sample_rate / 200);
  if (p.mix_buffer_count < 1 || p.mix_buffer_count > static_cast<int32_t>(mix_buffers_max)) return fmt::format("{} mix buffers", p.mix_buffer_count);
  if (p.voice_count < 1 || p.voice_count > 1024 || p.sink_count < 1 || p.sink_count > 256 || p.effect_count < 0 || p.effect_count > 256 ||
      p.submix_count < 0 || p.submix_count > 255)
    return fmt::format("{} voices, {} sinks, {} effects, {} submixes", p.voice_count, p.sink_count, p.effect_count, p.submix_count);
  if (p.splitter_count != 0) return fmt::format("{} splitters (kiln has none yet)", p.splitter_count);
  return {};
}

/// What GetWorkBufferSize answers: kiln keeps the renderer's state in host memory, so the guest's work buffer
/// only has to exist; this is a page-rounded size in proportion to the configuration.
uint64_t work_buffer_size(const RendererParameter& p) {
  const uint64_t size = 0x4000 + uint64_t(p.voice_count) * 0x400 + uint64_t(p.mix_buffer_count) * uint64_t(p.sample_count) * 4 +
                        uint64_t(p.sink_count + p.effect_count + p.submix_count + 1) * 0x400;
  return (size + 0xfff) & ~uint64_t{0xfff};
}

struct WaveBuffer {
  uint64_t address = 0, size = 0;
  int32_t start = 0, end = 0; ///< sample offsets (frames) within the buffer
  bool queued = false;
};

struct Voice {
  bool used = false, reported_pitch = false;
  uint8_t state = 1;
  uint32_t sample_rate = 0, channel_count = 0, destination_mix = 0;
  float volume = 1;
  std::array<uint32_t, voice_channels_max> channel_ids{};
  std::array<WaveBuffer, wave_buffer_slots> slots;
  size_t next_slot = 0;                ///< the slot that plays next
  uint32_t consumed = 0;               ///< wave buffers done (num_wavebufs_consumed)
  uint64_t played = 0;                 ///< input frames handed to the resampler (played_sample_count)
  std::optional<host::Resampler> resampler;
  std::deque<int16_t> resampled;       ///< 48 kHz frames not yet mixed, interleaved
};

class AudioRenderer final : public ipc::ServiceObject {
public:
  AudioRenderer(Kernel* kernel, const RendererParameter& parameter, std::shared_ptr<AudioDestination> destination)
      : kernel_(kernel), parameter_(parameter), destination_(std::move(destination)), voices_(size_t(std::max(parameter.voice_count, 0))),
        channel_mix_(voices_.size()) {}
  std::string_view name() const override { return "audren:IAudioRenderer"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "GetSampleRate", ipc::bind<&AudioRenderer::get_sample_rate>},
        {1, "GetSampleCount", ipc::bind<&AudioRenderer::get_sample_count>},
        {2, "GetMixBufferCount", ipc::bind<&AudioRenderer::get_mix_buffer_count>},
        {3, "GetState", ipc::bind<&AudioRenderer::get_state>},
        {4, "RequestUpdate", ipc::bind<&AudioRenderer::request_update>},
        {5, "Start", ipc::bind<&AudioRenderer::start>},
        {6, "Stop", ipc::bind<&AudioRenderer::stop>},
        {7, "QuerySystemEvent", ipc::bind<&AudioRenderer::query_system_event>},
        {8, "SetRenderingTimeLimit", ipc::bind<&AudioRenderer::set_rendering_time_limit>},
        {9, "GetRenderingTimeLimit", ipc::bind<&AudioRenderer::get_rendering_time_limit>},
        {10, "RequestUpdateAuto", ipc::bind<&AudioRenderer::request_update>},
    };
    return table;
  }
  Result get_sample_rate(ipc::Context& c) {
    c.write(uint32_t(parameter_.sample_rate));
    return success;
  }
  Result get_sample_count(ipc::Context& c) {
    c.write(uint32_t(parameter_.sample_count));
    return success;
  }
  Result get_mix_buffer_count(ipc::Context& c) {
    c.write(uint32_t(parameter_.mix_buffer_count));
    return success;
  }
  Result get_state(ipc::Context& c) {
    std::lock_guard lock(lock_);
    c.write(started_ ? state_started : state_stopped);
    return success;
  }
  Result start(ipc::Context&) {
    std::lock_guard lock(lock_);
    started_ = true;
    start_clock();
    return success;
  }
  Result stop(ipc::Context&) {
    std::lock_guard lock(lock_);
    started_ = false;
    return success;
  }
  /// The event signalled after every rendered frame (200 times a second once the clock runs).
  Result query_system_event(ipc::Context& c) {
    {
      std::lock_guard lock(lock_);
      start_clock();
    }
    c.push_copy_handle(event_);
    return success;
  }
  Result set_rendering_time_limit(ipc::Context& c) {
    std::lock_guard lock(lock_);
    time_limit_ = c.read<uint32_t>();
    return success;
  }
  Result get_rendering_time_limit(ipc::Context& c) {
    std::lock_guard lock(lock_);
    c.write(time_limit_);
    return success;
  }

  /// B (or C) buffers: the reply, the performance buffer; A (or X): the update data.
  Result request_update(ipc::Context& c) {
    const ipc::GuestBuffer in = c.in_auto(0), out = c.out_auto(0);
    const size_t pools = size_t(parameter_.effect_count) + 4 * voices_.size(), voices = voices_.size();
    const size_t effects = size_t(parameter_.effect_count), mixes = size_t(parameter_.submix_count) + 1, sinks = size_t(parameter_.sink_count);
    const auto refuse = [&](const std::string& why) {
      c.kernel().report_once("audren update " + why, fmt::format("audren: RequestUpdate at guest address {:#x}: {}; replying {:#x}", c.pc(),
                                                                 why, invalid_update_data));
      return invalid_update_data;
    };
    if (in.size < header_size) return refuse(fmt::format("update data of {:#x} bytes has no header", in.size));
    const uint8_t* data = in.host();
    const UpdateHeader h = field<UpdateHeader>(data, 0);
    if (h.behavior != behavior_in_size || h.memory_pools != pools * memory_pool_in_size || h.channels != voices * channel_in_size ||
        h.voices != voices * voice_in_size || h.effects != effects * effect_in_size || h.mixes != mixes * mix_in_size ||
        h.sinks != sinks * sink_in_size)
      return refuse(fmt::format("part sizes {:#x} {:#x} {:#x} {:#x} {:#x} {:#x} {:#x} do not fit the renderer's {} pools, {} voices, "
                                "{} effects, {} mixes, {} sinks",
                                h.behavior, h.memory_pools, h.channels, h.voices, h.effects, h.mixes, h.sinks, pools, voices, effects, mixes, sinks));
    const size_t pools_at = header_size + h.behavior, channels_at = pools_at + h.memory_pools, voices_at = channels_at + h.channels;
    const size_t mixes_at = voices_at + h.voices + h.effects, sinks_at = mixes_at + h.mixes, end = sinks_at + h.sinks + h.performance;
    if (end > in.size) return refuse(fmt::format("the parts end at {:#x}, past the {:#x}-byte buffer", end, in.size));
    const size_t reply_size = header_size + pools * memory_pool_out_size + voices * voice_out_size + effects * effect_out_size +
                              sinks * sink_out_size + performance_out_size + behavior_out_size;
    if (out.size < reply_size) return refuse(fmt::format("the reply needs {:#x} bytes, the buffer has {:#x}", reply_size, out.size));

    std::vector<uint8_t> reply(reply_size, 0);
    const UpdateHeader reply_header{h.revision, behavior_out_size, uint32_t(pools * memory_pool_out_size), uint32_t(voices * voice_out_size), 0,
                                    uint32_t(effects * effect_out_size), 0, uint32_t(sinks * sink_out_size), performance_out_size, {},
                                    uint32_t(reply_size)};
    std::memcpy(reply.data(), &reply_header, sizeof reply_header);
    // Memory pools: kiln reads guest memory directly, so attach and detach requests are granted at once.
    for (size_t i = 0; i < pools; ++i) {
      const uint32_t state = field<uint32_t>(data, pools_at + i * memory_pool_in_size + 0x10);
      const uint32_t answer = state == pool_request_attach ? pool_attached : state == pool_request_detach ? pool_detached : 0;
      std::memcpy(reply.data() + header_size + i * memory_pool_out_size, &answer, 4);
    }
    std::lock_guard lock(lock_);
    for (size_t i = 0; i < voices; ++i) {
      const uint8_t* channel = data + channels_at + i * channel_in_size;
      std::memcpy(channel_mix_[i].data(), channel + 4, sizeof(float) * mix_buffers_max);
      if (!channel[0x64]) channel_mix_[i].fill(0.0f);
    }
    for (size_t i = 0; i < voices; ++i)
      if (const Result r = update_voice(c, i, data + voices_at + i * voice_in_size); r != success) return r;
    for (size_t i = 0; i < mixes; ++i) {
      const uint8_t* mix = data + mixes_at + i * mix_in_size;
      if (mix[0xc] && field<uint32_t>(mix, 0x10) == final_mix_id) final_volume_ = field<float>(mix, 0);
    }
    sink_inputs_.clear();
    for (size_t i = 0; i < sinks; ++i) {
      const uint8_t* sink = data + sinks_at + i * sink_in_size;
      if (sink[0] != sink_device || !sink[1]) continue;
      const uint32_t count = std::min<uint32_t>(field<uint32_t>(sink, 0x20 + 0x100), voice_channels_max);
      for (uint32_t k = 0; k < count; ++k) sink_inputs_.push_back(sink[0x20 + 0x104 + k]);
    }
    const size_t voices_out = header_size + pools * memory_pool_out_size;
    for (size_t i = 0; i < voices; ++i) {
      const Voice& v = voices_[i];
      std::memcpy(reply.data() + voices_out + i * voice_out_size, &v.played, 8);
      std::memcpy(reply.data() + voices_out + i * voice_out_size + 8, &v.consumed, 4);
    }
    std::memcpy(out.host(), reply.data(), reply.size());
    return success;
  }

  /// One frame: every started voice resampled and mixed, the device sink's first two inputs to the output.
  void render() {
    std::vector<int16_t> frame;
    {
      std::lock_guard lock(lock_);
      if (!started_) return;
      const size_t count = size_t(parameter_.sample_count);
      std::vector<std::vector<float>> buffers(mix_buffers_max, std::vector<float>(count, 0.0f));
      for (size_t i = 0; i < voices_.size(); ++i) {
        Voice& v = voices_[i];
        if (!v.used || v.state != voice_started || v.destination_mix != final_mix_id) continue;
        fill(v, count);
        const size_t available = std::min(count, v.resampled.size() / v.channel_count);
        for (size_t n = 0; n < available; ++n)
          for (uint32_t ch = 0; ch < v.channel_count; ++ch) {
            const float sample = float(v.resampled[n * v.channel_count + ch]) * v.volume;
            const auto& mix = channel_mix_[std::min<size_t>(v.channel_ids[ch], channel_mix_.size() - 1)];
            for (size_t b = 0; b < size_t(parameter_.mix_buffer_count); ++b) buffers[b][n] += sample * mix[b];
          }
        v.resampled.erase(v.resampled.begin(), v.resampled.begin() + std::ptrdiff_t(available * v.channel_count));
      }
      frame.resize(count * audio_device_channels);
      for (size_t n = 0; n < count; ++n)
        for (uint32_t ch = 0; ch < audio_device_channels; ++ch) {
          if (sink_inputs_.empty()) continue;
          const uint8_t input = sink_inputs_[std::min<size_t>(ch, sink_inputs_.size() - 1)];
          const float value = input < mix_buffers_max ? std::nearbyint(buffers[input][n] * final_volume_) : 0.0f;
          frame[n * audio_device_channels + ch] = int16_t(std::clamp(value, -32768.0f, 32767.0f));
        }
    }
    destination_->play(frame);
  }

private:
  Result update_voice(ipc::Context& c, size_t index, const uint8_t* in) {
    Voice& v = voices_[index];
    const bool is_new = in[0x8], used = in[0x9];
    if (!used) {
      v = Voice{};
      return success;
    }
    if (is_new || !v.used) v = Voice{}; // a new voice (or one stopped by the client) starts from nothing
    v.used = true;
    v.state = in[0xa];
    const uint8_t format = in[0xb];
    const uint32_t rate = field<uint32_t>(in, 0xc), channels = field<uint32_t>(in, 0x18);
    const float pitch = field<float>(in, 0x1c);
    if (format != format_pcm16 || channels < 1 || channels > voice_channels_max || rate == 0 || rate > 192000) {
      c.kernel().report_once(fmt::format("audren voice format {} {} {}", format, channels, rate),
                             fmt::format("audren: RequestUpdate at guest address {:#x}: voice {} has sample format {}, {} channels at {} Hz; "
                                         "kiln renders PCM16 (format 2) voices of 1-6 channels (replying {:#x})",
                                         c.pc(), index, format, channels, rate, invalid_parameter));
      return invalid_parameter;
    }
    if (pitch != 1.0f && !v.reported_pitch) {
      v.reported_pitch = true;
      c.kernel().report_once("audren pitch", fmt::format("audren: voice {} asks for pitch {} at guest address {:#x}; kiln plays voices at "
                                                         "pitch 1 for now", index, pitch, c.pc()));
    }
    if (!v.resampler || v.sample_rate != rate || v.channel_count != channels) {
      v.resampler.emplace(rate, audio_device_rate, channels);
      v.resampled.clear();
    }
    v.sample_rate = rate;
    v.channel_count = channels;
    v.volume = field<float>(in, 0x20);
    v.destination_mix = field<uint32_t>(in, 0x58);
    for (size_t k = 0; k < voice_channels_max; ++k) v.channel_ids[k] = field<uint32_t>(in, 0x140 + 4 * k);
    for (size_t slot = 0; slot < wave_buffer_slots; ++slot) {
      const uint8_t* w = in + 0x60 + slot * 0x38;
      if (w[0x1a]) continue; // sent_to_server: nothing new in this slot
      WaveBuffer b{field<uint64_t>(w, 0), field<uint64_t>(w, 8), field<int32_t>(w, 0x10), field<int32_t>(w, 0x14), true};
      const uint64_t frame_bytes = 2 * uint64_t(channels);
      if (b.start < 0 || b.end < b.start || uint64_t(b.end) * frame_bytes > b.size ||
          !c.kernel().memory().accessible(b.address, std::max<uint64_t>(b.size, 1), permission::read)) {
        c.kernel().report_once("audren wave buffer", fmt::format("audren: RequestUpdate at guest address {:#x}: voice {} wave buffer {} "
                                                                 "(samples {}..{} in {:#x} bytes at {:#x}) is outside readable guest memory; "
                                                                 "replying {:#x}",
                                                                 c.pc(), index, slot, b.start, b.end, b.size, b.address, invalid_update_data));
        return invalid_update_data;
      }
      if (w[0x18]) c.kernel().report_once("audren looping", "audren: looping wave buffers play once in kiln for now");
      v.slots[slot] = b;
    }
    return success;
  }

  /// Hands whole wave buffers to the voice's resampler until a frame's worth of output is waiting (a buffer
  /// counts as consumed once its samples are in the resampler).
  void fill(Voice& v, size_t frames) {
    while (v.resampled.size() < frames * v.channel_count && v.slots[v.next_slot].queued) {
      WaveBuffer& b = v.slots[v.next_slot];
      const size_t count = size_t(b.end - b.start);
      std::vector<int16_t> out;
      if (count) {
        std::vector<int16_t> samples(count * v.channel_count); // the guest's buffer need not be 2-byte aligned
        std::memcpy(samples.data(), rt::host_pointer(b.address + uint64_t(b.start) * 2 * v.channel_count), samples.size() * 2);
        v.resampler->push(samples.data(), count, out);
      }
      v.resampled.insert(v.resampled.end(), out.begin(), out.end());
      v.played += count;
      b.queued = false;
      ++v.consumed;
      v.next_slot = (v.next_slot + 1) % wave_buffer_slots;
    }
  }

  void start_clock() {
    clock_.start(frame_period, [this] {
      render();
      kernel_->signal(*event_);
    });
  }

  Kernel* kernel_;
  RendererParameter parameter_;
  std::shared_ptr<AudioDestination> destination_;
  std::shared_ptr<ReadableEvent> event_ = std::make_shared<ReadableEvent>();
  std::mutex lock_;
  bool started_ = false;
  uint32_t time_limit_ = 100;
  std::vector<Voice> voices_;
  std::vector<std::array<float, mix_buffers_max>> channel_mix_; ///< each voice channel resource's volume per mix buffer
  float final_volume_ = 1;
  std::vector<uint8_t> sink_inputs_; ///< the device sink's mix buffer per output channel
  PeriodicThread clock_;             // last: stopped before the members its tick uses go
};

class AudioRendererManager final : public ipc::ServiceObject {
public:
  explicit AudioRendererManager(std::shared_ptr<AudioDestination> destination) : destination_(std::move(destination)) {}
  std::string_view name() const override { return "audren:u"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "OpenAudioRenderer", ipc::bind<&AudioRendererManager::open_audio_renderer>},
        {1, "GetWorkBufferSize", ipc::bind<&AudioRendererManager::get_work_buffer_size>},
    };
    return table;
  }
  /// {AudioRendererParameter, u32 padding, u64 work buffer size, u64 applet resource user id} + pid + the
  /// work buffer's transfer memory and the process handle; the IAudioRenderer.
  Result open_audio_renderer(ipc::Context& c) {
    const RendererParameter parameter = c.read<RendererParameter>();
    if (const Result r = check(c, parameter); r != success) return r;
    c.push_object(std::make_shared<AudioRenderer>(&c.kernel(), parameter, destination_));
    return success;
  }
  Result get_work_buffer_size(ipc::Context& c) {
    const RendererParameter parameter = c.read<RendererParameter>();
    if (const Result r = check(c, parameter); r != success) return r;
    c.write(work_buffer_size(parameter));
    return success;
  }

private:
  static Result check(ipc::Context& c, const RendererParameter& parameter) {
    const std::string why = unsupported(parameter);
    if (why.empty()) return success;
    c.kernel().report_once("audren parameter " + why, fmt::format("audren: command {} at guest address {:#x}: {}; replying {:#x}", c.command_id(),
                                                                  c.pc(), why, invalid_parameter));
    return invalid_parameter;
  }
  std::shared_ptr<AudioDestination> destination_;
};

} // namespace

void register_audio_renderer(ServiceRegistry& registry, std::shared_ptr<AudioDestination> destination) {
  registry.add("audren:u", [destination] { return std::make_shared<AudioRendererManager>(destination); });
  registry.add_interface("audren:IAudioRenderer", [destination] {
    return std::make_shared<AudioRenderer>(nullptr, RendererParameter{}, destination);
  });
}

} // namespace kiln::hos
