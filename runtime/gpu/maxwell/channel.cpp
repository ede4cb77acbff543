#include "runtime/gpu/maxwell/channel.h"

#include <fmt/format.h>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/engines.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/semaphore.h"

namespace kiln::maxwell {

namespace {
// kiln::Error without its location prefix (the diagnostic carries the location); anything else as it says.
std::string message_of(const std::exception& error) {
  if (const auto* kiln_error = dynamic_cast<const Error*>(&error)) {
    return kiln_error->location().address ? format_error(kiln_error->location(), kiln_error->message())
                                          : kiln_error->message();
  }
  return std::string("internal error: ") + error.what();
}
} // namespace

Channel::Channel(Gpu& gpu, uint32_t id) : gpu_(gpu), id_(id) {}
Channel::~Channel() = default;

Engine* Channel::engine_of_class(uint32_t class_id) const {
  auto it = engines_.find(class_id);
  return it == engines_.end() ? nullptr : it->second.get();
}

void Channel::fault(uint64_t address, uint32_t class_id, uint32_t method, const std::string& message) {
  state_ = State::faulted;
  gpu_.report(Diagnostic{Diagnostic::Severity::error, id_, address, class_id, method, message});
}

bool Channel::run() {
  if (state_ == State::faulted || state_ == State::idle) return false;
  bool progress = false;
  while (!queue_.empty()) {
    const GpfifoEntry& entry = queue_.front();
    if (entry.length == 0) { // control entry: NOP, or opcodes kiln does not model
      if (entry.control_opcode == 1) {
        fault(entry.address, 0, 0, "GPFIFO control entry ILLEGAL");
        return progress;
      }
      queue_.pop_front();
      progress = true;
      continue;
    }
    const uint64_t bytes = uint64_t{entry.length} * 4;
    const auto* host = gpu_.memory().host_pointer(entry.address, bytes);
    if (host == nullptr || entry.address % 4 != 0) {
      fault(entry.address, 0, 0,
            fmt::format("GPFIFO entry of {} words at 0x{:x} is not in mapped GPU memory", entry.length, entry.address));
      return progress;
    }
    if (word_offset_ == 0) gpu_.memory().note_access(entry.address, bytes);
    state_ = State::running;
    while (word_offset_ < entry.length) {
      const uint32_t word = load<uint32_t>(host + uint64_t{word_offset_} * 4, Endian::little);
      const uint64_t address = entry.address + uint64_t{word_offset_} * 4;
      if (pending_.remaining > 0) {
        try {
          dispatch(pending_.subchannel, pending_.method, word, address);
        } catch (const AcquireNotMet& wait) {
          waiting_ = wait;
          state_ = State::blocked;
          return progress;
        } catch (const std::exception& error) {
          Engine* target = pending_.method < host_method::first_engine_method ? nullptr : engine(pending_.subchannel);
          fault(address, target ? target->class_id() : static_cast<uint32_t>(ClassId::host), pending_.method,
                message_of(error));
          return progress;
        }
        waiting_.reset();
        progress = true;
        --pending_.remaining;
        if (pending_.kind == HeaderKind::increasing) {
          pending_.method += 4;
        } else if (pending_.kind == HeaderKind::increment_once) {
          pending_.method += 4;
          pending_.kind = HeaderKind::non_increasing;
        }
        ++word_offset_;
        continue;
      }
      const MethodHeader header = MethodHeader::decode(word);
      switch (header.kind) {
      case HeaderKind::increasing:
      case HeaderKind::non_increasing:
      case HeaderKind::increment_once:
        pending_ = PendingMethods{header.kind, header.subchannel, header.method, header.count};
        ++word_offset_;
        break;
      case HeaderKind::immediate:
        try {
          dispatch(header.subchannel, header.method, header.count, address);
        } catch (const AcquireNotMet& wait) {
          waiting_ = wait;
          state_ = State::blocked;
          return progress;
        } catch (const std::exception& error) {
          Engine* target = header.method < host_method::first_engine_method ? nullptr : engine(header.subchannel);
          fault(address, target ? target->class_id() : static_cast<uint32_t>(ClassId::host), header.method,
                message_of(error));
          return progress;
        }
        waiting_.reset();
        ++word_offset_;
        break;
      case HeaderKind::end_segment: word_offset_ = entry.length; break;
      case HeaderKind::subdevice_mask: ++word_offset_; break;
      case HeaderKind::invalid:
        fault(address, 0, 0, fmt::format("invalid method header 0x{:08x} (reserved SEC_OP)", word));
        return progress;
      }
      progress = true;
    }
    queue_.pop_front();
    word_offset_ = 0;
  }
  // The queue ran dry: deferred work (a macro whose parameters ended with the submission) runs now.
  try {
    flush_engines();
  } catch (const std::exception& error) {
    fault(0, static_cast<uint32_t>(ClassId::threed), 0, message_of(error));
    return progress;
  }
  state_ = State::idle; // a header's data may still continue in a later submission (pending_ keeps it)
  return progress;
}

void Channel::flush_engines() {
  if (deferred_engine_ != nullptr) {
    Engine* engine = deferred_engine_;
    deferred_engine_ = nullptr;
    engine->flush();
  }
}

void Channel::dispatch(uint32_t subchannel, uint32_t method, uint32_t value, uint64_t address) {
  gpu_.tick();
  if (method < host_method::first_engine_method) {
    if (gpu_.tracing()) {
      gpu_.trace(MethodTrace{id_, address, subchannel, static_cast<uint32_t>(ClassId::host), method, value, false});
    }
    flush_engines();
    blocked_address_ = address;
    blocked_method_ = method;
    blocked_class_ = static_cast<uint32_t>(ClassId::host);
    host_method(subchannel, method, value);
    return;
  }
  Engine* target = subchannels_[subchannel];
  if (target == nullptr) {
    throw Error(fmt::format("method 0x{:04x} sent to subchannel {}, which no SET_OBJECT bound", method, subchannel));
  }
  if (gpu_.tracing()) gpu_.trace(MethodTrace{id_, address, subchannel, target->class_id(), method, value, false});
  if (deferred_engine_ != nullptr && deferred_engine_ != target) flush_engines();
  blocked_address_ = address;
  blocked_method_ = method;
  blocked_class_ = target->class_id();
  target->write(method, value);
  if (target->has_deferred()) deferred_engine_ = target;
}

void Channel::bind(uint32_t subchannel, uint32_t class_id) {
  auto it = engines_.find(class_id);
  if (it == engines_.end()) {
    std::unique_ptr<Engine> created = create_engine(gpu_, id_, class_id);
    if (!created) {
      throw Error(fmt::format("SET_OBJECT binds subchannel {} to {}, which kiln does not implement", subchannel,
                              class_name(class_id)));
    }
    it = engines_.emplace(class_id, std::move(created)).first;
  }
  subchannels_[subchannel] = it->second.get();
}

void Channel::host_method(uint32_t subchannel, uint32_t method, uint32_t value) {
  host_registers_[(method >> 2) & 63] = value;
  switch (method) {
  case host_method::set_object: bind(subchannel, extract_bits(value, 0, 16)); break;
  case host_method::illegal: throw Error("ILLEGAL host method");
  case host_method::semaphore_d: semaphore_operation(value); break;
  case host_method::syncpoint_b: syncpoint_operation(value); break;
  case host_method::set_reference: reference_ = value; break;
  // Every method here completes in order before the next one, so WFI, flushes and memory ops have nothing to wait
  // for; they are kept in the register file only.
  case host_method::nop:
  case host_method::semaphore_a:
  case host_method::semaphore_b:
  case host_method::semaphore_c:
  case host_method::non_stall_interrupt:
  case host_method::fb_flush:
  case host_method::mem_op_c:
  case host_method::mem_op_d:
  case host_method::syncpoint_a:
  case host_method::wfi:
  case host_method::crc_check:
  case host_method::yield: break;
  default: throw Error(fmt::format("unknown host method 0x{:04x}", method));
  }
}

void Channel::semaphore_operation(uint32_t value) {
  const uint64_t address = (uint64_t{host_register(host_method::semaphore_a) & 0xff} << 32) |
                           (host_register(host_method::semaphore_b) & ~uint32_t{3});
  const uint32_t payload = host_register(host_method::semaphore_c);
  const uint32_t operation = extract_bits(value, 0, 5);
  auto acquire = [&](AcquireCompare compare) {
    const uint32_t current = gpu_.memory().read_u32(address);
    if (!acquire_met(compare, current, payload)) {
      throw AcquireNotMet{address, describe_acquire(compare, payload), current};
    }
  };
  switch (operation) {
  case 1: acquire(AcquireCompare::equal); return;
  // Maxwell's ACQ_GEQ is taken as the wrap-around compare (Volta's manual calls it ACQ_CIRC_GEQ).
  case 4: acquire(AcquireCompare::circular_greater_equal); return;
  case 8: acquire(AcquireCompare::and_nonzero); return;
  case 2: { // RELEASE
    const bool four_bytes = extract_bits(value, 24, 1) != 0;
    if (four_bytes) gpu_.memory().write_u32(address, payload);
    else write_four_word_release(gpu_.memory(), address, payload, gpu_.timestamp());
    gpu_.signal();
    return;
  }
  case 0x10: { // REDUCTION: SEMAPHORED_REDUCTION numbers min, max, xor, and, or, add, inc, dec
    static constexpr Reduction host_reductions[] = {Reduction::min,     Reduction::max,    Reduction::bit_xor,
                                                    Reduction::bit_and, Reduction::bit_or, Reduction::add,
                                                    Reduction::inc,     Reduction::dec};
    const uint32_t op = extract_bits(value, 27, 4);
    if (op >= 8) throw Error(fmt::format("semaphore reduction {} is reserved", op));
    const bool is_signed = extract_bits(value, 31, 1) == 0; // FORMAT: 0 signed, 1 unsigned
    const uint32_t current = gpu_.memory().read_u32(address);
    gpu_.memory().write_u32(address, reduce(host_reductions[op], is_signed, current, payload));
    gpu_.signal();
    return;
  }
  default: throw Error(fmt::format("semaphore operation 0x{:x} is not one of ACQUIRE, RELEASE, ACQ_GEQ, ACQ_AND, "
                                   "REDUCTION", operation));
  }
}

void Channel::syncpoint_operation(uint32_t value) {
  const uint32_t operation = extract_bits(value, 0, 2);
  const uint32_t index = extract_bits(value, 8, 8);
  if (index >= Gpu::syncpoint_count) throw Error(fmt::format("syncpoint {} does not exist", index));
  const uint32_t payload = host_register(host_method::syncpoint_a);
  switch (operation) {
  case 0: { // WAIT: the syncpoint reaches the payload (wrap-around compare, like host1x)
    const uint32_t current = gpu_.syncpoint(index);
    if (static_cast<int32_t>(current - payload) < 0) {
      throw AcquireNotMet{0, fmt::format("syncpoint {} >= {}", index, payload), current};
    }
    return;
  }
  case 1: gpu_.increment_syncpoint(index); return;
  default: throw Error(fmt::format("syncpoint base operation {} is not supported", operation));
  }
}

} // namespace kiln::maxwell
