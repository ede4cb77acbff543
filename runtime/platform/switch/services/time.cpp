// time:u / time:a / time:s (IStaticService) with the host's clock, in UTC: system clocks (seconds since the
// Unix epoch), the steady clock (seconds since the host booted, from CLOCK_MONOTONIC), a time-zone service
// whose one rule is UTC (switchbrew "Glue services" / PSC time), and the time shared memory that titles on
// 6.0.0 and later read the clocks from instead of asking.
#include <time.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>

#include "runtime/platform/switch/kernel/kernel.h"
#include "runtime/platform/switch/services/default_services.h"

namespace kiln::hos {

namespace {

struct SteadyClockTimePoint {
  int64_t seconds;
  uint8_t source_id[16];
};
struct SystemClockContext {
  int64_t offset;
  SteadyClockTimePoint time_point;
};
struct CalendarTime {
  int16_t year;
  int8_t month, day, hour, minute, second, padding;
};
struct CalendarAdditionalInfo {
  uint32_t day_of_week, day_of_year;
  char time_zone[8];
  uint32_t is_daylight_saving;
  int32_t utc_offset_seconds;
};
static_assert(sizeof(SystemClockContext) == 0x20 && sizeof(CalendarTime) == 8 && sizeof(CalendarAdditionalInfo) == 0x18);

constexpr uint8_t steady_source[16] = {'k', 'i', 'l', 'n', '-', 'h', 'o', 's', 't', '-', 's', 't', 'e', 'a', 'd', 'y'};
constexpr Result time_invalid_argument = make_result(116, 901); ///< kiln's choice for a calendar time timegm refuses

int64_t clock_seconds(clockid_t clock) {
  timespec now;
  clock_gettime(clock, &now);
  return now.tv_sec;
}

SteadyClockTimePoint steady_now() {
  SteadyClockTimePoint point{clock_seconds(CLOCK_MONOTONIC), {}};
  std::memcpy(point.source_id, steady_source, 16);
  return point;
}

/// The 0x1000-byte time shared memory (switchbrew "Glue services", GetSharedMemoryNativeHandle): lock-free
/// objects, each a u32 counter, 4 bytes of padding and two copies of the value; a reader takes the copy the
/// counter's low bit names and retries while the counter moved. At 0x00 the standard steady clock (base time
/// in ns, source id: its time is base + the system tick in ns), at 0x38 the user system clock context, at 0x80
/// the network system clock context, at 0xC8 whether automatic correction is on.
class TimeSharedMemory {
public:
  static constexpr uint64_t size = 0x1000;
  static constexpr uint64_t steady_clock_offset = 0x00, user_clock_offset = 0x38, network_clock_offset = 0x80,
                            automatic_correction_offset = 0xc8;

  explicit TimeSharedMemory(Kernel& kernel) : memory_(kernel.create_shared_memory(size, 1 /* read */)) {
    // The system tick counts host monotonic nanoseconds (ticks.h), so a base of 0 gives the steady clock that
    // ISteadyClock reports; the system clocks' offsets are realtime minus that steady time.
    struct SteadyClockValue {
      int64_t base_time_ns;
      uint8_t source_id[16];
    };
    static_assert(sizeof(SteadyClockValue) == 0x18);
    SteadyClockValue steady{0, {}};
    std::memcpy(steady.source_id, steady_source, 16);
    write(steady_clock_offset, steady);
    const SteadyClockTimePoint point = steady_now();
    const SystemClockContext context{clock_seconds(CLOCK_REALTIME) - point.seconds, point};
    write(user_clock_offset, context);
    write(network_clock_offset, context);
    write(automatic_correction_offset, uint8_t{0});
  }
  std::shared_ptr<SharedMemory> memory() const { return memory_; }

private:
  /// One update of a lock-free object: the copy the next counter value names, then the counter.
  template <typename T>
  void write(uint64_t offset, const T& value) {
    uint8_t* object = memory_->host + offset;
    uint32_t counter;
    std::memcpy(&counter, object, 4);
    ++counter;
    std::memcpy(object + 8 + (counter & 1) * sizeof(T), &value, sizeof(T));
    std::atomic_thread_fence(std::memory_order_release);
    std::memcpy(object, &counter, 4);
  }
  std::shared_ptr<SharedMemory> memory_;
};

class SystemClock final : public ipc::ServiceObject {
public:
  std::string_view name() const override { return "time:ISystemClock"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "GetCurrentTime", ipc::bind<&SystemClock::get_current_time>},
        {2, "GetSystemClockContext", ipc::bind<&SystemClock::get_context>},
    };
    return table;
  }
  Result get_current_time(ipc::Context& c) {
    c.write<int64_t>(clock_seconds(CLOCK_REALTIME));
    return success;
  }
  Result get_context(ipc::Context& c) {
    const SteadyClockTimePoint point = steady_now();
    c.write(SystemClockContext{clock_seconds(CLOCK_REALTIME) - point.seconds, point});
    return success;
  }
};

class SteadyClock final : public ipc::ServiceObject {
public:
  std::string_view name() const override { return "time:ISteadyClock"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {{0, "GetCurrentTimePoint", ipc::bind<&SteadyClock::get_current_time_point>}};
    return table;
  }
  Result get_current_time_point(ipc::Context& c) {
    c.write(steady_now());
    return success;
  }
};

class TimeZoneService final : public ipc::ServiceObject {
public:
  std::string_view name() const override { return "time:ITimeZoneService"; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "GetDeviceLocationName", ipc::bind<&TimeZoneService::get_device_location_name>},
        {101, "ToCalendarTimeWithMyRule", ipc::bind<&TimeZoneService::to_calendar_time>},
        {201, "ToPosixTimeWithMyRule", ipc::bind<&TimeZoneService::to_posix_time>},
    };
    return table;
  }
  Result get_device_location_name(ipc::Context& c) {
    char location[0x24] = "UTC";
    c.write(location);
    return success;
  }
  Result to_calendar_time(ipc::Context& c) {
    const time_t posix = static_cast<time_t>(c.read<int64_t>());
    tm utc{};
    gmtime_r(&posix, &utc);
    c.write(CalendarTime{static_cast<int16_t>(utc.tm_year + 1900), static_cast<int8_t>(utc.tm_mon + 1), static_cast<int8_t>(utc.tm_mday),
                         static_cast<int8_t>(utc.tm_hour), static_cast<int8_t>(utc.tm_min), static_cast<int8_t>(utc.tm_sec), 0});
    c.write(CalendarAdditionalInfo{static_cast<uint32_t>(utc.tm_wday), static_cast<uint32_t>(utc.tm_yday), "UTC", 0, 0});
    return success;
  }
  Result to_posix_time(ipc::Context& c) {
    const CalendarTime calendar = c.read<CalendarTime>();
    tm utc{};
    utc.tm_year = calendar.year - 1900;
    utc.tm_mon = calendar.month - 1;
    utc.tm_mday = calendar.day;
    utc.tm_hour = calendar.hour;
    utc.tm_min = calendar.minute;
    utc.tm_sec = calendar.second;
    const time_t posix = timegm(&utc);
    if (posix == static_cast<time_t>(-1)) return time_invalid_argument;
    const ipc::GuestBuffer out = c.out_auto(0);
    const int32_t count = out.size >= 8 ? 1 : 0;
    if (count) {
      const int64_t value = posix;
      std::memcpy(out.host(), &value, 8);
    }
    c.write(count);
    return success;
  }
};

/// The process's time shared memory, made at the first request for it.
class TimeState {
public:
  std::shared_ptr<SharedMemory> shared_memory(Kernel& kernel) {
    std::lock_guard guard(lock_);
    if (!shared_) shared_ = std::make_unique<TimeSharedMemory>(kernel);
    return shared_->memory();
  }

private:
  std::mutex lock_;
  std::unique_ptr<TimeSharedMemory> shared_;
};

class StaticService final : public ipc::ServiceObject {
public:
  StaticService(const char* name, std::shared_ptr<TimeState> state) : name_(name), state_(std::move(state)) {}
  std::string_view name() const override { return name_; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "GetStandardUserSystemClock", ipc::bind<&StaticService::system_clock>},
        {1, "GetStandardNetworkSystemClock", ipc::bind<&StaticService::system_clock>},
        {2, "GetStandardSteadyClock", ipc::bind<&StaticService::steady_clock>},
        {3, "GetTimeZoneService", ipc::bind<&StaticService::time_zone_service>},
        {4, "GetStandardLocalSystemClock", ipc::bind<&StaticService::system_clock>},
        {20, "GetSharedMemoryNativeHandle", ipc::bind<&StaticService::shared_memory_handle>},
    };
    return table;
  }
  Result system_clock(ipc::Context& c) {
    c.push_object(std::make_shared<SystemClock>());
    return success;
  }
  Result steady_clock(ipc::Context& c) {
    c.push_object(std::make_shared<SteadyClock>());
    return success;
  }
  Result time_zone_service(ipc::Context& c) {
    c.push_object(std::make_shared<TimeZoneService>());
    return success;
  }

  Result shared_memory_handle(ipc::Context& c) {
    c.push_copy_handle(state_->shared_memory(c.kernel()));
    return success;
  }

private:
  const char* name_;
  std::shared_ptr<TimeState> state_;
};

} // namespace

void register_time(ServiceRegistry& registry) {
  auto state = std::make_shared<TimeState>(); // one shared memory per process, whichever name hands it out
  for (const char* name : {"time:u", "time:a", "time:s"})
    registry.add(name, [name, state] { return std::make_shared<StaticService>(name, state); });
  registry.add_interface("time:ISystemClock", [] { return std::make_shared<SystemClock>(); });
  registry.add_interface("time:ISteadyClock", [] { return std::make_shared<SteadyClock>(); });
  registry.add_interface("time:ITimeZoneService", [] { return std::make_shared<TimeZoneService>(); });
}

} // namespace kiln::hos
