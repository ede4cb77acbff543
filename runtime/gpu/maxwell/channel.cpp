#include "runtime/gpu/maxwell/channel.h"

#include <fmt/format.h>

#include <span>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/classes/methods_c56f.h"
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

Channel::Channel(Gpu& gpu, uint32_t id, ClassId host_class) : gpu_(gpu), id_(id), host_class_(host_class) {}
Channel::~Channel() = default;

void Channel::set_host_class(ClassId wanted) {
  if (!is_host_class(static_cast<uint32_t>(wanted))) {
    throw Error(fmt::format("{} is no host class (B06F or C56F)", class_name(static_cast<uint32_t>(wanted))));
  }
  if (started_ && wanted != host_class_) {
    throw Error(fmt::format("channel {} has run {} methods; its host class cannot change to {}", id_, class_name(host_class()),
                            class_name(static_cast<uint32_t>(wanted))));
  }
  host_class_ = wanted;
}

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
          fault(address, target ? target->class_id() : host_class(), pending_.method,
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
          fault(address, target ? target->class_id() : host_class(), header.method,
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
  const uint32_t deferred_class = deferred_engine_ ? deferred_engine_->class_id() : static_cast<uint32_t>(ClassId::threed);
  try {
    flush_engines();
  } catch (const std::exception& error) {
    fault(0, deferred_class, 0, message_of(error));
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
  started_ = true;
  if (method < host_method::first_engine_method) {
    if (gpu_.tracing()) {
      gpu_.trace(MethodTrace{id_, address, subchannel, host_class(), method, value, false});
    }
    flush_engines();
    blocked_address_ = address;
    blocked_method_ = method;
    blocked_class_ = host_class();
    host_method(subchannel, method, value);
    return;
  }
  Engine* target = subchannels_[subchannel];
  if (target == nullptr) {
    throw Error(fmt::format("method 0x{:04x} sent to subchannel {}, which no SET_OBJECT bound", method, subchannel));
  }
  if (gpu_.tracing()) gpu_.trace(MethodTrace{id_, address, subchannel, target->class_id(), method, value, false});
  // A method the class header does not define is reported (the channel faults naming class, method and address),
  // never stored and ignored.
  if (!is_known_method(target->class_id(), method)) {
    throw Error(fmt::format("method 0x{:04x} is not a method of {}", method, class_name(target->class_id())));
  }
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
  const bool ampere = host_class_ == ClassId::host_ampere;
  switch (method) {
  case host_method::set_object: bind(subchannel, extract_bits(value, 0, 16)); return;
  case host_method::illegal: throw Error("ILLEGAL host method");
  case host_method::semaphore_d: semaphore_operation(value); return;
  case host_method::syncpoint_b: syncpoint_operation(value); return;
  case host_method::set_reference: reference_ = value; return;
  case host_method::mem_op_d: memory_operation(value); return;
  // Every method here completes in order before the next one, so WFI, flushes and memory ops have nothing to wait
  // for; they are kept in the register file only.
  case host_method::nop:
  case host_method::semaphore_a:
  case host_method::semaphore_b:
  case host_method::semaphore_c:
  case host_method::non_stall_interrupt:
  case host_method::fb_flush:
  case host_method::mem_op_c:
  case host_method::syncpoint_a:
  case host_method::wfi:
  case host_method::yield: return;
  case host_method::crc_check:
    if (!ampere) return;
    break;
  default: break;
  }
  if (ampere) {
    switch (method) {
    case host_method::sem_execute: semaphore_execute(value); return;
    // MEM_OP_A/B carry the targets of TLB invalidates and replays (one address space, nothing cached); SEM_ADDR and
    // SEM_PAYLOAD are read by SEM_EXECUTE; CLEAR_FAULTED has no faulted engine to clear.
    case host_method::mem_op_a:
    case host_method::mem_op_b:
    case host_method::sem_addr_lo:
    case host_method::sem_addr_hi:
    case host_method::sem_payload_lo:
    case host_method::sem_payload_hi:
    case host_method::clear_faulted: return;
    default: break;
    }
  }
  throw Error(fmt::format("method 0x{:04x} is not a method of {}", method, class_name(host_class())));
}

void Channel::memory_operation(uint32_t value) {
  // MEM_OP_D starts the operation the MEM_OPs before it describe. kiln's GPU has one coherent memory and completes
  // work in order, so membars, TLB invalidates, L2 flushes and invalidates have nothing to do; an operation the
  // channel's host class does not name is refused.
  static_assert(class_b06f::field::mem_op_d_operation.low == class_c56f::field::mem_op_d_operation.low &&
                class_b06f::field::mem_op_d_operation.width == class_c56f::field::mem_op_d_operation.width);
  const uint32_t operation = class_c56f::field::mem_op_d_operation(value);
  namespace a = class_c56f::value;
  namespace m = class_b06f::value;
  static constexpr uint32_t ampere_operations[] = {
      a::mem_op_d_operation_membar,          a::mem_op_d_operation_mmu_tlb_invalidate,
      a::mem_op_d_operation_mmu_tlb_invalidate_targeted, a::mem_op_d_operation_l2_peermem_invalidate,
      a::mem_op_d_operation_l2_sysmem_invalidate, a::mem_op_d_operation_l2_clean_comptags,
      a::mem_op_d_operation_l2_flush_dirty,  a::mem_op_d_operation_l2_wait_for_sys_pending_reads,
      a::mem_op_d_operation_access_counter_clr};
  static constexpr uint32_t maxwell_operations[] = {
      m::mem_op_d_operation_membar,         m::mem_op_d_operation_mmu_tlb_invalidate,
      m::mem_op_d_operation_l2_peermem_invalidate, m::mem_op_d_operation_l2_sysmem_invalidate,
      m::mem_op_d_operation_l2_clean_comptags, m::mem_op_d_operation_l2_flush_dirty};
  const std::span<const uint32_t> named =
      host_class_ == ClassId::host_ampere ? std::span<const uint32_t>(ampere_operations) : std::span<const uint32_t>(maxwell_operations);
  for (uint32_t known : named) {
    if (operation == known) return;
  }
  throw Error(fmt::format("MEM_OP_D operation 0x{:x} is not one {} defines", operation, class_name(host_class())));
}

void Channel::semaphore_execute(uint32_t value) {
  namespace f = class_c56f::field;
  namespace v = class_c56f::value;
  const uint64_t address = (uint64_t{f::sem_addr_hi_offset(host_register(host_method::sem_addr_hi))} << 32) |
                           (uint64_t{f::sem_addr_lo_offset(host_register(host_method::sem_addr_lo))} << 2);
  const bool wide = f::sem_execute_payload_size(value) == v::sem_execute_payload_size_64bit;
  const uint64_t payload = (wide ? uint64_t{host_register(host_method::sem_payload_hi)} << 32 : 0) |
                           host_register(host_method::sem_payload_lo);
  const unsigned bits = wide ? 64 : 32;
  AddressSpace& memory = gpu_.memory();
  auto current = [&] { return wide ? memory.read_u64(address) : memory.read_u32(address); };
  auto acquire = [&](AcquireCompare compare) {
    const uint64_t now = current();
    if (!acquire_met(compare, now, payload, bits)) throw AcquireNotMet{address, describe_acquire(compare, payload), now};
  };
  auto store = [&](uint64_t released) {
    if (f::sem_execute_release_timestamp(value) == v::sem_execute_release_timestamp_en) { // {payload, timestamp}
      if (wide) write_report(memory, address, released, gpu_.timestamp());
      else write_four_word_release(memory, address, static_cast<uint32_t>(released), gpu_.timestamp());
    } else if (wide) {
      memory.write_u64(address, released);
    } else {
      memory.write_u32(address, static_cast<uint32_t>(released));
    }
    gpu_.signal();
  };
  switch (f::sem_execute_operation(value)) {
  case v::sem_execute_operation_acquire: acquire(AcquireCompare::equal); return;
  case v::sem_execute_operation_acq_strict_geq: acquire(AcquireCompare::greater_equal); return;
  case v::sem_execute_operation_acq_circ_geq: acquire(AcquireCompare::circular_greater_equal); return;
  case v::sem_execute_operation_acq_and: acquire(AcquireCompare::and_nonzero); return;
  case v::sem_execute_operation_release: store(payload); return;
  case v::sem_execute_operation_reduction: {
    if (wide) throw Error("SEM_EXECUTE: 64-bit semaphore reductions are not implemented");
    // The host numbering (IMIN IMAX IXOR IAND IOR IADD INC DEC), as SEMAPHORED's.
    static constexpr Reduction host_reductions[] = {Reduction::min,     Reduction::max,    Reduction::bit_xor,
                                                    Reduction::bit_and, Reduction::bit_or, Reduction::add,
                                                    Reduction::inc,     Reduction::dec};
    const uint32_t op = f::sem_execute_reduction(value);
    if (op >= 8) throw Error(fmt::format("SEM_EXECUTE reduction {} is reserved", op));
    const bool is_signed = f::sem_execute_reduction_format(value) == v::sem_execute_reduction_format_signed;
    store(reduce(host_reductions[op], is_signed, memory.read_u32(address), static_cast<uint32_t>(payload)));
    return;
  }
  case v::sem_execute_operation_acq_nor:
    // Its comparison is not described in open-gpu-doc (the headers only name it): refused rather than guessed.
    throw Error("SEM_EXECUTE operation ACQ_NOR is not implemented");
  default: throw Error(fmt::format("SEM_EXECUTE operation {} is reserved", f::sem_execute_operation(value)));
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
