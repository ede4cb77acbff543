// time:u / time:a / time:s (IStaticService) with the host's clock, in UTC: system clocks (seconds since the
// Unix epoch), the steady clock (seconds since the host booted, from CLOCK_MONOTONIC), and a time-zone
// service whose one rule is UTC (switchbrew "Glue services" / PSC time).
#include <time.h>

#include <cstring>

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

class StaticService final : public ipc::ServiceObject {
public:
  explicit StaticService(const char* name) : name_(name) {}
  std::string_view name() const override { return name_; }
  std::span<const ipc::Command> commands() const override {
    static constexpr ipc::Command table[] = {
        {0, "GetStandardUserSystemClock", ipc::bind<&StaticService::system_clock>},
        {1, "GetStandardNetworkSystemClock", ipc::bind<&StaticService::system_clock>},
        {2, "GetStandardSteadyClock", ipc::bind<&StaticService::steady_clock>},
        {3, "GetTimeZoneService", ipc::bind<&StaticService::time_zone_service>},
        {4, "GetStandardLocalSystemClock", ipc::bind<&StaticService::system_clock>},
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

private:
  const char* name_;
};

} // namespace

void register_time(ServiceRegistry& registry) {
  for (const char* name : {"time:u", "time:a", "time:s"}) registry.add(name, [name] { return std::make_shared<StaticService>(name); });
  registry.add_interface("time:ISystemClock", [] { return std::make_shared<SystemClock>(); });
  registry.add_interface("time:ISteadyClock", [] { return std::make_shared<SteadyClock>(); });
  registry.add_interface("time:ITimeZoneService", [] { return std::make_shared<TimeZoneService>(); });
}

} // namespace kiln::hos
